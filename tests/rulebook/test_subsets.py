"""Font subsets from several books at once (pipeline/rulebook/subsets.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from pipeline.rulebook import subsets


class FakeFont:
    """Stands in for WeasyPrint's Font: records how many subsets run at the same time."""

    running = 0
    most = 0
    guard = threading.Lock()

    def __init__(self, content: bytes) -> None:
        self.file_content, self.index, self.missing = content, 0, False

    def subset(self, to_unicode, hinting):
        with FakeFont.guard:
            FakeFont.running += 1
            FakeFont.most = max(FakeFont.most, FakeFont.running)
        time.sleep(0.05)
        self.file_content = b"subset of " + self.file_content
        with FakeFont.guard:
            FakeFont.running -= 1


def test_two_books_never_subset_at_the_same_time(tmp_path: Path, monkeypatch) -> None:
    """fontTools imports table modules lazily; the ru and en books subsetting at once once
    failed with "module 'fontTools.ttLib.tables' has no attribute '_m_a_x_p'"."""
    from weasyprint.pdf import fonts

    monkeypatch.setattr(fonts, "Font", FakeFont)
    monkeypatch.setattr(FakeFont, "subset", FakeFont.subset)  # restored after the test
    subsets.install_subset_cache(tmp_path)
    fonts_ = [FakeFont(f"font {i}".encode()) for i in range(6)]
    threads = [threading.Thread(target=f.subset, args=({65: "A"}, False)) for f in fonts_]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert FakeFont.most == 1
    assert all(f.file_content.startswith(b"subset of font ") for f in fonts_)
    assert len(list((tmp_path / "rulebook" / "fonts").iterdir())) == 6  # each kept in the cache
