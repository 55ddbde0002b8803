"""Glyph coverage: the character map reportlab read when it registered a font is the one
fontTools reads from the file, so the card build needs no second parse of its fonts."""

from __future__ import annotations

import os
import signal

import pytest

from pipeline.cards import fonts
from pipeline.cards.faces.text import STYLES, font_set

ROLES = (("body", "DejaVu Sans"), ("narrow", "DejaVu Sans Condensed"), ("title", "DejaVu Serif"))


def test_registered_fonts_map_the_same_characters_as_their_files() -> None:
    registered = font_set(ROLES)
    assert registered.files
    for family in dict(ROLES).values():
        for style in STYLES:
            face = fonts.find_font(family, style)
            from_reportlab = fonts._registered_cmap(str(face.path))
            assert from_reportlab is not None
            assert from_reportlab == fonts._file_cmap(face.path), face


def test_a_font_nobody_registered_is_read_from_its_file() -> None:
    face = fonts.find_font("DejaVu Serif Condensed", "Regular")
    assert fonts._registered_cmap(str(face.path)) is None
    assert fonts.missing_glyphs(face, "Зомби\u2068x\u2069\u00ad") == []
    assert fonts.missing_glyphs(face, "\U0001F600") == ["\U0001F600"]


PAIRS = [("DejaVu Sans", "Bold"), ("DejaVu Serif", "Italic"), ("No Such Family", "Regular")]


def _fresh(monkeypatch) -> None:
    """Nothing asked of fontconfig in this process yet."""
    monkeypatch.setattr(fonts, "_MATCHED", {})
    monkeypatch.setattr(fonts, "_ASKED", {})
    fonts.find_font.cache_clear()


def test_fonts_asked_ahead_are_found_without_asking_again(monkeypatch) -> None:
    _fresh(monkeypatch)
    fonts.ask_fonts(PAIRS)  # returns at once; a thread asks
    fonts.match_fonts(PAIRS)  # waits for its answers

    def refuse(*args, **kwargs):
        raise AssertionError("asked again")

    monkeypatch.setattr(fonts.subprocess, "Popen", refuse)
    try:
        assert fonts.find_font("DejaVu Sans", "Bold").path.name == "DejaVuSans-Bold.ttf"
        assert fonts.find_font("DejaVu Serif", "Italic").path.name == "DejaVuSerif-Italic.ttf"
        with pytest.raises(fonts.FontError, match="No Such Family"):
            fonts.find_font("No Such Family", "Regular")
    finally:
        fonts.find_font.cache_clear()


def test_a_process_forked_while_its_parent_asks_asks_again(monkeypatch) -> None:
    _fresh(monkeypatch)
    fonts.ask_fonts(PAIRS)
    child = os.fork()
    if child == 0:  # the parent's asker is not running here: the child must ask, not wait
        signal.alarm(30)  # a child that waits forever fails the test instead of hanging it
        try:
            fonts.match_fonts(PAIRS[:2])
            ok = fonts.find_font("DejaVu Sans", "Bold").path.name == "DejaVuSans-Bold.ttf"
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    fonts.match_fonts(PAIRS)
    fonts.find_font.cache_clear()
    assert os.waitstatus_to_exitcode(status) == 0


def test_the_library_answers_as_fc_match_does_without_a_process(monkeypatch) -> None:
    import subprocess

    library = fonts.Fontconfig.loaded()
    assert library is not None  # libfontconfig is installed wherever fc-match is
    expected = {pair: subprocess.run(["fc-match", "-f", "%{file}\n%{family}\n",
                                      f"{pair[0]}:style={pair[1]}"],
                                     capture_output=True, text=True, check=True).stdout
                for pair in [*PAIRS, ("DejaVu Sans Condensed", "Bold")]}
    _fresh(monkeypatch)

    def refuse(*args, **kwargs):
        raise AssertionError("a process was started")

    monkeypatch.setattr(fonts.subprocess, "Popen", refuse)
    fonts.match_fonts(list(expected))
    for pair, lines in expected.items():
        assert fonts._MATCHED[pair] == lines.splitlines(), pair
    assert fonts._MATCHED[("DejaVu Sans", "Bold")][0].endswith("DejaVuSans-Bold.ttf")
    fonts.find_font.cache_clear()


def test_without_the_library_fc_match_answers(monkeypatch) -> None:
    _fresh(monkeypatch)
    monkeypatch.setattr(fonts.Fontconfig, "loaded", staticmethod(lambda: None))
    started = []
    real = fonts.subprocess.Popen

    def popen(*args, **kwargs):
        started.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(fonts.subprocess, "Popen", popen)
    fonts.match_fonts(PAIRS)
    assert [cmd[0] for cmd in started] == ["fc-match"] * len(PAIRS)
    assert fonts.find_font("DejaVu Serif", "Italic").path.name == "DejaVuSerif-Italic.ttf"
    fonts.find_font.cache_clear()


def test_a_fork_waits_while_the_asker_starts_fc_match(monkeypatch) -> None:
    """A process forked while `subprocess` starts fc-match would hold the pipe that Popen
    waits on until fc-match execs: the asker, and the build joining it, would wait for as long
    as that process lives (a book process waiting for the build: for ever). So a fork waits
    until the asker's processes are started."""
    import multiprocessing
    import threading
    import time

    _fresh(monkeypatch)
    monkeypatch.setattr(fonts.Fontconfig, "loaded", staticmethod(lambda: None))  # processes
    real, spawning, spawned = fonts.subprocess.Popen, threading.Event(), threading.Event()

    def slow_popen(*args, **kwargs):  # a start that takes long enough to fork inside it
        spawning.set()
        time.sleep(0.5)
        try:
            return real(*args, **kwargs)
        finally:
            spawned.set()

    monkeypatch.setattr(fonts.subprocess, "Popen", slow_popen)
    fonts.ask_fonts(PAIRS[:1])
    assert spawning.wait(10)
    child = multiprocessing.get_context("fork").Process(target=time.sleep, args=(0,))
    child.start()  # waits for the asker's Popen to return
    assert spawned.is_set()
    child.join(10)
    fonts.match_fonts(PAIRS[:1])
    fonts.find_font.cache_clear()
    assert child.exitcode == 0
