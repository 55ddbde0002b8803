"""Runs hostile cases in child processes (`runner.py`), a batch of them per process."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "runner.py"
GIB_KIB = 1024 * 1024


def nobody() -> tuple[int, int] | None:
    """(uid, gid) of an unprivileged user when we are root; None when we are not root (then
    permissions already apply to us) or there is no such user."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def as_user(ids: tuple[int, int] | None) -> list[str]:
    """The command prefix that runs a program as `ids` (setpriv, from util-linux)."""
    if ids is None:
        return []
    tool = shutil.which("setpriv")
    if tool is None:
        raise AssertionError("setpriv (util-linux) is needed to run a case as another user")
    return [tool, f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups"]


def scratch() -> Path:
    """A folder for case folders that an unprivileged user may enter, with no project marker
    (.git, pyproject.toml) above it, so that each pack is its own project."""
    folder = Path(tempfile.mkdtemp(prefix="relic-hostile-"))
    folder.chmod(0o755)
    for above in (folder, *folder.parents):
        assert not (above / ".git").exists() and not (above / "pyproject.toml").exists(), above
    return folder


def remove(folder: Path) -> None:
    """Remove a case folder, whatever permissions its cases took away."""
    for path in [folder, *folder.rglob("*")]:
        try:
            if not path.is_symlink() and path.is_dir():
                path.chmod(stat.S_IRWXU)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def run_batch(cases: list[dict], log: Path, *, user: str = "root", kill_on: dict | None = None,
              timeout: float = 300) -> tuple[list[dict], list[dict], int]:
    """Run cases in one child; return (one result per case, audit violations, return code)."""
    log.touch()
    log.chmod(0o666)
    job = json.dumps({"cases": cases, "log": str(log), "kill_on": kill_on})
    ids = nobody() if user == "nobody" else None
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([*as_user(ids), sys.executable, str(RUNNER)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env,
                            start_new_session=True, text=True)
    try:
        out, err = proc.communicate(job, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"the batch hung: {err[-2000:]}") from None
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    violations = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line]
    for result in results:
        result["violations"] = [v for v in violations if v["case"] == result["name"]]
        result["child_stderr"] = err[-2000:]
    return results, violations, proc.returncode


def assert_clean(result: dict) -> None:
    """What no case may ever do."""
    name = result["name"]
    assert not result["timeout"], f"{name}: hung (timed out)"
    assert result["traceback"] is None, f"{name}: raised\n{result['traceback']}"
    text = result["stdout"] + result["stderr"]
    assert "Traceback" not in text, f"{name}: printed a traceback\n{text[-3000:]}"
    assert "error[internal]" not in text, f"{name}: internal error\n{text[-3000:]}"
    assert "check-crashed" not in text, f"{name}: a check crashed\n{text[-3000:]}"
    assert result["max_rss_kib"] < GIB_KIB, f"{name}: {result['max_rss_kib']} KiB resident"
