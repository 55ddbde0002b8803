"""Faces drawn from layouts: measure every face, choose one type size per deck, draw.

    Face (context JSON) + Layout (YAML)  -> Scope and FaceSpec      bind
          -> Measured (best size of every fitted box, problems)      measure
    all Measured of a build               -> sizes per face          choose_sizes
          -> Art (the face's PDF operators and what they use)        draw

`relic check` runs the first two steps only (no drawing, no files); `relic build` runs all and
caches Measured and Art by content hash, so after a one-card edit only that card is measured and
drawn again (and the cards of its deck, if the deck's size changed).

Modules: `spec` (layouts read and checked into dataclasses), `expr` (Jinja bindings and the
field each prints), `text` (fonts, rich text, wrapping, fitting), `icons` (SVG icons as forms),
`pen` (reportlab in the face's frame, colours, boxes), `walk` (one walk over a layout that
measures or draws every element).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline.cards.faces.expr import BindError, Scope
from pipeline.cards.faces.pen import Drawn, FaceSpec, Pen
from pipeline.cards.faces.spec import Layout, load_layout
from pipeline.cards.faces.text import font_set
from pipeline.cards.faces.walk import Measured, Problem, Walker
from pipeline.cards.units import PT_PER_MM

__all__ = ["Art", "FaceSpec", "Layout", "Measured", "Problem", "choose_sizes", "draw",
           "face_spec", "load_layout", "measure", "scope_for"]

HYPHENATE_MIN_MM = 40.0  # components narrower than this (tokens, titles) are never hyphenated


def scope_for(context: Mapping[str, Any], fmt) -> Scope:
    """The variables a layout sees: the face's context plus `ref`, `format`."""
    refs = context.get("refs") or {}

    def ref(entity_id: Any) -> Any:
        return refs.get(entity_id, {"id": entity_id, "name": entity_id})

    values = dict(context)
    values.setdefault("entity", {})
    values.setdefault("group", None)
    values["ref"] = ref
    values["format"] = {"name": fmt.name, "width": fmt.width, "height": fmt.height,
                        "bleed": fmt.bleed, "shape": fmt.shape}
    return Scope(values, {"entity": ""})


def face_spec(context: Mapping[str, Any], fmt, fonts: Mapping[str, str], min_font: float,
              lang: str, pack_root: str) -> FaceSpec:
    entity = context.get("entity") or {}
    return FaceSpec(
        width=fmt.width * PT_PER_MM, height=fmt.height * PT_PER_MM, bleed=fmt.bleed * PT_PER_MM,
        round=fmt.shape == "round", fonts=font_set(tuple(sorted(fonts.items()))), lang=lang,
        min_font=min_font,
        hyphenate=fmt.shape != "round" and min(fmt.width, fmt.height) >= HYPHENATE_MIN_MM,
        proof=bool(context.get("proof")), provisional=dict(entity.get("provisional") or {}),
        pack_root=pack_root)


@dataclass
class FaceMeasure:
    """A face's measurement, as cached: its size group and its fitted boxes' best sizes."""

    group: str
    best: dict[str, float | None] = field(default_factory=dict)
    fits: dict[str, str] = field(default_factory=dict)
    floors: dict[str, float] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "best": self.best, "fits": self.fits,
                "floors": self.floors,
                "problems": [[p.code, p.message, p.field] for p in self.problems]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FaceMeasure:
        return cls(d["group"], dict(d["best"]), dict(d["fits"]), dict(d["floors"]),
                   [Problem(*p) for p in d["problems"]])


def measure(layout: Layout, spec: FaceSpec, scope: Scope, fmt_name: str) -> FaceMeasure:
    """Every text box of the face set at its sizes; nothing drawn."""
    try:
        group = scope.render(layout.size_group) if layout.size_group else ""
    except BindError as exc:
        return FaceMeasure("", problems=[Problem("template-error",
                                                 f"layout {layout.name}: {exc}")])
    m: Measured = Walker(layout, spec, scope, drawers=drawers()).run()
    return FaceMeasure(f"{layout.name}\0{fmt_name}\0{group}", m.best, m.fits, m.floors,
                       m.problems)


def choose_sizes(measures: Mapping[str, FaceMeasure]) -> dict[str, dict[str, float]]:
    """The size each fitted box of each face is set at.

    `deck` boxes: one size for the whole size group, the largest at which every face fits;
    faces that cannot fit the box's `floor` do not pull the group below it: they go smaller
    alone.
    `shrink` boxes: each face's own best size."""
    groups: dict[tuple[str, str], list[float]] = {}
    floors: dict[tuple[str, str], float] = {}
    for m in measures.values():
        for key, best in m.best.items():
            if best is not None and m.fits.get(key) == "deck":
                groups.setdefault((m.group, key), []).append(best)
                if key in m.floors:
                    floors[(m.group, key)] = m.floors[key]
    deck: dict[tuple[str, str], float] = {}
    for gk, bests in groups.items():
        floor = floors.get(gk)
        # the faces that fit at the floor or larger decide; the others go smaller alone
        deciding = [b for b in bests if floor is None or b >= floor] or bests
        deck[gk] = min(deciding)
    out: dict[str, dict[str, float]] = {}
    for face_key, m in measures.items():
        sizes = {}
        for key, best in m.best.items():
            if best is None:
                continue
            chosen = deck.get((m.group, key), best)
            sizes[key] = min(best, chosen)
        out[face_key] = sizes
    return out


@dataclass(frozen=True)
class Art:
    """A drawn face: its PDF content stream (y up, bleed box from 0,0) and what it uses."""

    width: float  # bleed box, points
    height: float
    code: str
    forms: tuple[str, ...]
    images: Mapping[str, str]
    fonts: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"w": self.width, "h": self.height, "code": self.code, "forms": list(self.forms),
                "images": dict(self.images), "fonts": list(self.fonts)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Art:
        return cls(d["w"], d["h"], d["code"], tuple(d["forms"]), d["images"], tuple(d["fonts"]))


def draw(layout: Layout, spec: FaceSpec, scope: Scope, sizes: Mapping[str, float],
         canvas) -> tuple[Art, list[Problem]]:
    """The face's operators, recorded on `canvas` (a recorder: see render.Recorder)."""
    canvas._code = []
    canvas._formsinuse = []
    canvas.init_graphics_state()
    drawn = Drawn()
    walker = Walker(layout, spec, scope, sizes, Pen(canvas, spec, drawn), drawers())
    m = walker.run()
    code = "\n".join(canvas._code)
    canvas._code = []
    w, h = spec.width + 2 * spec.bleed, spec.height + 2 * spec.bleed
    art = Art(round(w, 4), round(h, 4), code, tuple(sorted(drawn.forms)),
              dict(sorted(drawn.images.items())), tuple(sorted(drawn.fonts)))
    return art, m.problems


_DRAWERS: dict[str, Any] | None = None


def drawers() -> dict[str, Any]:
    """Named drawers registered by installed packages (entry point group `relic.drawers`)."""
    global _DRAWERS
    if _DRAWERS is None:
        found = {}
        for ep in metadata.entry_points(group="relic.drawers"):
            try:
                found[ep.name] = ep.load()
            except Exception:  # a broken plug-in: its faces report "no drawer"
                continue
        _DRAWERS = found
    return _DRAWERS


def layouts_text(names: Iterable[str], pack_root: Path) -> str:
    """The text of the given layouts and of the shared macros (their characters join the
    charset)."""
    from pipeline.cards.faces.expr import MACROS
    from pipeline.cards.faces.spec import layout_source

    macros = "".join(p.read_text(encoding="utf-8") for p in sorted(MACROS.glob("*.j2")))
    return "".join(layout_source(n, pack_root) for n in sorted(set(names))) + macros


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
