"""What a process would otherwise work out again on every build: reportlab's reading of a
font file (15-25 ms each), a hyphenation dictionary (about 50 ms) and the sheets of a format
whose components did not change (13 formats of the canonical pack: 40-70 ms). Kept as pickles
in the build's cache (the folder `remember_checked_layouts` names), under the digest of the
source's bytes and of the code's or library's version; used files count as used (prune).
Without a cache, or when a kept copy cannot be read, the work is done as before."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pipeline.cards.formats import VALIDATED
from pipeline.fsutil import dump_pickle, load_pickle

T = TypeVar("T")


def kept(folder: str, source: bytes, version: str, make: Callable[[], T]) -> T:
    """`make()`, or what an earlier process made from the same source with the same version."""
    root = VALIDATED.get("dir")
    if root is None:
        return make()
    key = hashlib.sha256(version.encode() + b"\0" + source).hexdigest()
    path = Path(root) / folder / f"{key}.pickle"
    value = load_pickle(path)  # (nothing kept is None)
    if value is None:
        value = make()
        dump_pickle(path, value)
    return value
