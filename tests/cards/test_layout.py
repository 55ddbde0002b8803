"""Layout: sheets and placements in millimetres, before any PDF exists."""

from __future__ import annotations

import pytest

from pipeline.cards.components import Component
from pipeline.cards.formats import Format, Sheet
from pipeline.cards.layout import choose_grid, crop_marks, layout, mirror
from pipeline.cards.units import parse_length

A4 = Sheet("a4", "A4", 210, 297, 5)
LETTER = Sheet("letter", "Letter", 215.9, 279.4, 5.08)
POKER = Format("poker", "Poker", 63.5, 88.9, 3)


@pytest.mark.parametrize(("text", "mm"), [("63mm", 63), ("2.5in", 63.5), ("72pt", 25.4),
                                          ("1cm", 10), ("88.9mm", 88.9)])
def test_lengths(text: str, mm: float) -> None:
    assert parse_length(text) == pytest.approx(mm)


def test_bad_length_is_rejected() -> None:
    with pytest.raises(ValueError):
        parse_length("63 furlongs")


@pytest.mark.parametrize("sheet", [A4, LETTER])
def test_grid_fits_inside_the_margin(sheet: Sheet) -> None:
    grid = choose_grid(POKER, sheet)
    cells = [grid.cell(i) for i in range(grid.per_sheet)]
    for c in cells:
        assert c.x >= sheet.margin - 1e-6 and c.x2 <= sheet.width - sheet.margin + 1e-6
        assert c.y >= sheet.margin - 1e-6 and c.y2 <= sheet.height - sheet.margin + 1e-6
    for a in cells:  # bleed boxes never overlap
        for b in cells:
            if a is not b:
                assert a.x2 <= b.x + 1e-6 or b.x2 <= a.x + 1e-6 or a.y2 <= b.y + 1e-6 \
                    or b.y2 <= a.y + 1e-6


def test_a4_holds_eight_poker_cards_with_full_bleed() -> None:
    assert choose_grid(POKER, A4).per_sheet == 8


def test_mirror_is_an_involution_and_keeps_the_row() -> None:
    grid = choose_grid(POKER, A4)
    for i in range(grid.per_sheet):
        cell = grid.cell(i)
        back = mirror(cell, A4)
        assert back.y == cell.y and mirror(back, A4) == cell
        assert back in [grid.cell(j) for j in range(grid.per_sheet)]


def test_marks_never_touch_a_trim() -> None:
    grid = choose_grid(POKER, A4)
    trims = [(c.x + 3, c.y + 3, c.x2 - 3, c.y2 - 3) for c in
             (grid.cell(i) for i in range(grid.per_sheet))]
    marks = crop_marks(grid, POKER, A4)
    assert marks
    for m in marks:
        for x0, y0, x1, y1 in trims:
            inside_x = x0 < max(m.x1, m.x2) and min(m.x1, m.x2) < x1
            inside_y = y0 < max(m.y1, m.y2) and min(m.y1, m.y2) < y1
            assert not (inside_x and inside_y)


def _components(n: int, backs: bool = True) -> tuple[Component, ...]:
    return tuple(Component(f"c{i}", "card", 1, 1, "poker", f"front{i}",
                           "back" if backs else None) for i in range(n))


def test_duplex_alternates_fronts_and_backs() -> None:
    lay = layout(_components(10), POKER, A4, duplex=True)
    assert [p.side for p in lay.pages] == ["front", "back", "front", "back"]
    assert [len(p.placements) for p in lay.pages] == [8, 8, 2, 2]
    for front, back in zip(lay.pages[::2], lay.pages[1::2], strict=True):
        for f, b in zip(front.placements, back.placements, strict=True):
            assert b.box == mirror(f.box, A4) and b.component == f.component


def test_simplex_puts_backs_after_all_fronts() -> None:
    lay = layout(_components(10), POKER, A4, duplex=False)
    assert [p.side for p in lay.pages] == ["front", "front", "back", "back"]


def test_one_sided_components_get_no_back_sheets() -> None:
    lay = layout(_components(3, backs=False), POKER, A4, duplex=True)
    assert [p.side for p in lay.pages] == ["front"]


def test_a_format_larger_than_the_paper_is_an_error() -> None:
    from pipeline.diagnostics import RelicError

    with pytest.raises(RelicError):
        choose_grid(Format("huge", "Huge", 300, 400, 3), A4)


def _touches(line, box) -> bool:
    """A crop mark or guide on the line of one of the box's trim edges."""
    xs, ys = {round(box.x, 2), round(box.x2, 2)}, {round(box.y, 2), round(box.y2, 2)}
    vertical = abs(line.x1 - line.x2) < 1e-6
    return (round(line.x1, 2) in xs) if vertical else (round(line.y1, 2) in ys)


def test_a_sheet_that_is_not_full_marks_only_its_components() -> None:
    """10 cards: the second sheet holds 2, in the top row; no marks are drawn for the six
    empty slots, and the back's marks are the front's turned over with the sheet."""
    lay = layout(_components(10), POKER, A4, duplex=True)
    full_front, _, last_front, last_back = lay.pages
    assert len(last_front.marks) < len(full_front.marks)
    empty = [choose_grid(POKER, A4).cell(i) for i in range(2, 8)]
    trims = [p.trim for p in last_front.placements]
    for ln in last_front.marks:
        assert any(_touches(ln, t) for t in trims)
    empty_edges = {round(v, 2) for c in empty for v in (c.y + 3, c.y2 - 3)}
    used_edges = {round(v, 2) for t in trims for v in (t.y, t.y2)}
    assert empty_edges - used_edges
    assert not any(round(ln.y1, 2) in empty_edges - used_edges for ln in last_front.marks
                   if abs(ln.y1 - ln.y2) < 1e-6)
    assert {(round(A4.width - ln.x1, 4), ln.y1) for ln in last_front.marks} == {
        (ln.x1, ln.y1) for ln in last_back.marks}
    # nor guides around the empty slots: every guide is a short stretch of gutter
    assert all(max(abs(ln.x2 - ln.x1), abs(ln.y2 - ln.y1)) <= 2 * 3 + A4.gutter
               for ln in last_front.marks)
