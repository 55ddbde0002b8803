"""`relic check` finds what printing would refuse: every text box of every face is set at the
smallest size its layout allows, without drawing, and text that cannot fit is an error at the
field that prints it. Format characters (bidi isolates) need no glyph."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.checks import print_fit
from pipeline.cli import main
from pipeline.stages import load_model
from tests.cards.conftest import copy_pack


def _edit(pack: Path, name: str, old: str, new: str) -> None:
    path = pack / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _errors(pack: Path) -> list:
    """What the print plug-in of `relic check` reports (the fixture pack is not a complete
    game: the component checks have their own findings)."""
    return list(print_fit.check(load_model(pack)))


def test_the_fixture_pack_prints_cleanly(tmp_path: Path) -> None:
    assert _errors(copy_pack(tmp_path)) == []


def test_text_too_long_for_its_box_is_an_error_at_its_field(tmp_path: Path, capsys) -> None:
    pack = copy_pack(tmp_path)
    long = "Очень длинный текст о катакомбах и сокровищах. " * 40
    _edit(pack, "cards.yaml", "Факелы гаснут. Брось :d6:.", long)
    [d] = _errors(pack)
    assert d.code == "text-overflow" and d.message.startswith("draught: text:")
    assert "7 pt" in d.message
    line = next(i for i, text in enumerate((pack / "cards.yaml").read_text("utf-8").splitlines(),
                                          start=1) if "Очень длинный" in text)
    assert (Path(d.span.file).name, d.span.line) == ("cards.yaml", line)  # the ru string
    assert main(["check", str(pack)]) == 1
    assert f"cards.yaml:{line}:" in capsys.readouterr().out


def test_a_name_of_a_million_characters_fails_check_at_the_name(tmp_path: Path) -> None:
    """Not a blank card with exit 0: the name is measured (one word far too wide), cheaply."""
    pack = copy_pack(tmp_path)
    _edit(pack, "monsters.yaml", "en: Zombie}", "en: " + "W" * 1_000_000 + "}")
    found = _errors(pack)
    assert found and {d.code for d in found} == {"text-overflow"}
    assert all(d.message.startswith("zombie: name:") and Path(d.span.file).name ==
               "monsters.yaml" for d in found)


def test_an_unknown_format_fails_check_not_only_build(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _edit(pack, "pack.yaml", "relationship: {format: mini,", "relationship: {format: minj,")
    [d] = _errors(pack)
    assert d.code == "unknown-format" and d.span.file.endswith("pack.yaml")


def test_bidi_isolates_need_no_glyph_and_print_nothing(tmp_path: Path) -> None:
    """U+2066-U+2069 wrap a name for right-to-left readers; no font has glyphs for them and
    none is needed: check passes, the build prints the name without them."""
    pack = copy_pack(tmp_path)
    _edit(pack, "monsters.yaml", "name: {ru: Зомби,", "name: {ru: \u2068Зомби\u2069,")
    assert _errors(pack) == []
    out = tmp_path / "out"
    build(load_model(pack), BuildOptions(out_root=out, cache_dir=tmp_path / "cache",
                                         langs=("ru",), workers=1))
    text = "".join(p.extract_text() for p in PdfReader(out / "ru" / "shop" / "poker.pdf").pages)
    assert "Зомби" in text and "\u2068" not in text and "\u2069" not in text


def test_faces_measured_on_every_core_find_what_one_process_finds(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """A big pack's faces are measured in shares, one a core (this process takes the first,
    forked ones the others): the same problems, in the same order, as measured in one."""
    import pipeline.cards as cards
    from pipeline import processes

    pack = copy_pack(tmp_path)
    _edit(pack, "cards.yaml", "Факелы гаснут. Брось :d6:.",
          "Очень длинный текст о катакомбах и сокровищах. " * 40)
    _edit(pack, "monsters.yaml", "en: Zombie}", "en: " + "W" * 500 + "}")
    model = load_model(pack)
    monkeypatch.setattr(processes, "default_workers", lambda: 2)
    monkeypatch.setattr(cards, "SHARED_FROM", 10**9)
    alone = cards.preflight(model)
    shares = []
    measured = cards._measured

    def share(faces, start, stop):
        shares.append((start, stop, len(faces)))
        return measured(faces, start, stop)

    monkeypatch.setattr(cards, "_measured", share)
    monkeypatch.setattr(cards, "SHARED_FROM", 2)
    shared = cards.preflight(model)
    [(start, stop, total)] = shares  # this process's share; the other was measured forked
    assert start == 0 and 0 < stop < total
    assert len(alone) >= 2 and {d.code for d in alone} == {"text-overflow"}
    assert shared == alone
