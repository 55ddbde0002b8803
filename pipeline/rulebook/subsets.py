"""Font subsets made once for every unit of the book, and fixed font timestamps.

Every unit of a book embeds the same glyph set (its charset page), so WeasyPrint would compute
the very same subset for every unit, which is its slowest step when HarfBuzz-subset is missing
(fontTools then takes ~0.15 s per font per document). A subset is a pure function of the font
bytes, the glyph ids, the options and the timestamp fontTools stamps into it, so it is kept in
memory and in the cache (`cache/rulebook/fonts/`) by that key.
"""

from __future__ import annotations

import hashlib
import os
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01: the subsets' timestamps, so rebuilds match
_home: dict[str, Path] = {}  # the cache folder the installed subset cache writes to
_lock = threading.Lock()
_subsetting = threading.Lock()
"""fontTools imports a table's module the first time it meets the table, and two books (ru, en,
each in its thread) subsetting at once once failed with "module 'fontTools.ttLib.tables' has
no attribute '_m_a_x_p'": one subset at a time (the work holds the GIL anyway)."""


@cache
def subsetter() -> str:
    """Which subsetter WeasyPrint uses on this machine, with its version: HarfBuzz's, when its
    subset library loads (by the names WeasyPrint tries) and HarfBuzz is 4.1 or later, else
    fontTools. The two make different bytes of the same subset, so the cache keys name it:
    installing libharfbuzz-subset0 must not mix the two kinds in one book."""
    import ctypes
    from importlib import metadata

    for subset, main in (("libharfbuzz-subset.so.0", "libharfbuzz.so.0"),
                         ("libharfbuzz-subset.0.dylib", "libharfbuzz.0.dylib"),
                         ("libharfbuzz-subset-0.dll", "libharfbuzz-0.dll")):
        try:
            ctypes.CDLL(subset)
            harfbuzz = ctypes.CDLL(main)
        except OSError:
            continue
        harfbuzz.hb_version_string.restype = ctypes.c_char_p
        version = harfbuzz.hb_version_string().decode()
        if tuple(int(n) for n in version.split(".")[:2]) >= (4, 1):
            return f"harfbuzz-subset {version}"
    return f"fonttools {metadata.version('fonttools')}"


@contextmanager
def fixed_timestamps() -> Iterator[None]:
    """fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH is set.
    The environment is the process's: renders that need it run one at a time."""
    with _lock:
        old = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = old


def install_subset_cache(cache_dir: Path) -> None:
    """Wrap WeasyPrint's font subsetting with the cache (once per process)."""
    from weasyprint.pdf import fonts

    from pipeline.cards.prune import mark_used
    from pipeline.fsutil import cache_write

    _home["dir"] = Path(cache_dir) / "rulebook" / "fonts"  # this build's, if already installed
    font_class = getattr(fonts, "Font", None)
    original = getattr(font_class, "subset", None)
    if original is None or getattr(original, "_relic_cached", False):
        return
    memory: dict[str, bytes] = {}
    font_digests: dict[tuple[int, int], bytes] = {}  # (size, crc32) -> sha256

    def subset(self, to_unicode, hinting):
        if not to_unicode:
            with _subsetting:
                return original(self, to_unicode, hinting)
        font_key = (len(self.file_content), zlib.crc32(self.file_content))
        if font_key not in font_digests:  # hashing 700 KB of font per document adds up
            font_digests[font_key] = hashlib.sha256(self.file_content).digest()
        digest = hashlib.sha256(font_digests[font_key])
        digest.update(repr((self.index, sorted(to_unicode), bool(hinting), bool(self.missing),
                            SOURCE_DATE_EPOCH, subsetter())).encode())
        key = digest.hexdigest()
        path = _home["dir"] / f"{key}.bin"
        on_disk = path.is_file()
        if key not in memory and on_disk:
            memory[key] = path.read_bytes()
        if key in memory:
            self.file_content = memory[key]
        else:
            with _subsetting:
                original(self, to_unicode, hinting)
            memory[key] = self.file_content
        if on_disk:
            mark_used(path)
        else:
            cache_write(path, memory[key])
        return None

    subset._relic_cached = True
    font_class.subset = subset
