"""Random pack folders (names, file types, contents): `relic check` never raises, never hangs
and never opens anything outside the pack. The property runs in a child process under the audit
hook (fuzz_child.py); hypothesis is derandomized there, so every run sees the same examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().parent / "fuzz_child.py"
EXAMPLES = 60


def test_random_pack_folders_never_break_check() -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(CHILD), str(EXAMPLES)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in proc.stdout.splitlines() if line.startswith('{"ok"')]
    assert lines, (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])
    outcome = json.loads(lines[-1])
    assert outcome["ok"], outcome["error"] + "\n" + proc.stdout[-3000:]
    assert outcome["examples"] >= EXAMPLES // 2, outcome  # most examples ran to the end
    assert set(outcome["codes"]) <= {"0", "1", "2"} and "1" in outcome["codes"], outcome
