"""`relic build` end to end on a small pack with a two-chapter rulebook: the book in every
language folder and its manifest, cached across builds, refused pictures, unusable output
folders and two builds at once (real processes)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline import cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "cards" / "fixtures" / "mini"
CHAPTERS = {
    "ru": {"01-play.md": "# Игра {#play}\n\nЗомби проходит {{ stat(\"zombie\", \"stats.speed\") }}"
                         " клетки за ход, а конец игры описан дальше ({{ see(\"end\") }}).\n\n"
                         "{{ thumbnails(\"zombie\") }}\n",
           "02-end.md": "# Конец игры {#end}\n\nИгра кончается, когда {{ name(\"zombie\") }} "
                        "уходит.\n"},
    "en": {"01-play.md": "# Play {#play}\n\nThe zombie walks "
                         "{{ stat(\"zombie\", \"stats.speed\") }} cells a turn, and the end of "
                         "the game comes later ({{ see(\"end\") }}).\n\n"
                         "{{ thumbnails(\"zombie\") }}\n",
           "02-end.md": "# The end {#end}\n\nThe game ends when {{ name(\"zombie\") }} leaves.\n"},
}


def pack_with_book(tmp_path: Path) -> Path:
    """A copy of the cards' mini pack with a small rulebook in both languages."""
    pack = tmp_path / "content" / "mini"
    shutil.copytree(FIXTURE, pack)
    for lang, files in CHAPTERS.items():
        (pack / "rules" / lang).mkdir(parents=True)
        for name, text in files.items():
            (pack / "rules" / lang / name).write_text(text, encoding="utf-8")
    return pack


def relic(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "CI": "1"})


def build_args(pack: Path, tmp_path: Path, *extra: str) -> list[str]:
    return ["build", "--pack", pack.name, "--content", str(pack.parent), "--out",
            str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--no-png",
            "--jobs", "2", *extra]


def set_value(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_book_lands_in_each_language_folder_and_its_manifest(tmp_path: Path) -> None:
    pack = pack_with_book(tmp_path)
    done = relic(*build_args(pack, tmp_path, "--rulebook-paper", "a4"))
    assert done.returncode == 0, done.stderr
    for lang in ("ru", "en"):
        book = tmp_path / "out" / lang / "rulebook.pdf"
        manifest = json.loads((tmp_path / "out" / lang / "manifest.json").read_text())
        [entry] = [f for f in manifest["files"] if f["path"] == "rulebook.pdf"]
        assert entry["sha256"] == hashlib.sha256(book.read_bytes()).hexdigest()
        assert f"wrote {book}" in done.stderr


def test_the_book_is_laid_out_again_only_when_what_it_prints_changes(tmp_path: Path) -> None:
    """A card edit the book does not read leaves the book to the cache; an edit it prints
    lays out the one chapter that prints it."""
    pack = pack_with_book(tmp_path)
    cold = relic(*build_args(pack, tmp_path))
    assert cold.returncode == 0
    # two cold books on two workers are laid out in book order, part by part: each part once,
    # and again the two that point forward (the contents, and chapter 1's "see p. N" to the
    # end), counted as layouts of its parts, never as more parts laid out than it has
    for done, parts in re.findall(r"rulebook\.pdf \((\d+) of (\d+) parts laid out", cold.stderr):
        assert int(done) <= int(parts)
    assert cold.stderr.count("rulebook.pdf (4 parts, 6 layouts in 2 rounds") == 2, cold.stderr
    book = tmp_path / "out" / "ru" / "rulebook.pdf"
    first = book.read_bytes()

    # the event card's text is on its card only: the book neither prints nor pictures it
    set_value(pack / "cards.yaml", "Torches go out. Roll :d6:.", "Torches die. Roll :d6:.")
    again = relic(*build_args(pack, tmp_path))
    assert again.returncode == 0, again.stderr
    assert "1 rendered" in again.stderr  # the card itself was drawn again ...
    assert again.stderr.count("rulebook.pdf (from the cache") == 2  # ... the books were not
    assert book.read_bytes() == first

    # the zombie's speed is printed in chapter 1, and on its card, which chapter 1 and the
    # cover show: chapter 1 is laid out again; the cover's layout is kept, and its picture of
    # the card is put in anew when the book is assembled
    set_value(pack / "monsters.yaml", "stats: {speed: 2,", "stats: {speed: 4,")
    edited = relic(*build_args(pack, tmp_path))
    assert edited.returncode == 0, edited.stderr
    assert edited.stderr.count("rulebook.pdf (1 of 4 parts laid out, 1 round") == 2
    assert book.read_bytes() != first


def test_a_book_laid_out_in_book_order_is_the_book_laid_out_in_rounds(tmp_path: Path) -> None:
    """One cold book on two workers is laid out in rounds: every part at once on guessed page
    numbers, then every part on the real ones. Two books share the workers, so each is laid
    out in book order, with fewer layouts. Both ways give the same bytes."""
    pack = pack_with_book(tmp_path)
    both = relic(*build_args(pack, tmp_path))
    assert both.returncode == 0, both.stderr
    assert "en/rulebook.pdf (4 parts, 6 layouts in 2 rounds" in both.stderr
    # one bar for both books (each says what it lays out first), run to its end
    bars = re.findall(r"laying out the rulebook \(ru, en\): (\d+)/(\d+)", both.stderr)
    assert {total for _, total in bars} == {"12"} and bars[-1] == ("12", "12"), bars
    assert [int(done) for done, _ in bars] == sorted(int(done) for done, _ in bars)
    alone = relic("build", "--pack", pack.name, "--content", str(pack.parent), "--out",
                  str(tmp_path / "alone"), "--cache", str(tmp_path / "alone-cache"),
                  "--no-png", "--jobs", "2", "--lang", "en")
    assert alone.returncode == 0, alone.stderr
    assert "en/rulebook.pdf (4 parts, 8 layouts in 2 rounds" in alone.stderr
    assert (tmp_path / "alone" / "en" / "rulebook.pdf").read_bytes() == \
        (tmp_path / "out" / "en" / "rulebook.pdf").read_bytes()


def test_a_card_the_book_only_pictures_changes_its_picture_without_a_layout(
        tmp_path: Path) -> None:
    """The zombie's text is on its card, which the book shows, but not in the book's words:
    the en book is assembled again from its record with the new picture (nothing composed or
    laid out), the ru book, whose picture is the same, comes from the cache, and the en book
    has the very bytes a cold build of the edited pack gives. Once the cache has lost the laid
    out parts, the record cannot give the book: it is made as usual, to the same bytes."""
    pack = pack_with_book(tmp_path)
    assert relic(*build_args(pack, tmp_path)).returncode == 0
    book = tmp_path / "out" / "en" / "rulebook.pdf"
    first = book.read_bytes()
    set_value(pack / "monsters.yaml", "en: \"Walking dead :skull:.\"",
              "en: \"Restless dead :skull:.\"")
    edited = relic(*build_args(pack, tmp_path))
    assert edited.returncode == 0, edited.stderr
    assert "en/rulebook.pdf (new pictures put in, nothing composed or laid out" in edited.stderr
    assert "ru/rulebook.pdf (from the cache" in edited.stderr
    assert book.read_bytes() != first
    cold = tmp_path / "cold"
    fresh = relic("build", "--pack", pack.name, "--content", str(pack.parent), "--out",
                  str(cold / "out"), "--cache", str(cold / "cache"), "--jobs", "2")
    assert fresh.returncode == 0, fresh.stderr
    assert (cold / "out" / "en" / "rulebook.pdf").read_bytes() == book.read_bytes()

    shutil.rmtree(tmp_path / "cache" / "rulebook" / "units")
    set_value(pack / "monsters.yaml", "en: \"Restless dead :skull:.\"",
              "en: \"Walking dead :skull:.\"")
    back = relic(*build_args(pack, tmp_path))
    assert back.returncode == 0, back.stderr
    assert "new pictures put in" not in back.stderr
    assert "en/rulebook.pdf (4 of 4 parts laid out" in back.stderr, back.stderr
    assert book.read_bytes() == first


def test_a_value_only_a_stat_block_shows_lays_nothing_out_and_a_new_row_does(
        tmp_path: Path) -> None:
    """The zombie's stat block is drawn apart (`rulebook/blocks.py`); its kit is printed
    there and on its card, nowhere in the prose. A new kit assembles both books again
    from their records (nothing composed or laid out) to the very bytes a cold build of the
    edited pack gives, and the next build takes them from the cache with no book process; a
    new row (a second kind of damage) makes the block taller, and the chapter that shows it is
    laid out again."""
    pack = pack_with_book(tmp_path)
    for lang in ("ru", "en"):
        chapter = pack / "rules" / lang / "02-end.md"
        chapter.write_text(chapter.read_text(encoding="utf-8") +
                           '\n{{ monster_block("zombie") }}\n', encoding="utf-8")
    assert relic(*build_args(pack, tmp_path)).returncode == 0
    book = tmp_path / "out" / "en" / "rulebook.pdf"
    first = book.read_bytes()
    monsters = pack / "monsters.yaml"
    set_value(monsters, "kit: 3", "kit: 7")
    edited = relic(*build_args(pack, tmp_path))
    assert edited.returncode == 0, edited.stderr
    for lang in ("ru", "en"):
        assert f"{lang}/rulebook.pdf (new pictures put in, nothing composed or laid out" \
            in edited.stderr, edited.stderr
    assert book.read_bytes() != first
    document = pdfium.PdfDocument(book)
    try:
        lines = {ln.strip() for page in document
                 for ln in page.get_textpage().get_text_range().splitlines()}
    finally:
        document.close()
    assert any(ln.startswith("Attack: melee. In the box: 7.") for ln in lines), lines
    again = relic(*build_args(pack, tmp_path))  # the record now names the new block
    assert again.returncode == 0, again.stderr
    assert "en/rulebook.pdf (from the cache: nothing the book shows changed)" in again.stderr
    cold = tmp_path / "cold"
    fresh = relic("build", "--pack", pack.name, "--content", str(pack.parent), "--out",
                  str(cold / "out"), "--cache", str(cold / "cache"), "--jobs", "2")
    assert fresh.returncode == 0, fresh.stderr
    assert (cold / "out" / "en" / "rulebook.pdf").read_bytes() == book.read_bytes()

    set_value(monsters, "damage: {melee: 1}}", "damage: {melee: 1, ranged: 1}}")
    taller = relic(*build_args(pack, tmp_path))
    assert taller.returncode == 0, taller.stderr
    assert "new pictures put in" not in taller.stderr
    assert "en/rulebook.pdf (1 of 4 parts laid out" in taller.stderr, taller.stderr


def test_a_refused_picture_in_the_prose_fails_check_and_build_at_its_place(
        tmp_path: Path) -> None:
    pack = pack_with_book(tmp_path)
    chapter = pack / "rules" / "en" / "02-end.md"
    text = chapter.read_text(encoding="utf-8")
    line = text.count("\n") + 2
    bad = "A map: ![map](/etc/passwd) and ![x](http://example.com/x.png)"
    chapter.write_text(text + "\n" + bad + "\n", encoding="utf-8")
    checked = relic("check", str(pack))
    assert checked.returncode == 1
    for col, src in ((bad.index("![map]") + 1, "/etc/passwd"),
                     (bad.index("![x]") + 1, "http://example.com/x.png")):
        expected = f"{chapter}:{line}:{col}: error[rulebook-image]: image '{src}' is a URL or an " \
                   "absolute path"
        assert expected in checked.stdout, checked.stdout
    built = relic(*build_args(pack, tmp_path))
    assert built.returncode == 1
    assert f"{chapter}:{line}:8: error[rulebook-image]" in built.stderr
    assert "Traceback" not in built.stderr and "internal" not in built.stderr


def test_an_output_folder_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    pack = pack_with_book(tmp_path)
    (tmp_path / "build").write_text("not a folder")  # the default output folder, as a file
    done = relic("build", "--pack", "mini", "--content", str(pack.parent), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("relic: error[usage]: the cache folder 'build/.cache' cannot "
                                  "be made: 'build', a folder above it, is a file")
    blocked = tmp_path / "out-file"
    blocked.write_text("")
    done = relic("build", "--pack", "mini", "--content", str(pack.parent), "--out",
                 str(blocked), "--cache", str(tmp_path / "cache"), cwd=tmp_path)
    assert done.returncode == 2 and "error[usage]" in done.stderr and "is a file" in done.stderr
    assert "NotADirectoryError" not in done.stderr


def test_a_second_build_of_the_same_pack_stops_while_the_first_runs(tmp_path: Path) -> None:
    """Two real processes: one holds the build lock of out/, the other is `relic build`."""
    pack = pack_with_book(tmp_path)
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, pathlib; from pipeline.commands.output import "
         "build_lock\nwith build_lock(pathlib.Path(sys.argv[1]), 'mini'):\n"
         "    print('locked', flush=True); sys.stdin.read()", str(out)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        done = relic(*build_args(pack, tmp_path))
        assert done.returncode == 2
        assert f"another build of mini is running (pid {holder.pid})" in done.stderr
        assert not (out / "ru").exists()
    finally:
        holder.communicate("", timeout=30)
    assert relic(*build_args(pack, tmp_path)).returncode == 0  # the lock went with it


def test_two_builds_at_once_leave_whole_outputs_and_cache(tmp_path: Path) -> None:
    """Started together, one build runs and the other stops with the lock's message (or runs
    after it): either way every file the manifest lists is whole."""
    pack = pack_with_book(tmp_path)
    cmd = [sys.executable, "-m", "pipeline.cli", *build_args(pack, tmp_path)]
    env = {**os.environ, "CI": "1"}
    runs = [subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE, text=True, env=env)
            for _ in range(2)]
    results = [(p.wait(timeout=600), p.stderr.read()) for p in runs]
    assert sorted(code for code, _ in results) in ([0, 0], [0, 2])
    for code, err in results:
        if code == 2:
            assert "another build of mini is running (pid" in err
    time.sleep(0.1)
    for lang in ("ru", "en"):
        folder = tmp_path / "out" / lang
        manifest = json.loads((folder / "manifest.json").read_text())
        for entry in manifest["files"]:
            data = (folder / entry["path"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
    assert relic(*build_args(pack, tmp_path)).returncode == 0  # and the cache still serves


def test_no_rulebook_flag_and_packs_without_rules(tmp_path: Path, monkeypatch) -> None:
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "mini")
    shutil.rmtree(content / "mini" / "rules", ignore_errors=True)

    def must_not_run(*args, **kwargs):
        raise AssertionError("no rules folder: no rulebook")

    monkeypatch.setattr("pipeline.commands.build.Books.start", must_not_run)
    out = tmp_path / "out"
    code = cli.main(["build", "--pack", "mini", "--content", str(content), "--out", str(out),
                     "--cache", str(tmp_path / "cache"), "--no-png", "--quiet", "--jobs", "1"])
    assert code == 0
    assert not (out / "ru" / "rulebook.pdf").exists()


@pytest.mark.parametrize("flag", ["--no-rulebook"])
def test_the_no_rulebook_flag_builds_cards_only(tmp_path: Path, flag: str) -> None:
    pack = pack_with_book(tmp_path)
    done = relic(*build_args(pack, tmp_path, flag))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "out" / "ru" / "rulebook.pdf").exists()


@pytest.mark.parametrize("ok", [True, False])
def test_a_build_leaves_the_collector_as_it_found_it(tmp_path: Path, monkeypatch, ok) -> None:
    """The collector is off while a build imports and loads, then on with what they made
    frozen; a caller in the same process gets it back on and unfrozen, even from a build that
    stopped."""
    import gc

    import pipeline.commands.build as build_command

    seen = {}
    real = build_command._load

    def load(args):
        seen["while loading"] = gc.isenabled()
        return real(args)

    monkeypatch.setattr(build_command, "_load", load)
    pack = FIXTURE if ok else tmp_path / "content" / "mini"
    if not ok:  # a pack that cannot load: the build stops there
        shutil.copytree(FIXTURE, pack)
        (pack / "pack.yaml").write_text("id: [", encoding="utf-8")
    code = cli.main(["build", "--pack", "mini", "--content", str(pack.parent), "--out",
                     str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--jobs", "1",
                     "--no-rulebook"])
    assert (code == 0) is ok
    assert seen == {"while loading": False}
    assert gc.isenabled() and gc.get_freeze_count() == 0


def _loading_args(tmp_path: Path, pack: Path = FIXTURE):
    from pipeline.cli import build_parser

    return build_parser().parse_args(
        ["build", "--pack", pack.name, "--content", str(pack.parent), "--out",
         str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--jobs", "2"])


def test_the_loading_process_sends_the_model_whole(tmp_path: Path) -> None:
    from pipeline.commands.build import Loading, _load
    from pipeline.model import thaw

    args = _loading_args(tmp_path)
    model = Loading.start(args).model(args)
    here = _load(args)
    assert [(e.id, thaw(e.data)) for e in model] == [(e.id, thaw(e.data)) for e in here]
    assert model.pack.root == here.pack.root


def test_the_packs_problems_come_back_from_the_loading_process(tmp_path: Path) -> None:
    from pipeline.commands.build import Loading, _load
    from pipeline.diagnostics import RelicError

    pack = tmp_path / "content" / "mini"
    shutil.copytree(FIXTURE, pack)
    set_value(pack / "monsters.yaml", "speed: 2", "speed: fast")
    args = _loading_args(tmp_path, pack)
    with pytest.raises(RelicError) as there:
        Loading.start(args).model(args)
    with pytest.raises(RelicError) as here:
        _load(args)
    assert there.value.diagnostics == here.value.diagnostics
    assert [d.code for d in there.value.diagnostics] == ["schema-type"]


@pytest.mark.parametrize("how", ["raises", "dies"])
def test_a_loading_process_that_fails_leaves_the_loading_to_the_build(
        tmp_path: Path, monkeypatch, how: str) -> None:
    """A failure that is not the pack's (a bug, a killed process) is not reported from the
    loading process: the build loads the model itself, where it is reported like any other."""
    import pipeline.commands.build as build_command

    parent, real = os.getpid(), build_command._load

    def load(args):
        if os.getpid() != parent:  # in the loading process
            if how == "dies":
                os._exit(9)
            raise RuntimeError("a bug")
        return real(args)

    monkeypatch.setattr(build_command, "_load", load)
    args = _loading_args(tmp_path)
    loading = build_command.Loading.start(args)
    model = loading.model(args)
    assert model.pack.id == "mini" and len(model.entities) > 0
    assert loading.process.exitcode == (9 if how == "dies" else 0)


def test_a_build_from_a_filled_cache_leaves_the_loader_to_the_loading_process(
        tmp_path: Path) -> None:
    """The loader, the schemas and jsonschema are imported in the loading process only, while
    the build imports what draws and writes the cards."""
    pack = pack_with_book(tmp_path)
    assert relic(*build_args(pack, tmp_path)).returncode == 0
    set_value(pack / "monsters.yaml", "speed: 2", "speed: 3")  # one file read again
    code = ("import sys\nfrom pipeline import cli\n"
            f"code = cli.main({build_args(pack, tmp_path)!r})\n"
            "print(code, sorted(m for m in ('jsonschema', 'ruamel.yaml', 'pipeline.stages')"
            " if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "CI": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "0 []"


def test_default_fonts_read_ahead_are_the_ones_the_cards_use(tmp_path: Path,
                                                             monkeypatch) -> None:
    """While the model loads, the build reads the default fonts; a missing default font is
    not reported then (a pack may print in its own fonts), only if the pack prints in it."""
    from pipeline.cards import fonts
    from pipeline.cards.faces import text
    from pipeline.cards.formats import DEFAULT_FONTS, VALIDATED
    from pipeline.commands.build import _read_default_fonts

    monkeypatch.setitem(VALIDATED, "dir", tmp_path / "cache")  # put back afterwards
    text.font_set.cache_clear()
    _read_default_fonts(tmp_path / "cache")
    assert text.font_set.cache_info().currsize == 1
    ahead = text.font_set(tuple(sorted(DEFAULT_FONTS.items())))
    assert text.font_set.cache_info().hits == 1  # the cards' call is answered from memory
    assert {Path(f).name for f in ahead.files.values()} >= {"DejaVuSans.ttf",
                                                            "DejaVuSerif-Bold.ttf"}

    def missing(family: str, style: str = "Regular"):
        raise fonts.FontError(f"font {family!r} not found by fontconfig")

    text.font_set.cache_clear()
    monkeypatch.setattr(fonts, "find_font", missing)
    _read_default_fonts(tmp_path / "cache")  # no error here
    assert text.font_set.cache_info().currsize == 0


def test_a_build_stopped_before_it_takes_the_model_ends_the_loading_process(
        tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while the card code is imported: the loading process, blocked on a pipe that
    nobody will read (the canonical model is more than a pipe holds), ends with the build."""
    import pipeline.commands.build as build_command

    started = []
    real_start = build_command.Loading.start

    def start(args):
        started.append(real_start(args))
        return started[-1]

    def interrupted():
        assert started[0].pipe.poll(120)  # the model is being sent
        raise KeyboardInterrupt

    monkeypatch.setattr(build_command.Loading, "start", start)
    monkeypatch.setattr(build_command, "_import_card_code", interrupted)
    code = cli.main(["build", "--pack", "catacombs", "--content", str(ROOT / "content"),
                     "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache"),
                     "--jobs", "2"])
    assert code == 130
    assert len(started) == 1 and not started[0].process.is_alive()


def test_a_build_in_process_forgets_its_cache_for_checked_copies(tmp_path: Path) -> None:
    """A later command in the same process (the hostile corpus runs them in one) must not read
    or write the build's cache: the folder named before the build is back after it."""
    from pipeline.cards.formats import VALIDATED

    before = dict(VALIDATED)
    code = cli.main(["build", "--pack", "mini", "--content", str(FIXTURE.parent), "--out",
                     str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--jobs", "2",
                     "--no-rulebook"])
    assert code == 0
    assert any((tmp_path / "cache" / "print").iterdir())  # the build kept its checked copies
    assert before == VALIDATED


def test_an_edit_warms_one_layout_worker_a_book_and_a_first_build_every_worker(
        tmp_path: Path) -> None:
    """A book made before in this cache (an edit) likely lays out one part: one worker a book
    imports WeasyPrint at once; a book never made lays out every part: every worker does."""
    from pipeline.commands.build import _load, _warm_workers

    pack = pack_with_book(tmp_path)
    args = _loading_args(tmp_path, pack)
    model = _load(args)
    assert _warm_workers(model, ("ru",), args, tmp_path / "cache", 2) == 2
    done = relic(*build_args(pack, tmp_path, "--lang", "ru"))
    assert done.returncode == 0, done.stderr
    assert _warm_workers(model, ("ru",), args, tmp_path / "cache", 2) == 1
    assert _warm_workers(model, ("ru", "en"), args, tmp_path / "cache", 2) == 2  # en: none yet
    args.rulebook_paper = "a4"  # another book: its own record
    assert _warm_workers(model, ("ru",), args, tmp_path / "cache", 2) == 2


def test_the_held_layout_worker_is_released_by_a_part_more_than_the_warm_ones_take(
        monkeypatch) -> None:
    import threading
    from concurrent.futures import Future

    from pipeline import processes
    from pipeline.commands import build

    monkeypatch.setattr(processes, "die_with_parent", lambda: None)  # not a worker: pytest's
    monkeypatch.setattr(build, "_RELEASE", None)

    handed = []

    class Pool:
        def submit(self, fn, *args):
            handed.append(fn)
            return Future()

    release = threading.Event()
    executor = build._Releasing(Pool(), release, warm=1)
    executor.submit(print)
    assert not release.is_set()  # the first part goes to the warm worker alone
    executor.submit(print)
    assert release.is_set() and handed == [print, print]

    build._worker_started(release=threading.Event())  # as a forked worker starts
    waiting = threading.Thread(target=build._held)
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive()  # held: neither importing WeasyPrint nor taking a part
    build._RELEASE.set()
    waiting.join(5)
    assert not waiting.is_alive()


def test_a_print_set_the_book_process_never_read_does_not_hold_up_the_exit(
        tmp_path: Path) -> None:
    """The build sends the book process its print set before the cards are built. When the
    card build fails (a text too long for its box), the book process is stopped before it
    reads it, and a print set larger than a pipe holds stayed half-written: the build printed
    its error and then waited at exit, forever, for the queue's thread writing it."""
    script = (
        "import argparse\n"
        "from pathlib import Path\n"
        "from pipeline.commands.build import Books\n"
        "from pipeline.stages import load_model\n"
        f"model = load_model(Path({str(FIXTURE)!r}))\n"
        "args = argparse.Namespace(rulebook_paper=None, proof=False, booklet=False)\n"
        f"books = Books.start(model, (), args, Path({str(tmp_path / 'cache')!r}), 1, warm=0)\n"
        "books.give(b'x' * 1_000_000)  # more than a pipe holds, and never read\n"
        "books.stop()\n"
        "print('stopped', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped"
