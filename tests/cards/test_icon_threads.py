"""Icons drawn from several threads at once (pipeline/cards/faces/icons.py)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from pipeline.cards.faces import icons


def test_one_thread_at_a_time_walks_the_shared_drawing() -> None:
    """reportlab marks a drawing while it walks it, so the rulebook's two language threads
    once broke each other ('Drawing' object has no attribute '_parent'): drawing waits for
    the lock."""
    icons._operators.cache_clear()
    name = icons.form_name("skull", "#123456")
    result: list[str] = []
    with icons._DRAWING_LOCK:
        worker = threading.Thread(target=lambda: result.append(icons._operators(name)))
        worker.start()
        worker.join(timeout=0.5)
        assert worker.is_alive() and not result  # waiting for the lock
    worker.join(timeout=30)
    assert result and result[0].strip()


def test_many_threads_draw_the_same_icon_alike() -> None:
    icons._operators.cache_clear()
    icons._drawing.cache_clear()
    names = [icons.form_name("skull", tint) for tint in ("#111111", "#222222", "#333333")] * 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        drawn = list(pool.map(icons._operators, names))
    icons._operators.cache_clear()
    assert drawn == [icons._operators(n) for n in names]
