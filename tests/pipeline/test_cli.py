"""`relic check` and `relic export model`: formats, exit codes, clean errors."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

from pipeline import cli
from pipeline.stages import analyze

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packs"
MINI = FIXTURES / "valid" / "mini"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_pack_exits_zero(capsys) -> None:
    code, out, _ = run(capsys, "check", str(MINI))
    assert code == 0
    assert out.strip() == "0 error(s), 0 warning(s)"


def test_content_errors_exit_one_with_located_text(capsys) -> None:
    code, out, _ = run(capsys, "check", str(FIXTURES / "invalid" / "unresolved-ref"))
    assert code == 1
    first = out.splitlines()[0]
    assert first.endswith(
        "critters.yaml:5:9: error[unresolved-ref]: 'dne' does not name any lair in this pack"
    )
    assert out.splitlines()[1] == "  hint: did you mean 'den'?"


def test_warnings_pass_unless_strict(capsys) -> None:
    pack = str(FIXTURES / "invalid" / "missing-translation")
    assert run(capsys, "check", pack)[0] == 0
    code, out, _ = run(capsys, "check", "--strict", pack)
    assert code == 1 and "error[missing-translation]" in out


def test_folder_of_packs_checks_every_pack(capsys) -> None:
    code, out, _ = run(capsys, "check", "--format", "json", str(FIXTURES / "invalid"))
    assert code == 1
    cases = {Path(d["file"]).parent.name for d in json.loads(out)}
    assert cases == {p.name for p in (FIXTURES / "invalid").iterdir()}


def test_json_format(capsys) -> None:
    _, out, _ = run(capsys, "check", "--format", "json", str(FIXTURES / "invalid" / "table-gap"))
    [item] = json.loads(out)
    assert item["code"] == "table-gap" and (item["line"], item["col"]) == (7, 14)
    assert item["severity"] == "error" and item["file"].endswith("tables.yaml")


def test_github_format(capsys) -> None:
    _, out, _ = run(
        capsys, "check", "--format", "github", str(FIXTURES / "invalid" / "duplicate-key")
    )
    assert out.startswith("::error file=")
    assert ",line=6,col=3,title=duplicate-key::duplicate key 'speed'" in out


def test_sarif_format(capsys) -> None:
    _, out, _ = run(capsys, "check", "--format", "sarif", str(FIXTURES / "invalid" / "custom-tag"))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    [result] = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert result["ruleId"] == "custom-tag" and region == {"startLine": 4, "startColumn": 10}


def test_usage_error_exits_two(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["check", "--format", "xml"])
    assert info.value.code == 2
    assert "error[usage]" in capsys.readouterr().err


def test_missing_path_exits_two(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "check", str(tmp_path / "nowhere"))
    assert code == 2 and "error[no-such-path]" in out


def test_internal_error_is_one_clean_line_and_traceback_only_with_debug(
    capsys, monkeypatch
) -> None:
    def boom(_path):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("pipeline.commands.check.collect", boom)
    code, _, err = run(capsys, "check", str(MINI))
    assert code == 2
    assert err.splitlines()[0] == "relic: error[internal]: RuntimeError: disk on fire"
    assert "Traceback" not in err
    code, _, err = run(capsys, "--debug", "check", str(MINI))
    assert code == 2 and "Traceback" in err


def test_export_model_is_sorted_stable_json(capsys) -> None:
    code, out, _ = run(
        capsys, "export", "model", "--pack", "mini", "--content", str(FIXTURES / "valid")
    )
    assert code == 0
    model = json.loads(out)
    assert model["pack"]["id"] == "mini" and model["pack"]["languages"] == ["ru", "en"]
    keys = [(e["kind"], e["id"]) for e in model["entities"]]
    assert keys == sorted(keys) == [("critter", "rat"), ("lair", "den"), ("table", "loot")]
    rat = model["entities"][0]
    assert rat == {
        "id": "rat",
        "kind": "critter",
        "count": 1,
        "lair": "den",
        "speed": 2,
        "name": {"en": "Rat", "ru": "Крыса"},
    }
    assert list(rat) == sorted(rat)
    code, again, _ = run(
        capsys, "export", "model", "--pack", "mini", "--content", str(FIXTURES / "valid")
    )
    assert again == out


def test_export_of_a_broken_pack_reports_diagnostics(capsys, tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "invalid" / "table-gap", tmp_path / "table-gap")
    code, out, err = run(
        capsys, "export", "model", "--pack", "table-gap", "--content", str(tmp_path)
    )
    assert code == 1 and out == "" and "error[table-gap]" in err


def test_unknown_pack_is_a_clean_error(capsys) -> None:
    code, _, err = run(
        capsys, "export", "model", "--pack", "nope", "--content", str(FIXTURES / "valid")
    )
    assert code == 1 and "error[unknown-pack]" in err and "mini" in err


def test_model_locates_values() -> None:
    model = analyze(MINI).model
    assert model is not None
    assert str(model.locate("loot", "rows.2.critter")).endswith("tables.yaml:8:60")
    assert model.by_id["rat"].get("name.en") == "Rat"


def test_a_named_command_imports_only_its_own_module() -> None:
    """`relic build` does not import the simulator or the server; `relic --help` and a
    mistyped command list every command."""
    import subprocess
    import sys

    probe = ("import sys; from pipeline.cli import build_parser; build_parser({argv!r}); "
             "print(sorted(m.split('.')[-1] for m in sys.modules "
             "if m.startswith('pipeline.commands.')))")

    def loaded(argv: list[str]) -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe.format(argv=argv)], check=True,
                              capture_output=True, text=True)
        return json.loads(done.stdout.replace("'", '"'))

    assert loaded(["build", "--pack", "x"]) == ["build", "output"]
    assert loaded(["--debug", "sim", "--pack", "x"]) == ["sim"]
    everything = loaded(["--help"])
    assert {"build", "check", "serve", "sim", "watch"} <= set(everything)
    assert loaded(["buidl"]) == everything
    assert loaded(["output"]) == everything  # a helper module, not a command


def test_the_program_exits_with_main_s_code_and_all_its_output() -> None:
    """`relic` skips the interpreter's teardown (`cli.run`): what it printed to a pipe is all
    there, its exit handlers ran, and the code is main's."""
    import subprocess
    import sys

    exported = subprocess.run([sys.executable, "-m", "pipeline.cli", "export", "model",
                               "--pack", "mini", "--content", str(FIXTURES / "valid")],
                              capture_output=True, text=True)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["pack"]["id"] == "mini"  # the whole JSON, flushed
    broken = subprocess.run([sys.executable, "-m", "pipeline.cli", "check",
                             str(FIXTURES / "invalid" / "unresolved-ref")],
                            capture_output=True, text=True)
    assert broken.returncode == 1
    assert "error[unresolved-ref]" in broken.stdout
    handlers = subprocess.run(
        [sys.executable, "-c", "import atexit, sys; from pipeline import cli; "
         "atexit.register(lambda: print('handler ran', flush=True)); "
         "sys.argv = ['relic', 'check', sys.argv[1]]; cli.run()", str(MINI)],
        capture_output=True, text=True)
    assert handlers.returncode == 0
    assert handlers.stdout.splitlines() == ["0 error(s), 0 warning(s)", "handler ran"]


def test_a_reader_that_goes_away_ends_relic_quietly() -> None:
    """`relic check ... | head -0`: when the pipe is closed before relic writes, relic stops
    with 141 and says nothing of an internal error."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "pipeline.cli", "check", str(MINI)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # gone before relic has imported anything, let alone written
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141, err
    assert "internal" not in err and "Traceback" not in err


def test_a_second_ctrl_c_ends_the_program_at_once_with_its_processes() -> None:
    """Ctrl-C stops the work with a KeyboardInterrupt, and the program cleans up as it unwinds;
    when that cleanup waits for ever (a build interrupted twice while writing waited at exit
    for a writer its shutdown had left waiting for work), a second Ctrl-C ends the program at
    once, with exit code 130, and ends the processes it started."""
    import os
    import signal
    import subprocess
    import sys

    script = (
        "import multiprocessing, time\n"
        "from pipeline.cli import on_interrupt\n"
        "on_interrupt()\n"
        "child = multiprocessing.get_context('fork').Process(target=time.sleep, args=(600,))\n"
        "child.start()\n"
        "try:\n"
        "    print(child.pid, flush=True)  # inside: the first Ctrl-C may come at once\n"
        "    time.sleep(600)  # the work, which the first Ctrl-C stops\n"
        "except KeyboardInterrupt:\n"
        "    print('cleaning up', flush=True)\n"
        "    child.join()  # a cleanup that never ends\n")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=root, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child = None
    try:
        child = int(proc.stdout.readline())
        proc.send_signal(signal.SIGINT)
        assert proc.stdout.readline().strip() == "cleaning up"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == cli.EXIT_INTERRUPTED, proc.stderr.read()
        assert _ended(child), "the program's child process outlived it"
    finally:
        proc.kill()
        proc.wait()
        if child is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def _ended(pid: int, wait: float = 5.0) -> bool:
    """The process is gone, or killed and not yet reaped by whoever adopted it."""
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(") ", 1)[1].startswith("Z"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False
