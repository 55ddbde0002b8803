"""Stopping: Ctrl-C, SIGTERM and a closed terminal (SIGHUP) end `relic serve` and every process
it started (the builder, its render pool, its checks); `relic watch` prints what it rebuilt."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from pipeline.cards import render
from pipeline.serve.client import ServeProcess
from tests.serve.conftest import BROKEN, BROKEN_AT, ROOT, copy_pack, edit

# distinct cards: enough faces for the first (cold) render to start its pool of processes
CARDS = getattr(render, "SMALL_RENDER", 200) + 5


def big_pack(folder: Path) -> Path:
    pack = folder / "content" / "many"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: many\ntitle: {ru: Много карт, en: Many cards}\nlanguages: [ru, en]\n"
        "print:\n  components:\n    card: {format: poker, template: card, back: deck, "
        "back_by: deck}\n", encoding="utf-8")
    lines = ["- id: deck-a\n  kind: deck\n  name: {ru: Колода, en: Deck}\n  cards: card\n"
             "  type: event\n"]
    for i in range(CARDS):
        lines.append(f"- id: card-{i}\n  kind: card\n  deck: deck-a\n"
                     f"  name: {{ru: Карта {i}, en: Card {i}}}\n"
                     f"  text: {{ru: Текст {i}., en: Text {i}.}}\n")
    (pack / "cards.yaml").write_text("\n".join(lines), encoding="utf-8")
    return pack


def descendants(pid: int) -> list[psutil.Process]:
    return psutil.Process(pid).children(recursive=True)


def gone(processes: list[psutil.Process], timeout: float = 15.0) -> list[psutil.Process]:
    """The processes still alive after `timeout` (zombies count as gone)."""
    _, alive = psutil.wait_procs(processes, timeout=timeout)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["ctrl-c", "sigterm", "sighup"])
def test_a_signal_stops_the_server_and_all_its_workers(tmp_path: Path, sig: int) -> None:
    pack = big_pack(tmp_path)
    serve = ServeProcess(["--content", str(pack.parent), "--out", str(tmp_path / "out"),
                          "--cache", str(tmp_path / "cache"), "--jobs", "2"], cwd=ROOT)
    serve.start()
    stream = serve.events()
    try:  # while the first (cold) render runs on its pool of render processes
        stream.wait_for(lambda e: e.name == "progress" and e.data["total"] > CARDS,
                        timeout=120)
        deadline = time.monotonic() + 60
        tree = descendants(serve.pid)
        while len(tree) < 4 and time.monotonic() < deadline:  # builder, tracker, 2 renderers
            time.sleep(0.1)
            tree = descendants(serve.pid)
        names = [" ".join(p.cmdline()[-2:]) for p in tree]
        assert len(tree) >= 4, f"expected the builder and its render pool, found {names}"
        serve.send(sig)
        code = serve.process.wait(30)
    finally:
        stream.close()
        serve.stop()
    assert code == 0, "".join(serve.lines)
    assert "relic: stopped" in "".join(serve.lines)
    left = gone([*tree])
    assert not left, f"left running: {[p.cmdline() for p in left]}"


def test_watch_rebuilds_on_change_and_prints_diagnostics(tmp_path: Path,
                                                         render_cache: Path) -> None:
    pack = copy_pack(tmp_path)
    command = [sys.executable, "-m", "pipeline.cli", "watch", "--content", str(pack.parent),
               "--lang", "ru", "--out", str(tmp_path / "out"), "--cache", str(render_cache),
               "--jobs", "1"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()],
                     daemon=True).start()
    seen: list[str] = []

    def until(text: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                break
            seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"{text!r} never came; got:\n{''.join(seen)}")

    try:
        until("relic: watching")
        until("relic: built")
        until("relic: checks done")
        edit(pack / "cards.yaml", "Сквозняк", "Ледяной ветер")
        until("relic: changed: cards.yaml")
        rebuilt = until("relic: rebuilt")
        assert "ru/png/draught-1.png" in rebuilt and "ru/png/echo-1.png" not in rebuilt
        assert (tmp_path / "out" / "ru" / "png" / "draught-1.png").is_file()
        edit(pack / "cards.yaml", *BROKEN)
        file, line, col = BROKEN_AT
        problem = until("error[yaml-syntax]")
        assert f"{file}:{line}:{col}: error[yaml-syntax]" in problem
        until("the last good build stays in place")
        assert (tmp_path / "out" / "ru" / "png" / "draught-1.png").is_file()
        edit(pack / "cards.yaml", BROKEN[1], BROKEN[0])
        until("relic: built")
        tree = descendants(process.pid)
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0
        until("relic: stopped")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert not gone(tree)
