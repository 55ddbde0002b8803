"""The print schemas' validator, on its own."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_profile_is_validated_in_a_process_that_imported_nothing_else():
    """The print schemas refer to `../defs.json` from a relic:// id: resolving that needs the
    scheme taught to urljoin, which the validator must see to itself."""
    code = ("from pipeline.cards.formats import validator\n"
            "errors = list(validator('profile').iter_errors("
            "{'components': {'Not An Id': {'format': 'poker'}}}))\n"
            "print(len(errors), errors[0].validator)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "pattern"]
