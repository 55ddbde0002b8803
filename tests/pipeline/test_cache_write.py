"""Cache files written from several threads at once (pipeline/fsutil.py)."""

from __future__ import annotations

import threading
from pathlib import Path

from pipeline.fsutil import cache_write


def test_threads_writing_one_cache_file_never_take_each_others_temp_file(tmp_path: Path) -> None:
    """The rulebook's ru and en threads both write the placeholder picture; with a temp name
    of the process alone, one thread's rename once found its temp file moved away."""
    target = tmp_path / "pictures" / "placeholder-1.png"
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def write(n: int) -> None:
        start.wait()
        try:
            for _ in range(300):
                cache_write(target, b"x" * 4096)
        except BaseException as exc:  # recorded for the assertion
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert target.read_bytes() == b"x" * 4096
    assert [p.name for p in target.parent.iterdir()] == ["placeholder-1.png"]  # no temp left
