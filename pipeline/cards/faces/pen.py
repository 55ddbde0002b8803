"""The pen: reportlab in a face's frame (points from the trim's top-left corner, y downwards),
colours resolved from a layout's palette, and boxes placed in their parent."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from reportlab.lib.colors import HexColor

from pipeline.cards.faces import spec as S
from pipeline.cards.faces.expr import BindError, Scope
from pipeline.cards.faces.icons import form_name
from pipeline.cards.faces.text import (
    FontSet,
    Line,
    Para,
    Setting,
    ascent_descent,
    line_pieces,
    word_width,
)
from pipeline.cards.units import PT_PER_MM


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass
class FaceSpec:
    """What drawing one face needs besides its layout (plain data, built per face)."""

    width: float  # trim, points
    height: float
    bleed: float
    round: bool
    fonts: FontSet
    lang: str
    min_font: float
    hyphenate: bool  # the format is large enough for hyphenation
    proof: bool
    provisional: Mapping[str, str]
    pack_root: str


@dataclass
class Drawn:
    forms: set[str] = field(default_factory=set)  # icon forms the face uses
    images: dict[str, str] = field(default_factory=dict)  # image form -> file
    fonts: set[str] = field(default_factory=set)


# ----- colours -----------------------------------------------------------------------------


@cache
def hex_color(value: str) -> HexColor:
    return HexColor(value)


class Palette:
    def __init__(self, layout: S.Layout, theme: str | None):
        chosen = layout.themes.get(theme or "", None) if theme else None
        default = layout.themes.get("default", {})
        self.names = {**layout.colors, **default, **(chosen or {})}

    def get(self, name: str | None, scope: Scope) -> HexColor | None:
        if name is None or name == "none":
            return None
        if "{{" in name:
            name = scope.render(name).strip()
            if name in ("", "none"):
                return None
        if name.startswith("#"):
            try:
                return hex_color(name)
            except ValueError as exc:
                raise BindError(f"not a colour: {name!r}") from exc
        if name not in self.names:
            raise BindError(f"unknown colour {name!r} (the layout names "
                            f"{', '.join(sorted(self.names))})")
        return hex_color(self.names[name])


# ----- the pen: reportlab in a y-down frame ------------------------------------------------


class Pen:
    def __init__(self, canvas, spec: FaceSpec, drawn: Drawn):
        self.c = canvas
        self.spec = spec
        self.drawn = drawn

    def begin(self) -> None:
        b = self.spec.bleed
        self.c.saveState()
        self.c.translate(b, self.spec.height + b)
        self.c.scale(1, -1)

    def end(self) -> None:
        self.c.restoreState()

    def _style(self, fill, stroke, width, dash):
        if fill is not None:
            self.c.setFillColor(fill)
        if stroke is not None:
            self.c.setStrokeColor(stroke)
            self.c.setLineWidth(width)
            self.c.setDash(list(dash) if dash else [])
        return int(fill is not None), int(stroke is not None)

    def rect(self, box: Box, fill, stroke=None, width=0.0, dash=(), radius=0.0) -> None:
        f, s = self._style(fill, stroke, width, dash)
        if not (f or s):
            return
        if radius > 0:
            r = min(radius, box.w / 2, box.h / 2)
            self.c.roundRect(box.x, box.y, box.w, box.h, r, stroke=s, fill=f)
        else:
            self.c.rect(box.x, box.y, box.w, box.h, stroke=s, fill=f)

    def ellipse(self, box: Box, fill, stroke=None, width=0.0, dash=()) -> None:
        f, s = self._style(fill, stroke, width, dash)
        if f or s:
            self.c.ellipse(box.x, box.y, box.x + box.w, box.y + box.h, stroke=s, fill=f)

    def poly(self, points: list[tuple[float, float]], closed: bool, fill, stroke=None,
             width=0.0, dash=()) -> None:
        f, s = self._style(fill if closed else None, stroke, width, dash)
        if not (f or s):
            return
        p = self.c.beginPath()
        p.moveTo(*points[0])
        for pt in points[1:]:
            p.lineTo(*pt)
        if closed:
            p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def icon(self, name: str, tint: str | None, x: float, y: float, size: float) -> None:
        form = form_name(name, tint)
        self.drawn.forms.add(form)
        self.c.saveState()
        self.c.translate(x, y + size)
        k = size / 24.0
        self.c.scale(k, -k)
        self.c.doForm(form)
        self.c.restoreState()

    def image(self, path: str, box: Box, fit: str) -> None:
        from reportlab.lib.utils import ImageReader

        data = Path(path).read_bytes()
        name = "img-" + hashlib.sha256(data).hexdigest()[:20]
        self.drawn.images[name] = path
        iw, ih = ImageReader(path).getSize()
        scale = (min if fit == "contain" else max)(box.w / iw, box.h / ih)
        w, h = iw * scale, ih * scale
        x, y = box.x + (box.w - w) / 2, box.y + (box.h - h) / 2
        self.c.saveState()
        if fit == "cover":
            p = self.c.beginPath()
            p.rect(box.x, box.y, box.w, box.h)
            self.c.clipPath(p, stroke=0, fill=0)
        self.c.translate(x, y + h)
        self.c.scale(w, -h)
        self.c.doForm(name)
        self.c.restoreState()

    def text(self, setting: Setting, box: Box, leading: float, gap: float | None,
             valign: str, icon_scale: float, palette: Palette, scope: Scope) -> None:
        """Draw a set text box: one text object, then its inline icons."""
        size = setting.size
        top = box.y
        if valign != "top":
            spare = max(0.0, box.h - setting.height)
            top += spare / 2 if valign == "middle" else spare
        t = self.c.beginText()
        icons: list[tuple[str, float, float, float]] = []
        dividers: list[float] = []
        y = top
        current = (None, None, None, None)
        for i, (para, lines) in enumerate(setting.paras):
            s = size * para.scale
            line_h = leading * s
            if i > 0:
                extra = line_h * 0.3 if para.divider else 0.0
                g = (gap if gap is not None else 0.35 * leading * size) + extra
                if para.divider:
                    dividers.append(y + g / 2)
                y += g
            asc, desc = ascent_descent(para.space_font)
            for line in lines:
                baseline = y + (line_h - (asc - desc) * s) / 2 + asc * s
                x = box.x + _align(para.align, box.w, line.width)
                current = self._line(t, line, para, x, baseline, s, icon_scale, palette, scope,
                                     icons, current)
                y += line_h
        self.c.drawText(t)
        for name, x, y0, sz in icons:
            self.icon(name, None, x, y0, sz)
        if dividers:
            rule = palette.get("rule", scope)
            for yy in dividers:
                self.poly([(box.x + box.w * 0.2, yy), (box.x + box.w * 0.8, yy)], False, None,
                          rule, 0.25 * PT_PER_MM)

    def _line(self, t, line: Line, para: Para, x: float, baseline: float, s: float,
              icon_scale: float, palette: Palette, scope: Scope, icons, current):
        space_w = word_width(((_space_piece(para)),), s, icon_scale, para.tracking)
        run: list[str] = []
        run_x = x
        run_style = None
        cursor = x

        def flush():
            nonlocal run, run_style, current
            if run:
                font, colour = run_style
                if current[0] != font or current[1] != s:
                    t.setFont(font, s)
                if current[2] != colour:
                    t.setFillColor(palette.get(colour, scope))
                if current[3] != para.tracking:  # Tc lasts beyond the text object: set it
                    t.setCharSpace(para.tracking)
                t.setTextTransform(1, 0, 0, -1, run_x, baseline)
                t.textOut("".join(run))
                self.drawn.fonts.add(font)
                current = (font, s, colour, para.tracking)
            run = []

        pieces = list(line_pieces(line, para))
        for n, (piece, spaced) in enumerate(pieces):
            if spaced:
                if run:
                    run.append(" ")
                cursor += space_w
            if piece.icon:
                flush()
                size = icon_scale * s
                cursor += 0.06 * s
                icons.append((piece.icon, cursor, baseline - size + 0.2 * s, size))
                cursor += size + 0.06 * s
                continue
            style = (piece.font, piece.color or para.color)
            if run and style != run_style:
                flush()
            if not run:
                run_x = cursor
                run_style = style
            run.append(piece.text)
            if line.hyphen and n == len(pieces) - 1:
                run.append("-")
            cursor += word_width(((piece),), s, icon_scale, para.tracking)
        flush()
        return current

    def clip(self, box: Box, shape: str) -> None:
        p = self.c.beginPath()
        if shape == "ellipse":
            p.ellipse(box.x, box.y, box.w, box.h)
        else:
            p.rect(box.x, box.y, box.w, box.h)
        self.c.clipPath(p, stroke=0, fill=0)


def _space_piece(para: Para):
    from pipeline.cards.faces.text import Piece

    return Piece(" ", para.space_font)


def _align(align: str, width: float, used: float) -> float:
    if align == "center":
        return (width - used) / 2
    if align == "right":
        return width - used
    return 0.0


# ----- boxes -------------------------------------------------------------------------------


def _axis(start: S.Dim | None, size: S.Dim | None, end: S.Dim | None,
          total: float) -> tuple[float, float]:
    s = start.of(total) if start else None
    z = size.of(total) if size else None
    e = end.of(total) if end else None
    if z is None:
        return (s or 0.0), total - (s or 0.0) - (e or 0.0)
    if s is None:
        s = total - e - z if e is not None else (total - z) / 2
    return s, z


def place(spec: S.BoxSpec, parent: Box) -> Box:
    x, w = _axis(spec.x, spec.w, spec.right, parent.w)
    y, h = _axis(spec.y, spec.h, spec.bottom, parent.h)
    box = Box(parent.x + x, parent.y + y, w, h)
    if spec.inset:
        i = spec.inset.of(min(parent.w, parent.h))
        box = Box(box.x + i, box.y + i, box.w - 2 * i, box.h - 2 * i)
    return box
