"""The book's page, its tables and its stat blocks' box, in numbers: the stylesheet
(`book.css.j2`) sets them from here, and a block drawn apart (`blocks.py`) is drawn with them,
to the width they leave."""

from __future__ import annotations

PAPERS = {"a5": "148mm 210mm", "a4": "210mm 297mm", "letter": "8.5in 11in"}
WIDTH_MM = {"a5": 148.0, "a4": 210.0, "letter": 215.9}
MARGINS_MM = {"a5": (16.0, 13.0), "a4": (22.0, 25.0), "letter": (22.0, 25.0)}
"""Each paper's page margins: top and bottom, left and right."""
BASE_FONT_PT = {"a5": 9.5, "a4": 10.5, "letter": 10.5}
LINE_EM = 1.35  # the running text's line height, in ems
TABLE_RULE = ("#999999", 0.5)  # the rules of a table's cells: colour, width in points
TABLE_SHADE = "#eee7d8"  # a table's heads
CELL_PADDING_EM = (0.2, 0.35)  # a cell's padding: top and bottom, left and right
BLOCK_EM = 0.88  # a stat block's type size, of the running text's
BLOCK_BORDER_PT = 0.8
BLOCK_PADDING_EM = (0.45, 0.6)  # top and bottom, left and right, in the block's ems
PICTURE_GAP_MM = 3.0  # between a stat block's words and the picture beside them


def block_size_pt(paper: str) -> float:
    """The type size of a stat block's words."""
    return round(BASE_FONT_PT[paper] * BLOCK_EM, 3)


def block_width_mm(paper: str, picture_mm: float | None) -> float:
    """The width a stat block leaves its words: the page's text width less the block's
    border and padding, and less its picture and the gap beside it (`picture_mm`, if any)."""
    padding = BLOCK_PADDING_EM[1] * block_size_pt(paper) / 72 * 25.4
    border = BLOCK_BORDER_PT / 72 * 25.4
    width = WIDTH_MM[paper] - 2 * MARGINS_MM[paper][1] - 2 * (padding + border)
    if picture_mm is not None:
        width -= picture_mm + PICTURE_GAP_MM
    return round(width - 0.01, 2)  # (a hundredth less: a rounded width never overflows)
