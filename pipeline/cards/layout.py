"""Components -> Layout: sheets with placements in millimetres, inspectable before any PDF exists.

Coordinates follow PDF: origin at the sheet's lower-left corner, x to the right, y up. Sheets
are always portrait; when more components fit turned by 90 degrees, they are placed rotated.
Backs sit at the mirrored position (x -> sheet width - x - w) for long-edge duplex.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from pipeline.cards.components import Component
from pipeline.cards.formats import Format, Sheet
from pipeline.diagnostics import RelicError, Span, error

MARK_GAP = 1.0  # mm between the bleed edge and a crop mark
LAYOUT_VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # kept layouts' key


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def x2(self) -> float:
        return self.x + self.w

    @property
    def y2(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class Placement:
    """One face drawn on a sheet: `box` is the bleed box on the sheet, `trim` the cut line."""

    component: str  # Component.name, e.g. "zombie-3"
    face: str  # Face.key
    box: Rect
    trim: Rect
    rotate: int  # 0, 90 or 270 degrees counter-clockwise


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class SheetPage:
    side: str  # "front" or "back"
    number: int  # 1-based sheet number within the format
    placements: tuple[Placement, ...]
    marks: tuple[Line, ...]


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    rotated: bool
    cell_w: float  # bleed box size on the sheet (after rotation)
    cell_h: float
    x0: float  # lower-left of the grid
    y0: float
    gutter: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def cell(self, index: int) -> Rect:
        """Cells fill rows from the top-left, like reading a page."""
        col, row = index % self.cols, index // self.cols
        x = self.x0 + col * (self.cell_w + self.gutter)
        y = self.y0 + (self.rows - 1 - row) * (self.cell_h + self.gutter)
        return Rect(round(x, 4), round(y, 4), self.cell_w, self.cell_h)


@dataclass(frozen=True)
class Layout:
    format: Format
    sheet: Sheet
    grid: Grid
    duplex: bool
    pages: tuple[SheetPage, ...]


def _fit(usable: float, cell: float, gutter: float) -> int:
    return max(0, int((usable + gutter + 1e-6) // (cell + gutter)))


def choose_grid(fmt: Format, sheet: Sheet) -> Grid:
    """The grid that holds the most components (upright wins a tie), centred on the sheet."""
    usable_w = sheet.width - 2 * sheet.margin
    usable_h = sheet.height - 2 * sheet.margin
    best: Grid | None = None
    for rotated in (False, True):
        w, h = (fmt.bleed_height, fmt.bleed_width) if rotated else (fmt.bleed_width,
                                                                     fmt.bleed_height)
        cols, rows = _fit(usable_w, w, sheet.gutter), _fit(usable_h, h, sheet.gutter)
        if cols * rows == 0 or (best and cols * rows <= best.per_sheet):
            continue
        grid_w = cols * w + (cols - 1) * sheet.gutter
        grid_h = rows * h + (rows - 1) * sheet.gutter
        best = Grid(cols, rows, rotated, w, h, round((sheet.width - grid_w) / 2, 4),
                    round((sheet.height - grid_h) / 2, 4), sheet.gutter)
    if best is None:
        raise RelicError([error(
            "format-too-large",
            f"format {fmt.name} ({fmt.bleed_width:g}x{fmt.bleed_height:g} mm with bleed) does "
            f"not fit on {sheet.name} paper inside its {sheet.margin:g} mm margin",
            Span("templates/print/sheets.yaml"),
        )])
    return best


def _trim(box: Rect, fmt: Format) -> Rect:
    b = fmt.bleed
    return Rect(round(box.x + b, 4), round(box.y + b, 4), round(box.w - 2 * b, 4),
                round(box.h - 2 * b, 4))


def mirror(box: Rect, sheet: Sheet) -> Rect:
    """The position behind `box` when the sheet is turned over its long (vertical) edge."""
    return Rect(round(sheet.width - box.x - box.w, 4), box.y, box.w, box.h)


@cache
def crop_marks(grid: Grid, fmt: Format, sheet: Sheet, used: int | None = None
               ) -> tuple[Line, ...]:
    """Crop marks in the margin around the grid, plus thin cut guides in the gutters, for the
    first `used` cells (a last sheet that is not full gets marks for its components only).

    Every line lies outside every trim box: marks start MARK_GAP beyond the bleed edge of the
    grid, and gutter guides stop MARK_GAP short of the neighbouring trims.
    """
    lines: list[Line] = []
    cells = [grid.cell(i) for i in range(grid.per_sheet if used is None else used)]
    trims = [_trim(c, fmt) for c in cells]
    xs = sorted({t.x for t in trims} | {t.x2 for t in trims})
    ys = sorted({t.y for t in trims} | {t.y2 for t in trims})
    left, right = min(c.x for c in cells), max(c.x2 for c in cells)
    bottom, top = min(c.y for c in cells), max(c.y2 for c in cells)
    reach_x = min(sheet.mark_length, left - sheet.margin - MARK_GAP)
    reach_y = min(sheet.mark_length, bottom - sheet.margin - MARK_GAP)
    if reach_y > 0.5:
        for x in xs:
            lines.append(Line(x, top + MARK_GAP, x, top + MARK_GAP + reach_y))
            lines.append(Line(x, bottom - MARK_GAP - reach_y, x, bottom - MARK_GAP))
    if reach_x > 0.5:
        for y in ys:
            lines.append(Line(left - MARK_GAP - reach_x, y, left - MARK_GAP, y))
            lines.append(Line(right + MARK_GAP, y, right + MARK_GAP + reach_x, y))
    # gutter guides: continue each cut line through the space between neighbouring trims (a
    # gutter is the bleed of both sides plus the sheet's gutter: never an empty slot)
    gutter = 2 * fmt.bleed + grid.gutter + 0.01
    boxes = [(t.x, t.y, t.x2, t.y2) for t in trims]
    for x in xs:
        column = [(y1, y2) for x1, y1, x2, y2 in boxes if x1 <= x <= x2]
        for a, b in pairwise(ys):
            if 2 * MARK_GAP < b - a <= gutter and _gap(a, b, column):
                lines.append(Line(x, a + MARK_GAP, x, b - MARK_GAP))
    for y in ys:
        row = [(x1, x2) for x1, y1, x2, y2 in boxes if y1 <= y <= y2]
        for a, b in pairwise(xs):
            if 2 * MARK_GAP < b - a <= gutter and _gap(a, b, row):
                lines.append(Line(a + MARK_GAP, y, b - MARK_GAP, y))
    return tuple(Line(*(round(v, 4) for v in (ln.x1, ln.y1, ln.x2, ln.y2))) for ln in lines)


def _gap(a: float, b: float, spans: list[tuple[float, float]]) -> bool:
    """True when the cut line between a and b crosses none of the trim boxes that the line's
    column (or row) passes through, given as their spans along the line."""
    mid = (a + b) / 2
    return not any(lo < mid < hi for lo, hi in spans)


@cache
def _turned(marks: tuple[Line, ...], width: float) -> tuple[Line, ...]:
    """The marks of a sheet as they lie when the sheet is turned over its long edge."""
    return tuple(Line(round(width - ln.x1, 4), ln.y1, round(width - ln.x2, 4), ln.y2)
                 for ln in marks)


def layout(components: tuple[Component, ...], fmt: Format, sheet: Sheet, duplex: bool) -> Layout:
    """Sheets for one format: fronts, and (if any component has a back) mirrored backs.

    duplex=True interleaves front and back sheets (front 1, back 1, front 2, ...);
    duplex=False puts all front sheets first, then all back sheets (same mirrored positions,
    so a printed back sheet can be glued behind its front sheet).
    """
    grid = choose_grid(fmt, sheet)
    full = crop_marks(grid, fmt, sheet)
    has_backs = any(c.back for c in components)
    fronts: list[SheetPage] = []
    backs: list[SheetPage] = []
    rot = 90 if grid.rotated else 0
    for start in range(0, len(components), grid.per_sheet):
        chunk = components[start:start + grid.per_sheet]
        number = start // grid.per_sheet + 1
        marks = full if len(chunk) == grid.per_sheet else crop_marks(grid, fmt, sheet, len(chunk))
        front, back = [], []
        for i, comp in enumerate(chunk):
            box = grid.cell(i)
            front.append(Placement(comp.name, comp.front, box, _trim(box, fmt), rot))
            if comp.back:
                mbox = mirror(box, sheet)
                back.append(Placement(comp.name, comp.back, mbox, _trim(mbox, fmt),
                                      (360 - rot) % 360))
        fronts.append(SheetPage("front", number, tuple(front), marks))
        if has_backs:  # behind the fronts: the marks turn over with the sheet
            backs.append(SheetPage("back", number, tuple(back), _turned(marks, sheet.width)))
    if duplex and has_backs:
        pages = tuple(p for pair in zip(fronts, backs, strict=True) for p in pair)
    else:
        pages = tuple(fronts) + tuple(backs)
    return Layout(fmt, sheet, grid, duplex, pages)
