"""Make the project's virtual environment: `python3 pipeline/bootstrap.py .venv` (run by make).

Standard library only (it runs before anything is installed). It prints one line for the stage
and, on a terminal, one status line that pip's own output updates (the package being fetched,
how many so far); pip's warnings and errors still go to stderr as pip writes them, except its
warning for each package about an index folder of the machine's pip configuration that does
not exist (one line says which folders, once). The project
is installed editable; pyproject.toml names the project folder as its package folder, so that
setuptools makes the install a plain `.pth` file, without its "Editable installation" notice.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISSING_LOCATION = re.compile(r"^WARNING: Location '([^']*)' is ignored: it is neither a file "
                              r"nor a directory\.")
MISSING_FOLDERS: set[str] = set()  # of every pip run so far: `main` names them once
STEP = re.compile(r"^\s*(Collecting|Downloading|Using cached|Building|Installing collected"
                  r"|Successfully installed|Obtaining|Preparing)\b\s*(\S*)")


def status(text: str, fancy: bool) -> None:
    if fancy:
        width = max(20, os.get_terminal_size(sys.stdout.fileno()).columns - 1)
        sys.stdout.write("\r" + text[:width].ljust(width))
        sys.stdout.flush()


def pip(python: Path, args: list[str], fancy: bool) -> int:
    """Run pip, turning its progress into one status line; return the number installed."""
    cmd = [str(python), "-m", "pip", *args, "--progress-bar", "off",
           "--disable-pip-version-check", "--no-color"]
    process = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, bufsize=1)
    collected, installed, lines = 0, 0, []
    missing: set[str] = set()
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        absent = MISSING_LOCATION.match(line)
        if absent:  # the machine's pip configuration names a folder that is not there
            missing.add(absent[1].split("/simple/")[0])
            continue
        if line.startswith(("WARNING", "ERROR", "DEPRECATION")):
            status("", fancy)
            sys.stderr.write(("\r" if fancy else "") + line)
        m = STEP.match(line)
        if not m:
            continue
        step, what = m.groups()
        if step == "Collecting":
            collected += 1
        if step == "Successfully installed":
            installed = len(line.split()) - 2
        name = re.sub(r"[<>=!~;\[].*", "", what.rsplit("/", 1)[-1])
        status(f"  {step.lower()} {name} ({collected} packages so far)", fancy)
    code = process.wait()
    status("", fancy)
    if fancy:
        sys.stdout.write("\r")
    MISSING_FOLDERS.update(missing)
    if code != 0:
        sys.stdout.write("".join(lines[-40:]))
        raise SystemExit(f"relic: pip failed (exit {code}): {' '.join(cmd)}")
    return installed


PACKAGES = ("pipeline", "engine")


def compile_project(python: Path) -> None:
    """Byte-compile the project's own packages, as pip does for a package it installs (an
    editable install is compiled on first import instead, unless PYTHONDONTWRITEBYTECODE is
    set, and then every `relic` process would compile its modules again: about 0.15 s)."""
    subprocess.run([str(python), "-m", "compileall", "-q", *(str(ROOT / p) for p in PACKAGES)],
                   check=True, stdout=subprocess.DEVNULL)


def tell_missing_folders() -> None:
    if MISSING_FOLDERS:
        print(f"relic: pip's configuration names index folders that do not exist here "
              f"({', '.join(sorted(MISSING_FOLDERS))}); pip went on without them", flush=True)


def main(argv: list[str]) -> int:
    venv = ROOT / (argv[0] if argv else ".venv")
    fancy = sys.stdout.isatty() and not os.environ.get("CI")
    started = time.monotonic()
    print(f"relic: installing dependencies into {venv.name} (first run only, about a minute)…",
          flush=True)
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip(python, ["install", "--quiet", "--upgrade", "pip"], fancy=False)
    count = pip(python, ["install", "-e", ".[test]"], fancy)
    compile_project(python)
    (venv / ".installed").touch()
    tell_missing_folders()
    print(f"relic: {venv.name} is ready ({count} packages installed, "
          f"{time.monotonic() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
