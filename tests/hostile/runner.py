"""The child process of the hostile corpus: runs `relic` commands in-process under an audit hook.

Reads a JSON job on stdin: {"cases": [{"name", "argv", "allowed": [folders], "timeout"}],
"kill_on": optional {"events": ["os.rename", "os.link", "open", ...], "pattern": regex}}. For every
case it calls `pipeline.cli.main(argv)` with stdout and stderr captured and a SIGALRM timeout,
and prints one JSON line: exit code, stdout, stderr, the traceback if anything escaped, whether
it timed out, the seconds it took, the peak resident memory so far, and every violation the
audit hook saw while it ran:

- an `open` (or directory listing) of a path whose real location (links resolved) is outside
  the case's allowed folders and the Python runtime (the project, the interpreter, its
  libraries; a short list of system files the runtime itself reads, such as /dev/null); files
  the process itself creates directly in the system's temporary folder (scratch files of the
  PDF libraries) may be written and read back;
- any `socket.connect`, `socket.getaddrinfo` or `urllib.Request`.

Violations are written straight to a file descriptor, so forked workers report theirs too.
With `kill_on`, the process sends itself SIGKILL at the first of those audit events whose first
argument (the path opened, linked or renamed) matches the pattern: a deterministic `kill -9` at
that very moment (during writing, between two renames).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import resource
import signal
import sys
import sysconfig
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GIB = 1024**3
# Files the runtime reads for itself (not content): null devices, entropy, mime types, locale.
SYSTEM_FILES = {"/dev/null", "/dev/urandom", "/dev/random", "/dev/tty", "/etc/mime.types",
                "/etc/localtime", "/etc/ld.so.cache"}
SYSTEM_PREFIXES = ("/proc/self/", f"/proc/{os.getpid()}/", "/usr/share/zoneinfo/",
                   "/usr/share/mime/", "/usr/share/fonts/", "/etc/fonts/")
NETWORK_EVENTS = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname",
                  "urllib.Request", "http.client.connect"}
PATH_EVENTS = {"open", "os.listdir", "os.scandir"}
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | getattr(os, "O_TMPFILE", 0)


def _runtime_roots() -> tuple[str, ...]:
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, str(ROOT)}
    paths |= {p for p in sysconfig.get_paths().values() if p}
    paths |= {p for p in sys.path if p and os.path.isdir(p)}
    return tuple(sorted({os.path.realpath(p) for p in paths}))


class Auditor:
    """Records what the audit hook sees; `allowed` changes per case."""

    def __init__(self, log_fd: int):
        self.log_fd = log_fd
        self.runtime = _runtime_roots()
        self.allowed: tuple[str, ...] = ()
        self.kill_on: dict | None = None
        self.case = ""
        self.scratch = os.path.realpath(tempfile.gettempdir())
        self.created: set[str] = set()

    def _inside(self, real: str) -> bool:
        if real in SYSTEM_FILES or real.startswith(SYSTEM_PREFIXES):
            return True
        return any(real == r or real.startswith(r.rstrip("/") + "/")
                   for r in (*self.runtime, *self.allowed))

    def _report(self, kind: str, detail: str) -> None:
        line = json.dumps({"case": self.case, "kind": kind, "detail": detail}) + "\n"
        os.write(self.log_fd, line.encode("utf-8", "backslashreplace"))

    def hook(self, event: str, args: tuple) -> None:
        if self.kill_on and event in self.kill_on["events"] and args and re.search(
                self.kill_on["pattern"], str(args[0])):
            os.kill(os.getpid(), signal.SIGKILL)
        if event in NETWORK_EVENTS:
            self._report("network", f"{event} {args!r}"[:300])
            return
        if event not in PATH_EVENTS or not self.case:
            return
        path = args[0]
        if isinstance(path, int) or path is None:
            return
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        try:
            real = os.path.realpath(os.fspath(path))
        except (TypeError, ValueError, OSError):
            return
        if self._inside(real) or real in self.created:
            return
        scratch = real == self.scratch or os.path.dirname(real) == self.scratch
        if event == "open" and scratch and _writes(args):
            self.created.add(real)
            return
        self._report("outside", f"{event} {real}")


def _writes(args: tuple) -> bool:
    """An `open` audit event that creates or writes (mode 'w', 'x', 'a', '+'; or such flags)."""
    mode, flags = ((*args, None, None))[1:3]
    if isinstance(mode, str) and any(c in mode for c in "wxa+"):
        return True
    return isinstance(flags, int) and bool(flags & WRITING)


def _on_alarm(signum, frame):
    raise TimeoutError("the case did not finish in time")


def run_case(auditor: Auditor, case: dict) -> dict:
    from pipeline.cli import main

    auditor.allowed = tuple(os.path.realpath(p) for p in case.get("allowed", ()))
    auditor.case = case["name"]
    out, err = io.StringIO(), io.StringIO()
    result = {"name": case["name"], "code": None, "timeout": False, "traceback": None}
    started = time.perf_counter()
    signal.alarm(int(case.get("timeout", 20)))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            result["code"] = main(case["argv"])
    except SystemExit as exc:
        result["code"] = exc.code if isinstance(exc.code, int) else 2
    except TimeoutError:
        result["timeout"] = True
    except BaseException:
        result["traceback"] = traceback.format_exc()
    finally:
        signal.alarm(0)
        auditor.case = ""
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["stdout"], result["stderr"] = out.getvalue(), err.getvalue()
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result["max_rss_kib"] = max(usage, children)
    return result


def main() -> int:
    job = json.load(sys.stdin)
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = 4 * GIB  # a safety net against runaway cases; the test asserts 1 GB resident
    if hard == resource.RLIM_INFINITY or hard > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    log = Path(job["log"])
    log_fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    auditor = Auditor(log_fd)
    auditor.kill_on = job.get("kill_on")
    import pipeline.cli  # noqa: F401 - imported before the hook watches

    sys.addaudithook(auditor.hook)
    signal.signal(signal.SIGALRM, _on_alarm)
    real_stdout = sys.stdout
    for case in job["cases"]:
        real_stdout.write(json.dumps(run_case(auditor, case)) + "\n")
        real_stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
