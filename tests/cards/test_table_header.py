"""A table's header is set in its `header_color` (the words' own colour used to win)."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.cards.faces import draw, face_spec, load_layout, scope_for
from pipeline.cards.formats import DEFAULT_FONTS, Format
from pipeline.cards.render import recorder

LAYOUT = """\
description: A table with a coloured header.
colors: {head: "#4a2d5a", light: "#f6eddb", ink: "#1f1b16"}
elements:
  - type: table
    over: entity.rows
    as: row
    font_size: 9pt
    header_fill: head
    header_color: light
    color: ink
    columns:
      - {header: Qq, text: "{{ row }}"}
"""


def _text_colours(code: str) -> list[str]:
    """The fill colour of each text object, in drawing order (glyphs are subset codes)."""
    out = []
    for body in re.findall(r"BT (.*?) ET", code, flags=re.S):
        r, g, b = re.findall(r"([0-9.]+) ([0-9.]+) ([0-9.]+) rg", body)[-1]
        out.append("#" + "".join(f"{round(float(c) * 255):02x}" for c in (r, g, b)))
    return out


def test_the_header_is_set_in_its_colour_and_the_rows_in_theirs(tmp_path: Path) -> None:
    (tmp_path / "print" / "layouts").mkdir(parents=True)
    (tmp_path / "print" / "layouts" / "coloured-table.yaml").write_text(LAYOUT, "utf-8")
    layout = load_layout("coloured-table", tmp_path)
    fmt = Format("card", "Card", 60, 40, 3)
    context = {"entity": {"rows": ["Zz"]}}
    spec = face_spec(context, fmt, DEFAULT_FONTS, 7.0, "en", str(tmp_path))
    canvas = recorder(tuple(sorted(DEFAULT_FONTS.items())), "QqZz")
    art, problems = draw(layout, spec, scope_for(context, fmt), {}, canvas)
    assert problems == []
    assert _text_colours(art.code) == ["#f6eddb", "#1f1b16"]  # the header, then the row
