"""The file system, safely: atomic output, cache files, and reading a pack without leaving its
project.

Output: a failed or killed run never leaves a half-written file, and what it writes gets the
usual permissions (0644 under the usual umask), not a temporary file's 0600.

Input: a pack folder may hold anything a file system can: folders named `x.yaml`, named pipes
that would block a reader for ever, symlink loops, links to `/etc/passwd`, files nobody may read.
`scan_tree` looks at the type of every entry (lstat, then stat of a link's target) before
anything is opened, and `read_file` opens only regular files inside the project, without
blocking. The project of a pack is the nearest folder at or above it that holds `.git` or
`pyproject.toml`, or else the pack folder itself.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

from pipeline.diagnostics import Diagnostic, Span, error, relative, warning

PROJECT_MARKERS = (".git", "pyproject.toml")
# Names relic reads: entity, manifest, trace and print files, schemas, rulebook chapters.
READ_SUFFIXES = (".yaml", ".json", ".md")


# ----- output ------------------------------------------------------------------------------


def _file_mode() -> int:
    """0666 less the process umask: the mode `open()` would give a new file."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_file(path: Path | str) -> Iterator[BinaryIO]:
    """A file written to a temporary name in the same folder, fsynced, then renamed into place;
    on any failure the temporary file is removed and `path` keeps its old content."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _file_mode())  # mkstemp makes 0600; outputs are ordinary files
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: Path | str, data: bytes | str) -> Path:
    """Write bytes (or UTF-8 text) atomically; return the path."""
    with atomic_file(path) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    return Path(path)


# ----- cache files ------------------------------------------------------------------------

UNREADABLE_PICKLE = (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
                     IndexError, TypeError, ValueError)


def cache_write(path: Path, data: bytes | str) -> None:
    """Write a cache file: temp file + rename, without fsync (the cache can be rebuilt, and an
    fsync per face would cost more than drawing it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    # the temp name is the thread's as well as the process's: the rulebook process writes from
    # a thread per language, and two threads writing one file (the placeholder picture) once
    # moved each other's temp file away (FileNotFoundError in a build)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(payload)
    os.replace(tmp, path)


def load_pickle(path: Path) -> Any | None:
    """A pickled cache file's value, or None when it is missing or cannot be read; a file read
    counts as used (its time becomes now: the cache's pruning keeps it)."""
    try:
        value = pickle.loads(path.read_bytes())
    except UNREADABLE_PICKLE:
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return value


def dump_pickle(path: Path, value: Any) -> None:
    """Keep `value` as a pickled cache file (`cache_write`); a value that cannot be pickled, or
    a cache that cannot be written, is simply not kept."""
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        cache_write(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """`path`, symlinks and `..` resolved, is one of `roots` or lies under one."""
    real = path.resolve()
    return any(real == r or r in real.parents for r in roots)


# ----- the project of a pack --------------------------------------------------------------


@cache
def project_root(folder: Path) -> Path:
    """The resolved project folder of a pack folder (or of any folder in it): the nearest folder
    at or above it (as written, before links are resolved) that holds `.git` or
    `pyproject.toml`; else the nearest that holds a `pack.yaml`; else the folder itself."""
    folder = Path(os.path.abspath(folder))
    chain = (folder, *folder.parents)
    for markers in (PROJECT_MARKERS, ("pack.yaml",)):
        for candidate in chain:
            if any(os.path.lexists(candidate / marker) for marker in markers):
                return Path(os.path.realpath(candidate))
    return Path(os.path.realpath(folder))


def _within(real: str, root: Path) -> bool:
    base = str(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


class Refused(Exception):
    """A path that is not read: its diagnostic says why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _os_problem(exc: OSError, display: str) -> Diagnostic:
    import errno

    if exc.errno == errno.ELOOP:
        return error("symlink-loop", "a symbolic link that leads back to itself",
                     Span(display), "remove the link or point it at a real file")
    if exc.errno == errno.ENOENT:
        return error("broken-link", "a symbolic link to nothing", Span(display),
                     "remove the link or point it at a real file")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return error("unreadable", "cannot be read: permission denied",
                     Span(display), "give the user who runs relic read permission")
    return error("unreadable", f"cannot be read: {exc.strerror or exc}",
                 Span(display))


def _resolve(path: Path, project: Path, display: str) -> tuple[str, os.stat_result]:
    """The real path of `path` and its stat, or `Refused` (loop, broken link, outside)."""
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as exc:
        raise Refused(_os_problem(exc, display)) from None
    if not _within(real, project):
        raise Refused(error(
            "link-outside", f"a link to {real}, outside the project {project}; it is not "
            "read", Span(display),
            "content must live inside the project; copy the file in instead of linking to it"))
    try:
        return real, os.stat(real)
    except OSError as exc:
        raise Refused(_os_problem(exc, display)) from None


def read_file(path: Path, limit: int, project: Path | None = None,
              display: str | None = None) -> bytes:
    """The bytes of a regular file inside the project, at most `limit` of them (a longer file
    is `Refused` as `file-too-large`). Nothing else is ever opened: the type is looked at
    before opening, the open cannot block, and the opened file is checked to be the one looked
    at."""
    display = display or relative(path)
    project = project or project_root(path.parent)
    real, info = _resolve(path, project, display)
    if not stat.S_ISREG(info.st_mode):
        raise Refused(error("not-a-file", f"{_kind_of(info.st_mode)}, not a regular file; "
                            "it is not read", Span(display)))
    if info.st_size > limit:
        raise Refused(error("file-too-large", f"file is {info.st_size} bytes; the limit is "
                            f"{limit}", Span(display), "split the content into several files"))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        raise Refused(_os_problem(exc, display)) from None
    try:
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino) or not stat.S_ISREG(
                opened.st_mode):
            raise Refused(error("unreadable", "the file changed while it was read",
                                Span(display), "run the check again"))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise Refused(_os_problem(exc, display)) from None
    finally:
        os.close(fd)
    if size > limit:
        raise Refused(error("file-too-large", f"file is over {limit} bytes; the limit is "
                            f"{limit}", Span(display), "split the content into several files"))
    return b"".join(chunks)


# ----- scanning a pack ---------------------------------------------------------------------


@dataclass(frozen=True)
class Tree:
    """What a pack folder holds: the regular files relic may read (as paths under the pack,
    sorted) and a diagnostic for every entry it refuses to read."""

    root: Path
    project: Path
    files: tuple[Path, ...]
    diagnostics: tuple[Diagnostic, ...]


def _relevant(name: str) -> bool:
    return name.endswith(READ_SUFFIXES)


def scan_tree(root: Path, project: Path | None = None) -> Tree:
    """Every entry under `root`, looked at (never opened) once, without recursion.

    Folders are walked, each real folder once; links are followed only when they lead inside
    the project. Entries relic reads (`*.yaml`, `*.json`, `*.md`) that are not readable regular
    files get a diagnostic; other entries are never opened and pass silently.
    """
    root = Path(root)
    project = project or project_root(root)
    files: list[Path] = []
    problems: list[Diagnostic] = []
    try:
        real_root, info = _resolve(root, project, relative(root))
    except Refused as exc:
        return Tree(root, project, (), (exc.diagnostic,))
    seen = {(info.st_dev, info.st_ino)}
    # (lexical folder, its real path, the real paths of the folders above it)
    stack: list[tuple[Path, str, tuple[str, ...]]] = [(root, real_root, ())]
    while stack:
        folder, real_folder, above = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            problems.append(_os_problem(exc, relative(folder)))
            continue
        for entry in entries:
            _visit(entry, folder, real_folder, above, project, seen, files, problems, stack)
    return Tree(root, project, tuple(sorted(files)), tuple(problems))


def _visit(entry: os.DirEntry, folder: Path, real_folder: str, above: tuple[str, ...],
           project: Path, seen: set, files: list[Path], problems: list[Diagnostic],
           stack: list) -> None:
    path = folder / entry.name
    display = relative(path)
    try:
        info = entry.stat(follow_symlinks=False)
        real = os.path.join(real_folder, entry.name)
        if stat.S_ISLNK(info.st_mode):
            real, info = _resolve(path, project, display)
    except Refused as exc:
        if _relevant(entry.name) or exc.diagnostic.code == "link-outside":
            problems.append(exc.diagnostic)
        return
    except OSError as exc:
        if _relevant(entry.name):
            problems.append(_os_problem(exc, display))
        return
    if stat.S_ISDIR(info.st_mode):
        key = (info.st_dev, info.st_ino)
        if real in (*above, real_folder):
            problems.append(error("symlink-loop", "a link to a folder that holds it",
                                  Span(display), "remove the link"))
        elif key in seen:
            problems.append(warning("duplicate-folder", f"a link to {relative(real)}, which is "
                                    "already read; it is read once", Span(display)))
        else:
            seen.add(key)
            stack.append((path, real, (*above, real_folder)))
        return
    if not _relevant(entry.name):
        return
    if not stat.S_ISREG(info.st_mode):
        problems.append(error("not-a-file", f"{_kind_of(info.st_mode)}, not a regular "
                              "file; it is not read", Span(display)))
    elif not os.access(real, os.R_OK):
        problems.append(_os_problem(PermissionError(13, "Permission denied"), display))
    else:
        files.append(path)
