"""The render cache stays bounded: a build marks every cache file it uses (its modification
time becomes now) and then removes the files that no build has used for `keep_days` days.

Marking costs one `utime` per file. A file that goes missing is never an error: a face whose
PDF or PNG was removed is rendered again, an output file is imposed again.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

KEEP_DAYS = 14.0
FOLDERS = ("measure", "faces", "png", "outputs", "layouts", "sheet-layouts", "icons", "jinja",
           "ttf", "hyphenation", "batches", "fonts", "rulebook/units", "rulebook/books",
           "rulebook/pictures", "rulebook/maps", "rulebook/fonts")
"""The cache's own folders; nothing else under the cache folder is ever removed (`icons` holds
the icons' PDF operators, `jinja` the layouts' compiled templates, `ttf` and `hyphenation`
reportlab's reading of the fonts and the hyphenation dictionaries, `sheet-layouts` the sheets
of each format; `batches` and `fonts` are only left by builds before the reportlab renderer:
they age out; `rulebook/` holds the book's laid-out units, assembled books, rasterized
pictures, page maps and font subsets)."""


@dataclass(frozen=True)
class Pruned:
    files: int
    bytes: int
    days: float = KEEP_DAYS


def mark_used(*paths: str | Path) -> None:
    """This build uses these cache files: they count as fresh from now on."""
    now = time.time()
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            os.utime(path, (now, now))


def prune(cache_dir: Path, keep_days: float = KEEP_DAYS, now: float | None = None) -> Pruned:
    """Remove cache files last used more than `keep_days` days before `now` (a build passes
    its start: with 0 days, exactly the files it did not use go)."""
    if keep_days == float("inf"):  # kept for ever: nothing to look at
        return Pruned(0, 0, keep_days)
    cutoff = (time.time() if now is None else now) - keep_days * 86400
    files = size = 0
    for folder in FOLDERS:
        try:
            entries = list(os.scandir(cache_dir / folder))
        except FileNotFoundError:
            continue
        for entry in entries:
            try:  # a file another process was writing may be renamed away meanwhile
                stat = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            if entry.is_file(follow_symlinks=False) and stat.st_mtime < cutoff:
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:
                    continue
                files += 1
                size += stat.st_size
    return Pruned(files, size, keep_days)
