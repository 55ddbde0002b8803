"""`pipeline/bootstrap.py` (what `make` runs first): pip's output turned into a calm status."""

from __future__ import annotations

import importlib.util
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "pipeline" / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def fake_pip(tmp_path: Path, lines: list[str], code: int = 0) -> Path:
    """An executable that prints what pip would, whatever it is asked."""
    script = tmp_path / "python"
    body = "".join(f"echo {line!r}\n" for line in lines)
    script.write_text(f"#!/bin/sh\n{body}exit {code}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_missing_index_folders_are_one_line_and_other_warnings_stay(tmp_path: Path,
                                                                     capsys) -> None:
    python = fake_pip(tmp_path, [
        "Collecting jsonschema",
        "WARNING: Location 'file:///opt/pypi/simple/jsonschema/' is ignored: it is neither a "
        "file nor a directory.",
        "WARNING: Location 'file:///opt/more/simple/jsonschema/' is ignored: it is neither a "
        "file nor a directory.",
        "Collecting ruamel.yaml",
        "WARNING: Location 'file:///opt/pypi/simple/ruamel-yaml/' is ignored: it is neither a "
        "file nor a directory.",
        "WARNING: a warning of pip's own",
        "Successfully installed jsonschema-4 ruamel.yaml-0.18",
    ])
    bootstrap = _bootstrap()
    assert bootstrap.pip(python, ["install", "x"], fancy=False) == 2
    bootstrap.pip(python, ["install", "y"], fancy=False)  # every run's folders: said once
    bootstrap.tell_missing_folders()
    out, err = capsys.readouterr()
    assert "is ignored" not in out + err
    assert err == "WARNING: a warning of pip's own\n" * 2
    assert out == ("relic: pip's configuration names index folders that do not exist here "
                   "(file:///opt/more, file:///opt/pypi); pip went on without them\n")


def test_a_failing_pip_shows_its_last_lines(tmp_path: Path, capsys) -> None:
    python = fake_pip(tmp_path, ["Collecting nothing", "ERROR: No matching distribution"], 1)
    try:
        _bootstrap().pip(python, ["install", "nothing"], fancy=False)
    except SystemExit as exc:
        assert "pip failed (exit 1)" in str(exc)
    else:
        raise AssertionError("pip's failure was not reported")
    out, err = capsys.readouterr()
    assert "ERROR: No matching distribution" in err
    assert "Collecting nothing" in out
