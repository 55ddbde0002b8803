"""Atomic output: a failed or killed run never leaves a half-written file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def atomic_file(path: Path | str) -> Iterator[BinaryIO]:
    """A file written to a temporary name in the same folder, fsynced, then renamed into place;
    on any failure the temporary file is removed and `path` keeps its old content."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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


def inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """`path`, symlinks and `..` resolved, is one of `roots` or lies under one."""
    real = path.resolve()
    return any(real == r or r in real.parents for r in roots)
