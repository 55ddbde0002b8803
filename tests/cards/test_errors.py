"""Content that cannot print is a build error naming the entity, never a broken PDF."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.diagnostics import RelicError
from pipeline.stages import load_model
from tests.cards.conftest import copy_pack


def _build(pack: Path, tmp_path: Path, **kw) -> Path:
    options = BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache",
                           langs=("ru",), png=False, workers=1, **kw)
    build(load_model(pack), options)
    return tmp_path / "out" / "ru"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_text_that_cannot_fit_at_7pt_names_the_entity(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    long = "Очень длинный текст о катакомбах и сокровищах. " * 40
    _replace(pack / "cards.yaml", "Факелы гаснут. Брось :d6:.", long)
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "text-overflow"
    assert "draught" in d.message and "7 pt" in d.message
    assert d.span.file.endswith("cards.yaml") and d.span.line > 1
    assert not (tmp_path / "out" / "ru").exists()


def test_glyph_missing_from_the_font_is_an_error_not_tofu(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "monsters.yaml", "name: {ru: Зомби,", "name: {ru: Зомби \U00013000,")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    codes = {d.code for d in caught.value.diagnostics}
    assert codes == {"missing-glyph"}
    assert all("zombie" in d.message and "U+13000" in d.message
               for d in caught.value.diagnostics)


def test_glyph_missing_from_a_printed_caption_names_the_labels_file(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    (pack / "print").mkdir(exist_ok=True)
    (pack / "print" / "labels.yaml").write_text(
        "labels:\n  speed: {ru: \"Скорость \U00013000\", en: Speed}\n", encoding="utf-8")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    assert {d.code for d in caught.value.diagnostics} == {"missing-glyph"}
    assert all("U+13000" in d.message and "printed caption" in d.message
               and d.span.file.endswith("print/labels.yaml")
               for d in caught.value.diagnostics)


def test_missing_font_is_a_clear_error(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "pack.yaml", "  bleed: 3mm\n",
             "  bleed: 3mm\n  fonts: {body: No Such Font Sans}\n")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "missing-font" and "No Such Font Sans" in d.message


def test_unknown_format_in_the_profile_is_reported_with_its_place(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "pack.yaml", "relationship: {format: mini,", "relationship: {format: minj,")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "unknown-format" and "minj" in d.message and "mini" in (d.hint or "")
    assert d.span.file.endswith("pack.yaml") and d.span.line > 1


def test_proof_build_marks_provisional_values(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    plain = _build(pack, tmp_path / "plain")
    proof = _build(pack, tmp_path / "proof", proof=True)

    def board_text(folder: Path) -> str:
        return "".join(p.extract_text() for p in PdfReader(folder / "shop" / "board.pdf").pages)

    # the fixture marks the archaeologist's health provisional: "P" next to it in proofs only
    assert "P" not in board_text(plain)
    assert "P" in board_text(proof)


def test_paper_flag_overrides_the_profile(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    out = _build(pack, tmp_path, paper="letter")
    page = PdfReader(out / "pnp" / "poker-letter-duplex.pdf").pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
        (612, 792), abs=0.01)


def test_a_word_too_long_for_its_box_is_an_error(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "tokens.yaml", "name: {ru: Клад, en: Cache}",
             "name: {ru: " + "Ж" * 40 + ", en: Cache}")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    assert {(d.code, d.message.split(":")[0]) for d in caught.value.diagnostics} == {
        ("text-overflow", "cache-plus-2")}


def test_unknown_inline_icon_names_the_entity(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "cards.yaml", "Факелы гаснут. Брось :d6:.", "Брось :d7:.")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "unknown-icon" and "draught" in d.message and ":d7:" in d.message


def test_a_bad_length_in_pack_formats_points_at_its_line(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "print" / "formats.yaml", "    height: 120mm", "    height: 120 furlongs")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "print-schema" and "furlongs" in d.message
    assert d.span.file.endswith("formats.yaml") and d.span.line == 5


def test_a_missing_template_is_one_clear_error(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    _replace(pack / "pack.yaml", "template: monster,", "template: beast,")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "unknown-template" and "beast.yaml" in d.message


def test_a_pack_without_print_profile_says_so(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    (pack / "pack.yaml").write_text("id: mini\ntitle: {ru: Мини, en: Mini}\n"
                                    "languages: [ru, en]\n", encoding="utf-8")
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "no-print-profile" and d.span.file.endswith("pack.yaml")


def test_a_duplicate_key_in_pack_formats_is_the_loaders_located_error(tmp_path: Path) -> None:
    """Print YAML goes through the content's own loader: same bounds, same diagnostics."""
    pack = copy_pack(tmp_path)
    twice = "    height: 120mm\n    height: 121mm"
    _replace(pack / "print" / "formats.yaml", "    height: 120mm", twice)
    with pytest.raises(RelicError) as caught:
        _build(pack, tmp_path)
    [d] = caught.value.diagnostics
    assert d.code == "duplicate-key" and "height" in d.message
    assert d.span.file.endswith("formats.yaml") and d.span.line == 6
