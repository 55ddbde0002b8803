"""The built rulebook PDF, read back with pypdf: outline, data tables, table of contents."""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.rulebook.conftest import Built, markdown_headings

LANGS = ["ru", "en"]
TOC_LINE = re.compile(r"^(.+?)\s*\.{3,}\s*(\d+)$")
NUMBER = re.compile(r"\d+")
DASH = str.maketrans({"–": "-", "−": "-"})


def outline_titles(outline: list) -> list[str]:
    titles = []
    for item in outline:
        if isinstance(item, list):
            titles += outline_titles(item)
        else:
            titles.append(item.title)
    return titles


def top_level_titles(outline: list) -> list[str]:
    return [item.title for item in outline if not isinstance(item, list)]


@pytest.mark.parametrize("lang", LANGS)
def test_outline_has_every_chapter_and_section(books: dict[str, Built], lang: str) -> None:
    outline = books[lang].reader.outline
    chapters = markdown_headings(lang, 1)
    assert len(chapters) >= 8
    top = top_level_titles(outline)
    for title in chapters:
        assert title in top, f"chapter {title!r} has no top-level bookmark"
    everything = outline_titles(outline)
    for title in markdown_headings(lang, 2):
        assert title in everything, f"section {title!r} has no bookmark"


def toc_entries(book: Built) -> tuple[list[tuple[str, int]], int]:
    """(title, printed page) for every ToC line, and the last ToC page."""
    entries: list[tuple[str, int]] = []
    last = 0
    for page in range(2, 6):
        found = [TOC_LINE.match(line) for line in book.lines(page)]
        found = [m for m in found if m]
        if not found:
            break
        entries += [(m.group(1).strip(), int(m.group(2))) for m in found]
        last = page
    return entries, last


def real_page(book: Built, title: str, start: int) -> int | None:
    """The first page from `start` on whose text has `title` as a whole line."""
    for page in range(start, len(book.texts) + 1):
        lines = book.lines(page)
        joined = [a + " " + b for a, b in itertools.pairwise(lines)]
        if title in lines or title in joined:
            return page
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_contents_page_numbers_are_the_real_ones(books: dict[str, Built], lang: str) -> None:
    book = books[lang]
    entries, last_toc = toc_entries(book)
    titles = [t for t, _ in entries]
    for chapter in markdown_headings(lang, 1):
        assert chapter in titles, f"chapter {chapter!r} missing from the contents"
    assert len(entries) >= 30
    start = last_toc + 1
    for title, printed in entries:  # in book order: each heading is at or after the previous
        found = real_page(book, title, start)
        start = found or start
        assert found == printed, f"{title!r}: contents say p. {printed}, heading is on p. {found}"
        assert book.lines(printed)[-1] == str(printed), "the page number is printed in the footer"


def _page_with(book: Built, needle: str) -> int:
    for n, text in enumerate(book.texts, start=1):
        if needle in text:
            return n
    raise AssertionError(f"{needle!r} not found in the {book.lang} rulebook")


def _numbers(value) -> list[int]:
    """Every integer in an exported value, in order (bools and strings skipped)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


NOUNS = {"ru": {"treasures": "сокровищ", "common_items": "прост", "magic_items": "магическ",
                "secret_knowledge": "тайн"},
         "en": {"treasures": "treasure", "common_items": "common item", "magic_items": "magic item",
                "secret_knowledge": "secret knowledge"}}


@pytest.mark.parametrize("lang", LANGS)
def test_treasure_table_equals_the_exported_model(books: dict[str, Built], exported: dict,
                                                  lang: str) -> None:
    plain = {e["id"]: e for e in exported["entities"]}
    table = plain["treasure-table"]
    caption = table["name"][lang]
    book = books[lang]
    lines = [ln.translate(DASH) for ln in book.lines(_page_with(book, caption))]
    names = {e["id"]: e["name"][lang] for e in exported["entities"] if "name" in e}
    for row in table["rows"]:
        matching = [ln for ln in lines if ln.startswith(row["roll"] + " ")]
        assert matching, f"row {row['roll']} is not in the printed table"
        printed = matching[0][len(row["roll"]):]
        assert sorted(int(n) for n in NUMBER.findall(printed)) == sorted(
            _numbers(row["result"])), f"row {row['roll']}: {matching[0]!r}"
        for key, value in row["result"].items():
            if isinstance(value, int):
                noun = NOUNS[lang][key]
                assert re.search(rf"\b{value} {noun}", printed), f"{row['roll']}: {key}={value}"
            else:
                assert all(names[i] in printed for i in value), f"{row['roll']}: {key}"


STAT_LABELS = {"ru": {"speed": "Скорость", "health": "Здоровье", "damage": "Урон"},
               "en": {"speed": "Speed", "health": "Health", "damage": "Damage"}}


@pytest.mark.parametrize("lang", LANGS)
def test_monster_stats_equal_the_exported_model(books: dict[str, Built], exported: dict,
                                                lang: str) -> None:
    book = books[lang]
    labels = STAT_LABELS[lang]
    monsters = [e for e in exported["entities"] if e["kind"] == "monster"]
    assert len(monsters) >= 7  # the seed's seven kinds, each with its block in the book
    for monster in monsters:
        name = monster["name"][lang]
        block = _stat_block(book, name, labels["speed"])
        normal, controlled = monster["stats"], monster.get("controlled", {})
        for stat in ("speed", "health"):
            if stat in normal:
                expected = [normal[stat], controlled.get(stat, normal[stat])]
                assert _row(block, labels[stat]) == expected, f"{name} {stat}"
        damage = normal.get("damage", {})
        printed = [[int(n) for n in NUMBER.findall(ln)] for ln in block
                   if ln.startswith(labels["damage"] + ":")]
        assert len(printed) == len(damage), f"{name}: one damage row per kind of damage"
        expected = [[damage[k], controlled.get("damage", {}).get(k, damage[k])] for k in damage]
        assert sorted(printed) == sorted(expected), f"{name} damage"
        if "health_by_players" in monster:
            printed = _row(block, labels["health"])
            for players, health in monster["health_by_players"].items():
                assert health in printed and int(players) in printed


@functools.cache
def _viewer_lines(pdf: Path) -> tuple[tuple[str, ...], ...]:
    """Each page's lines as a viewer reads them (PDFium): a stat block is drawn apart
    (`blocks.py`), and a row of its table reads as one line there (pypdf reads every cell of
    a drawn table as a line of its own)."""
    document = pdfium.PdfDocument(pdf)
    try:
        return tuple(tuple(ln.strip() for ln in page.get_textpage().get_text_range().splitlines()
                           if ln.strip()) for page in document)
    finally:
        document.close()


def _stat_block(book: Built, name: str, first_label: str) -> list[str]:
    """The lines after the block's title line (the monster's name followed by the table head)."""
    for lines in _viewer_lines(book.pdf):
        for i, line in enumerate(lines[:-2]):
            if line == name and any(ln.startswith(first_label + " ") for ln in lines[i:i + 4]):
                return lines[i:i + 10]
    raise AssertionError(f"no stat block for {name}")


def _row(block: list[str], label: str) -> list[int]:
    """The numbers of the row `label`, with the lines its cells wrap onto (lines that start
    with a digit or a bracket)."""
    at = next(i for i, ln in enumerate(block) if ln.startswith(label))
    line = block[at][len(label):]
    for more in block[at + 1:]:
        if not re.match(r"^[\d(]", more):
            break
        line += " " + more
    return [int(n) for n in NUMBER.findall(line)]


@pytest.mark.parametrize("lang", LANGS)
def test_cross_references_print_real_page_numbers(books: dict[str, Built], lang: str) -> None:
    book = books[lang]
    word = {"ru": "см. с.", "en": "see p."}[lang]
    near = {"ru": ("см. ниже", "см. выше"), "en": ("see below", "see above")}[lang]
    text = "\n".join(book.texts)
    pages = [int(p) for p in re.findall(re.escape(word) + r"\s*(\d+)", text)]
    assert len(pages) >= 12
    assert all(1 <= p <= len(book.texts) for p in pages)
    assert sum(text.count(n) for n in near) >= 5  # references inside their own chapter
    for number, page in enumerate(book.texts, start=1):  # no page points at itself
        here = [int(p) for p in re.findall(re.escape(word) + r"\s*(\d+)", page)]
        assert number not in here, f"p. {number} refers to p. {number}"
    assert "{{" not in text and "{%" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_cross_references_link_to_their_page(books: dict[str, Built], lang: str) -> None:
    """Each "see p. N" is a link to page N (links cross the separately laid-out chapters)."""
    reader = books[lang].reader
    targets = []
    for page in reader.pages:
        for annot in page.get("/Annots") or ():
            dest = annot.get_object().get("/Dest")
            if dest is not None:
                targets.append(reader.get_page_number(dest[0].get_object()))
    assert len(targets) >= 60  # contents, index and cross-references
    assert all(0 <= t < len(reader.pages) for t in targets)


@pytest.mark.parametrize("lang", LANGS)
def test_every_glyph_comes_from_the_books_own_fonts(books: dict[str, Built], lang: str) -> None:
    """No fallback font: the obstacle matrix's symbols are set in the book's sans."""
    fonts = set()
    for page in books[lang].reader.pages:
        for font in (page["/Resources"].get_object().get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]).split("+", 1)[1])
    assert fonts and all(f.startswith(("DejaVu-Serif", "DejaVu-Sans")) for f in fonts), fonts


def test_both_languages_have_the_same_structure(books: dict[str, Built]) -> None:
    ru, en = books["ru"].reader.outline, books["en"].reader.outline
    assert len(outline_titles(ru)) == len(outline_titles(en))
    assert markdown_headings("ru", 2) != markdown_headings("en", 2)


@pytest.mark.parametrize("lang", LANGS)
def test_pages_are_a5_and_metadata_is_fixed(books: dict[str, Built], lang: str) -> None:
    reader = books[lang].reader
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    assert reader.metadata["/CreationDate"].startswith("D:2000")


SYMBOL = {"pass": "✓", "blocked": "■", "held": "≈", "dies": "☠", "breaks": "⚒"}


@pytest.mark.parametrize("lang", LANGS)
def test_obstacle_matrix_equals_the_exported_model(books: dict[str, Built], exported: dict,
                                                   lang: str) -> None:
    """The matrix is on a portrait page of the book, in tables a few monsters wide, and each
    obstacle's rows show every monster's effect."""
    plain = {e["id"]: e for e in exported["entities"]}
    matrix = plain["obstacle-matrix"]
    book = books[lang]
    page = next(n for n, text in enumerate(book.texts, start=1)
                if matrix["name"][lang] in text and "✓" in text)
    box = book.reader.pages[page - 1].mediabox
    assert float(box.width) < float(box.height)
    lines = book.lines(page) + book.lines(page + 1)
    names = {e["id"]: e["name"][lang] for e in exported["entities"] if "name" in e}
    for obstacle in matrix["obstacles"]:
        effects = [row["cells"][obstacle]["effect"] for row in matrix["rows"]]
        symbols = {SYMBOL.get(e) for e in effects if e in SYMBOL}
        first_word = names.get(obstacle, "\0").split()[0]  # long names wrap in their cell
        rows = [ln for ln in lines if ln.startswith(first_word)]
        if obstacle in names:
            assert len(rows) >= 2, f"{obstacle}: one row per table"
            assert symbols <= set("".join(rows)), obstacle
    text = "\n".join(lines)
    for effect in ("dies", "breaks", "held"):
        expected = sum(1 for row in matrix["rows"] for cell in row["cells"].values()
                       for c in (cell, cell.get("controlled"), cell.get("shielded"))
                       if c and c["effect"] == effect)
        assert text.count(SYMBOL[effect]) - 1 == expected, effect  # minus the legend


INDEX_ENTRY = re.compile(r"([^\d,\n][^\d,]*?)\s+((?:\d+,\s*)*\d+)")


@pytest.mark.parametrize("lang", LANGS)
def test_index_pages_hold_their_terms(books: dict[str, Built], lang: str) -> None:
    book = books[lang]
    title = {"ru": "Указатель", "en": "Index"}[lang]
    start = next(n for n in range(len(book.texts), 0, -1) if book.lines(n)[0] == title)
    body = "\n".join("\n".join(book.lines(n)[:-2]) for n in range(start, len(book.texts) + 1))
    body = body.split("\n", 1)[1]  # without the title
    entries = INDEX_ENTRY.findall(body)
    assert len(entries) >= 30
    for term, pages in entries:
        stem = term.strip().lower().split()[0][:4]
        for page in (int(p) for p in pages.split(",")):
            text = book.texts[page - 1].lower().replace("\u00ad", "").replace("‐\n", "")
            assert stem in text, f"index: {term.strip()!r} is not on p. {page}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_book_holds_each_font_picture_and_icon_once(books: dict[str, Built],
                                                        lang: str) -> None:
    """Every part embeds the same font subsets, and a picture may be shown by several parts:
    the assembly keeps one of each (`assemble._share_identical`). The book has pictures and
    parts enough for copies to be there if it did not."""
    import hashlib

    import pikepdf

    with pikepdf.open(books[lang].pdf) as pdf:
        streams = [o for o in pdf.objects if isinstance(o, pikepdf.Stream)
                   and o.get("/Type") not in ("/ObjStm", "/XRef")]
        kinds = {str(o.get("/Subtype")) for o in streams}
        bodies = [hashlib.sha256(o.read_raw_bytes()).hexdigest() for o in streams]
    assert "/Image" in kinds and len(books[lang].reader.pages) > 20
    assert len(set(bodies)) == len(bodies)


def test_the_assembly_keeps_each_picture_compressed_beside_its_raster(tmp_path) -> None:
    """A picture is decoded and compressed once: the next assembly reads it as kept; and
    what it reads is what it kept, so both books are the same bytes."""
    import pikepdf
    from PIL import Image

    from pipeline.rulebook import assemble as asm

    raster = tmp_path / "picture.png"
    Image.new("RGB", (3, 2), (200, 10, 30)).save(raster)
    made = []
    for _ in range(2):
        with pikepdf.new() as pdf:
            stream = pikepdf.Stream(pdf, b"\xff")
            asm._write_picture(stream, raster)
            made.append((int(stream.Width), int(stream.Height), stream.read_bytes()))
    kept = tmp_path / "picture.png.rgb.pickle"
    assert kept.is_file()
    assert made[0] == made[1] == (3, 2, bytes([200, 10, 30]) * 6)
    raster.unlink()  # from now on only the kept copy can give it
    with pikepdf.new() as pdf:
        stream = pikepdf.Stream(pdf, b"\xff")
        asm._write_picture(stream, raster)
        assert stream.read_bytes() == made[0][2]
