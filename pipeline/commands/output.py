"""The output folder of a build: usable (no file where a folder must be) and held by one build
at a time; the render cache shared between builds, pruned only by a build that has it alone."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

LOCK = ".lock"


class FolderError(Exception):
    """A usage problem with an output or cache folder (reported as error[usage], exit 2)."""


def usable_folder(path: Path, what: str) -> None:
    """`path` is a folder or can be made one: neither it nor any folder above it is a file."""
    for p in (path, *path.parents):
        if p.exists() and not p.is_dir():
            shown = "it" if p == path else f"'{p}', a folder above it,"
            raise FolderError(f"the {what} '{path}' cannot be made: {shown} is a file "
                              f"(move the file away or choose another folder)")


@contextlib.contextmanager
def build_lock(out_root: Path, pack_id: str) -> Iterator[None]:
    """Hold `out_root/.lock` (an exclusive `flock`) for the whole build: a second build of the
    same pack into the same folder stops at once, naming the first one."""
    out_root.mkdir(parents=True, exist_ok=True)
    fd = os.open(out_root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise FolderError(f"another build of {pack_id} is running (pid {holder}) and "
                              f"writing to {out_root}; wait for it to finish") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class CacheLock:
    """Builds share the render cache (its files are written whole and renamed into place, so
    any number may read and add at once) but removing unused files is safe only for a build
    that has the cache alone: each build holds a shared `flock` on `cache/.lock`, and prunes
    only if it can turn it into an exclusive one without waiting."""

    def __init__(self, cache_dir: Path):
        cache_dir.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(cache_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_SH)

    def alone(self) -> bool:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def close(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)

    def __enter__(self) -> CacheLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
