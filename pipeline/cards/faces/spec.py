"""Layouts: YAML files checked by schemas/print/layout.json, loaded into frozen dataclasses.

A layout lives in `templates/layouts/<name>.yaml` (backs in `templates/layouts/backs/`); a pack
may add or replace one in `content/<pack>/print/layouts/`. Lengths become points (or fractions
of the parent box for percentages); everything else stays as the layout wrote it, and templates
and expressions are compiled when a face first uses them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.cards.formats import (  # the checked copies' home
    ENTRIES,
    VALIDATED,
    _load_yaml_cached,
    checked_copy,
    read_checked,
    write_checked,
)
from pipeline.cards.units import PT_PER_MM
from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative

PROJECT_ROOT = Path(__file__).resolve().parents[3]
LAYOUTS = PROJECT_ROOT / "templates" / "layouts"
PT_PER_UNIT = {"pt": 1.0, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0}
_LENGTH = re.compile(r"^(-?[0-9]+(?:\.[0-9]+)?)(mm|cm|in|pt|%)$")


@dataclass(frozen=True)
class Dim:
    """A length in points, or a fraction of the parent box (`pct`)."""

    value: float
    pct: bool = False

    def of(self, total: float) -> float:
        return self.value * total if self.pct else self.value


def dim(raw: Any) -> Dim | None:
    if raw is None:
        return None
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return Dim(float(raw) * PT_PER_MM)
    match = _LENGTH.match(str(raw).strip())
    if not match:
        raise ValueError(f"not a length: {raw!r}")
    if match[2] == "%":
        return Dim(float(match[1]) / 100, pct=True)
    return Dim(round(float(match[1]) * PT_PER_UNIT[match[2]], 6))


def pt(raw: Any, default: float | None = None) -> float | None:
    d = dim(raw)
    return default if d is None else d.value


@dataclass(frozen=True)
class BoxSpec:
    x: Dim | None = None
    y: Dim | None = None
    w: Dim | None = None
    h: Dim | None = None
    right: Dim | None = None
    bottom: Dim | None = None
    inset: Dim | None = None


@dataclass(frozen=True)
class Element:
    """What every element has; `type` names its class."""

    type: str
    key: str  # `id`, else its place in the layout ("3", "3.1")
    box: BoxSpec = field(default_factory=BoxSpec)
    when: Any = None
    proof: str | None = None
    size: Dim | str | None = None  # in a stack: a length or "auto"
    grow: float = 0.0


@dataclass(frozen=True)
class Shape(Element):
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3 * PT_PER_MM
    dash: tuple[float, ...] = ()
    bleed: bool = False
    radius: float = 0.0
    points: tuple[tuple[Dim, Dim], ...] = ()
    closed: bool = False


@dataclass(frozen=True)
class Para:
    text: str | None = None
    label: str | None = None
    when: Any = None
    over: Any = None
    as_: str = "item"
    scale: float = 1.0
    divider: bool = False
    label_color: str | None = None
    bold: bool | None = None
    color: str | None = None
    align: str | None = None
    upper: bool | None = None
    tracking: float | None = None


@dataclass(frozen=True)
class TextStyle:
    font: str = "body"
    bold: bool = False
    color: str = "ink"
    align: str = "left"
    upper: bool = False
    tracking: float = 0.0


@dataclass(frozen=True)
class Text(Element):
    paragraphs: tuple[Para, ...] = ()
    style: TextStyle = field(default_factory=TextStyle)
    font_size: float = 9.0
    min_size: float | None = None
    fit: str = "none"
    floor: float | None = None
    leading: float = 1.2
    gap: float | None = None
    valign: str = "top"
    hyphenate: bool = False
    max_lines: int | None = None
    icon_scale: float = 1.15


@dataclass(frozen=True)
class Icon(Element):
    name: str = ""
    tint: str | None = None


@dataclass(frozen=True)
class Image(Element):
    src: str = ""
    fit: str = "contain"


@dataclass(frozen=True)
class StatItem:
    icon: str | None = None
    value: str | None = None
    label: str | None = None
    when: Any = None


@dataclass(frozen=True)
class Stats(Element):
    items: tuple[StatItem, ...] = ()
    over: Any = None
    as_: str = "item"
    icon: str | None = None
    value: str | None = None
    label: str | None = None
    direction: str = "row"
    arrange: str = "icon-left"
    chip: str = "rounded"
    fill: str | None = None
    stroke: str | None = None
    color: str = "ink"
    label_color: str = "muted"
    font_size: float | None = None
    font: str = "title"


@dataclass(frozen=True)
class Column:
    text: str
    header: str | None = None
    width: float = 1.0
    align: str = "left"
    bold: bool = False


@dataclass(frozen=True)
class Table(Element):
    over: Any = None
    as_: str = "row"
    columns: tuple[Column, ...] = ()
    font_size: float = 8.0
    min_size: float | None = None
    fit: str = "shrink"
    floor: float | None = None
    header_fill: str | None = None
    header_color: str = "ink"
    zebra: str | None = None
    rule: str | None = "rule"
    color: str = "ink"
    wrap: bool = False
    hyphenate: bool = False
    font: str = "body"


@dataclass(frozen=True)
class Track(Element):
    count: Any = None
    over: Any = None
    as_: str = "item"
    number: str | None = None
    label: str | None = None
    start: Any = None
    marks: Any = None
    shape: str = "square"
    box_size: float | None = None
    gap: float = 1.0 * PT_PER_MM
    direction: str = "row"
    cols: int | None = None
    fill: str | None = "paper"
    stroke: str | None = "ink"
    start_fill: str | None = "accent"
    mark_fill: str | None = "accent"
    color: str = "ink"
    font_size: float | None = None


@dataclass(frozen=True)
class GridMark:
    over: Any
    as_: str = "item"
    cell: Any = None
    icon: str | None = None
    text: str | None = None
    fill: str | None = None
    color: str | None = None
    tint: str | None = None
    scale: float = 0.7
    shape: str = "cell"


@dataclass(frozen=True)
class CellStyle:
    fill: str | None = None
    stroke: str | None = None
    icon: str | None = None


@dataclass(frozen=True)
class Grid(Element):
    cols: Any = 1
    rows: Any = 1
    square: bool = True
    map: Any = None
    legend: Mapping[str, CellStyle] = field(default_factory=dict)
    cells: Any = None
    on: str | None = "ink"
    fill: str | None = None
    lines: str | None = "rule"
    line_width: float = 0.15 * PT_PER_MM
    marks: tuple[GridMark, ...] = ()
    edges: Any = None
    edge_fill: str | None = "accent"
    edge_depth: float = 1.2 * PT_PER_MM
    cell_size: float | None = None


@dataclass(frozen=True)
class Repeat(Element):
    over: Any = None
    as_: str = "item"
    step_x: Dim | None = None
    step_y: Dim | None = None
    cols: int | None = None
    cell_w: Dim | None = None
    cell_h: Dim | None = None
    direction: str = "row"
    elements: tuple[Element, ...] = ()


@dataclass(frozen=True)
class Group(Element):
    elements: tuple[Element, ...] = ()
    rotate: int = 0
    mirror: bool = False
    clip: str | None = None


@dataclass(frozen=True)
class Stack(Element):
    direction: str = "column"
    gap: float = 0.0
    elements: tuple[Element, ...] = ()


@dataclass(frozen=True)
class Drawer(Element):
    name: str = ""
    args: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Layout:
    name: str
    path: str  # for diagnostics
    source: str  # the file's text (its characters join the build's charset)
    elements: tuple[Element, ...]
    size_group: str | None = None
    theme: str | None = None
    themes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    colors: Mapping[str, str] = field(default_factory=dict)
    let: Mapping[str, Any] = field(default_factory=dict)


DEFAULT_COLORS = {
    "ink": "#1d1a16", "muted": "#5b4a32", "paper": "#f4ecd8", "rule": "#a08f6c",
    "accent": "#c9a95a", "band": "#4a3b2c", "white": "#ffffff", "black": "#000000",
    "panel": "#e9dcc0",
}


# ----- reading -----------------------------------------------------------------------------


def _box(raw: Mapping[str, Any] | None) -> BoxSpec:
    raw = raw or {}
    return BoxSpec(**{k: dim(raw.get(k)) for k in ("x", "y", "w", "h", "right", "bottom", "inset")})


def _size(raw: Any) -> Dim | str | None:
    if raw is None or raw == "auto":
        return raw
    return dim(raw)


def _style(raw: Mapping[str, Any], base: TextStyle | None = None) -> TextStyle:
    base = base or TextStyle()
    return TextStyle(font=raw.get("font", base.font), bold=raw.get("bold", base.bold),
                     color=raw.get("color", base.color), align=raw.get("align", base.align),
                     upper=raw.get("upper", base.upper),
                     tracking=float(raw.get("tracking", base.tracking)))


def _para(raw: Mapping[str, Any]) -> Para:
    return Para(text=raw.get("text"), label=raw.get("label"), when=raw.get("when"),
                over=raw.get("over"), as_=raw.get("as", "item"),
                scale=float(raw.get("scale", 1.0)), divider=bool(raw.get("divider", False)),
                label_color=raw.get("label_color"), bold=raw.get("bold"),
                color=raw.get("color"), align=raw.get("align"), upper=raw.get("upper"),
                tracking=raw.get("tracking"))


def _common(raw: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {"type": raw["type"], "key": raw.get("id", key), "box": _box(raw.get("box")),
            "when": raw.get("when"), "proof": raw.get("proof"), "size": _size(raw.get("size")),
            "grow": float(raw.get("grow", 0))}


def _pick(raw: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {n: raw[n] for n in names if n in raw}


def _element(raw: Mapping[str, Any], key: str) -> Element:
    kind = raw["type"]
    c = _common(raw, key)
    if kind in ("rect", "ellipse", "path"):
        return Shape(**c, **_pick(raw, ("fill", "stroke", "bleed", "closed")),
                     stroke_width=pt(raw.get("stroke_width"), 0.3 * PT_PER_MM),
                     dash=tuple(float(v) for v in raw.get("dash", ())),
                     radius=pt(raw.get("radius"), 0.0),
                     points=tuple((dim(x), dim(y)) for x, y in raw.get("points", ())))
    if kind == "text":
        paras = tuple(_para(p) for p in raw.get("paragraphs", ()))
        if "text" in raw:
            paras = (Para(text=raw["text"]), *paras)
        return Text(**c, paragraphs=paras, style=_style(raw),
                    font_size=pt(raw.get("font_size"), 9.0),
                    min_size=pt(raw.get("min_size")), fit=raw.get("fit", "none"),
                    floor=pt(raw.get("floor")), leading=float(raw.get("leading", 1.2)),
                    gap=pt(raw.get("gap")), valign=raw.get("valign", "top"),
                    hyphenate=bool(raw.get("hyphenate", False)),
                    max_lines=raw.get("max_lines"),
                    icon_scale=float(raw.get("icon_scale", 1.15)))
    if kind == "icon":
        return Icon(**c, name=raw["name"], tint=raw.get("tint"))
    if kind == "image":
        return Image(**c, src=raw["src"], fit=raw.get("fit", "contain"))
    if kind == "stats":
        items = tuple(StatItem(**_pick(i, ("icon", "value", "label", "when")))
                      for i in raw.get("items", ()))
        return Stats(**c, items=items, as_=raw.get("as", "item"),
                     font_size=pt(raw.get("font_size")),
                     **_pick(raw, ("over", "icon", "value", "label", "direction", "arrange",
                                   "chip", "fill", "stroke", "color", "label_color", "font")))
    if kind == "table":
        cols = tuple(Column(text=col["text"], header=col.get("header"),
                            width=float(col.get("width", 1.0)), align=col.get("align", "left"),
                            bold=bool(col.get("bold", False))) for col in raw["columns"])
        return Table(**c, over=raw["over"], as_=raw.get("as", "row"), columns=cols,
                     font_size=pt(raw.get("font_size"), 8.0), min_size=pt(raw.get("min_size")),
                     floor=pt(raw.get("floor")),
                     **_pick(raw, ("fit", "header_fill", "header_color", "zebra", "rule",
                                   "color", "wrap", "hyphenate", "font")))
    if kind == "track":
        return Track(**c, as_=raw.get("as", "item"), box_size=pt(raw.get("box_size")),
                     gap=pt(raw.get("gap"), 1.0 * PT_PER_MM), font_size=pt(raw.get("font_size")),
                     **_pick(raw, ("count", "over", "number", "label", "start", "marks", "shape",
                                   "direction", "cols", "fill", "stroke", "start_fill",
                                   "mark_fill", "color")))
    if kind == "grid":
        legend = {ch: CellStyle(**_pick(st, ("fill", "stroke", "icon")))
                  for ch, st in (raw.get("legend") or {}).items()}
        marks = tuple(GridMark(over=m["over"], as_=m.get("as", "item"),
                               scale=float(m.get("scale", 0.7)),
                               **_pick(m, ("cell", "icon", "text", "fill", "color", "tint",
                                           "shape")))
                      for m in raw.get("marks", ()))
        return Grid(**c, legend=legend, marks=marks,
                    line_width=pt(raw.get("line_width"), 0.15 * PT_PER_MM),
                    edge_depth=pt(raw.get("edge_depth"), 1.2 * PT_PER_MM),
                    cell_size=pt(raw.get("cell_size")),
                    **_pick(raw, ("cols", "rows", "square", "map", "cells", "on", "fill",
                                  "lines", "edges", "edge_fill")))
    if kind == "repeat":
        step, cell = raw.get("step") or {}, raw.get("cell") or {}
        return Repeat(**c, over=raw["over"], as_=raw.get("as", "item"),
                      step_x=dim(step.get("x")), step_y=dim(step.get("y")), cols=raw.get("cols"),
                      cell_w=dim(cell.get("w")), cell_h=dim(cell.get("h")),
                      direction=raw.get("direction", "row"),
                      elements=_elements(raw["elements"], f"{c['key']}."))
    if kind == "group":
        return Group(**c, elements=_elements(raw["elements"], f"{c['key']}."),
                     rotate=int(raw.get("rotate", 0)), mirror=bool(raw.get("mirror", False)),
                     clip=raw.get("clip"))
    if kind == "stack":
        return Stack(**c, direction=raw.get("direction", "column"),
                     gap=pt(raw.get("gap"), 0.0),
                     elements=_elements(raw["elements"], f"{c['key']}."))
    if kind == "drawer":
        return Drawer(**c, name=raw["name"], args=dict(raw.get("args") or {}))
    raise ValueError(f"unknown element type {kind!r}")


def _elements(raw: list, prefix: str = "") -> tuple[Element, ...]:
    return tuple(_element(item, f"{prefix}{i}") for i, item in enumerate(raw))


def search_path(pack_root: Path | None) -> tuple[Path, ...]:
    """Where layouts are looked up, first match wins: the pack's, then the project's."""
    roots = []
    if pack_root is not None:
        roots.append(pack_root / "print" / "layouts")
    roots.append(LAYOUTS)
    return tuple(roots)


def find(name: str, pack_root: Path | None) -> Path | None:
    for root in search_path(pack_root):
        path = root / f"{name}.yaml"
        if path.is_file():
            return path
    return None


def load_layout(name: str, pack_root: Path | None) -> Layout:
    """The layout `name` (e.g. `monster` or `backs/deck`); RelicError when it is missing or bad."""
    path = find(name, pack_root)
    if path is None:
        where = ", ".join(relative(r) for r in search_path(pack_root))
        raise RelicError([error("unknown-template", f"no layout {name}.yaml in {where}",
                                Span(relative(search_path(pack_root)[-1])))])
    stat = path.stat()
    return _load(path, name, stat.st_mtime_ns, stat.st_size)


def layout_source(name: str, pack_root: Path | None) -> str:
    """The text of the layout `name`, checked: read alone when the cache keeps its checked
    copy (a build's charset needs every layout's text, not every layout), else loaded (a bad
    layout is an error here too: `load_layout`)."""
    path = find(name, pack_root)
    if path is not None:
        text = path.read_text(encoding="utf-8")
        entry = checked_copy("layouts", "ordered", "layout", text.encode())
        if entry is not None and entry.is_file():
            ENTRIES.add(entry)  # (in use: kept by the cache's pruning)
            return text
    return load_layout(name, pack_root).source


def remember_checked_layouts(folder: Path) -> None:
    """Keep checked layouts in `folder`: a later process reads them without YAML and schema."""
    VALIDATED["dir"] = folder


@cache
def _load(path: Path, name: str, mtime: int, size: int) -> Layout:
    text = path.read_text(encoding="utf-8")
    # "ordered": entries are stored in the file's key order (older entries had sorted keys)
    entry = checked_copy("layouts", "ordered", "layout", text.encode())
    data = read_checked(entry)
    if data is None:
        data, problems = _load_yaml_cached(path, "layout", mtime, size, False)
        problems = list(problems)
        if not problems:
            problems += _syntax(data, relative(path))
        if problems:
            raise RelicError(problems)
        write_checked(entry, data)  # in the written key order: a `let` may read the ones above
    return Layout(
        name=name, path=relative(path), source=text,
        elements=_elements(data["elements"]), size_group=data.get("size_group"),
        theme=data.get("theme"), themes=dict(data.get("themes") or {}),
        colors={**DEFAULT_COLORS, **(data.get("colors") or {})}, let=dict(data.get("let") or {}))


TEMPLATE_KEYS = {"text", "label", "name", "src", "icon", "value", "number", "header", "proof",
                 "size_group", "theme"}
EXPRESSION_KEYS = {"when", "over", "count", "start", "marks", "cols", "rows", "map", "cells",
                   "edges", "cell"}


def _syntax(data: Any, display: str, path: str = "") -> list[Diagnostic]:
    """Every template and expression of a layout compiles (checked once, when it is read)."""
    from pipeline.cards.faces.expr import check_syntax

    out: list[Diagnostic] = []
    if isinstance(data, Mapping):
        for key, value in data.items():
            where = f"{path}.{key}" if path else str(key)
            if key in ("themes", "colors", "legend") and isinstance(value, Mapping):
                if key == "legend":
                    for ch, style in value.items():
                        out += _syntax(style, display, f"{where}.{ch}")
                continue
            if key == "let" and isinstance(value, Mapping):
                for name, src in value.items():
                    why = check_syntax(src, expression=True)
                    if why:
                        out.append(error("layout-syntax", f"let.{name}: {why}", Span(display)))
                continue
            if isinstance(value, str) and key in TEMPLATE_KEYS | EXPRESSION_KEYS:
                if key in ("cols", "rows") and path.endswith(("repeat", "track")):
                    continue
                why = check_syntax(value, expression=key in EXPRESSION_KEYS)
                if why:
                    out.append(error("layout-syntax", f"{where}: {why}", Span(display)))
            elif key == "args" and isinstance(value, Mapping):
                for arg, src in value.items():
                    why = check_syntax(src, expression=False)
                    if why:
                        out.append(error("layout-syntax", f"{where}.{arg}: {why}",
                                         Span(display)))
            else:
                out += _syntax(value, display, where)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            out += _syntax(item, display, f"{path}.{i}")
    return out
