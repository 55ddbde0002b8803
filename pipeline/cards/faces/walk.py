"""One face of a layout: measured (for fitting and `relic check`) or drawn with reportlab.

The same walk serves both. Measuring (`pen` is None) evaluates every binding and sets every
text box, recording for each fitted element the largest size at which it fits and reporting
every box that cannot fit at all; nothing is drawn. Drawing takes the sizes chosen for the deck
(`sizes`) and writes the face's PDF operators on a reportlab canvas.

Coordinates: points, origin at the top-left corner of the trim box, y downwards (as a layout
author reads a card). The pen flips the canvas once per face and sets text upright.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.cards.faces import spec as S
from pipeline.cards.faces.expr import BindError, Scope
from pipeline.cards.faces.icons import exists as icon_exists
from pipeline.cards.faces.icons import icon_names
from pipeline.cards.faces.pen import Box, FaceSpec, Palette, Pen, hex_color, place
from pipeline.cards.faces.text import (
    Para,
    Setting,
    UnknownIcon,
    best_size,
    parse,
    set_text,
    upper,
)
from pipeline.cards.units import PT_PER_MM

INF = 1e9


@dataclass
class Problem:
    code: str
    message: str
    field: str | None = None  # the entity field the problem is about (dotted), if known


@dataclass
class Measured:
    best: dict[str, float | None] = field(default_factory=dict)  # fitted element -> size
    fits: dict[str, str] = field(default_factory=dict)  # fitted element -> its fit mode
    floors: dict[str, float] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


# ----- the walk ----------------------------------------------------------------------------


Drawers = Mapping[str, Callable[..., Any]]


class Walker:
    """Walks a layout for one face: measures (pen None) or draws."""

    def __init__(self, layout: S.Layout, face: FaceSpec, scope: Scope,
                 sizes: Mapping[str, float] | None = None, pen: Pen | None = None,
                 drawers: Drawers | None = None):
        self.layout = layout
        self.face = face
        self.pen = pen
        self.sizes = sizes or {}
        self.measured = Measured()
        self.drawers = drawers or {}
        self.depth = 0  # > 0 inside a rotated or mirrored group: no bleed extension
        self.scope = scope
        self.palette = Palette(layout, None)
        self.trim = Box(0, 0, face.width, face.height)
        self._preset: dict[int, Setting] = {}
        self._header_scope = scope

    # -- entry

    def run(self) -> Measured:
        try:
            theme = self.scope.render(self.layout.theme) if self.layout.theme else None
            self.palette = Palette(self.layout, theme)
            let = {}
            scope = self.scope
            for name, src in self.layout.let.items():
                let[name] = scope.eval(src)
                scope = scope.with_values({name: let[name]})
            self.scope = scope
        except BindError as exc:
            self.problem("template-error", f"layout {self.layout.name}: {exc}")
            return self.measured
        if self.pen:
            self.pen.begin()
        self.elements(self.layout.elements, self.trim, self.scope)
        if self.pen:
            self.pen.end()
        return self.measured

    def problem(self, code: str, message: str, field: str | None = None) -> None:
        self.measured.problems.append(Problem(code, message, field))

    def elements(self, elements: tuple[S.Element, ...], box: Box, scope: Scope) -> None:
        for el in elements:
            self.element(el, place(el.box, box), scope)

    def element(self, el: S.Element, box: Box, scope: Scope) -> None:
        try:
            if not scope.truth(el.when):
                return
            handler = getattr(self, f"do_{el.type}")
            handler(el, box, scope)
            if el.proof is not None and self.face.proof and self.pen:
                self.proof_mark(el, box, scope)
        except BindError as exc:
            self.problem("template-error", f"layout {self.layout.name}, element {el.key}: {exc}")
        except UnknownIcon as exc:
            self.problem("unknown-icon", str(exc))

    # -- shapes

    def _bleed(self, el: S.Shape, box: Box) -> Box:
        if not el.bleed or self.depth:
            return box
        b = self.face.bleed
        eps = 0.01
        x, y, x2, y2 = box.x, box.y, box.x + box.w, box.y + box.h
        if abs(x) < eps:
            x -= b
        if abs(y) < eps:
            y -= b
        if abs(x2 - self.trim.w) < eps:
            x2 += b
        if abs(y2 - self.trim.h) < eps:
            y2 += b
        return Box(x, y, x2 - x, y2 - y)

    def _paint(self, el: S.Shape, scope: Scope):
        return (self.palette.get(el.fill, scope), self.palette.get(el.stroke, scope),
                el.stroke_width, el.dash)

    def do_rect(self, el: S.Shape, box: Box, scope: Scope) -> None:
        paint = self._paint(el, scope)
        if self.pen:
            self.pen.rect(self._bleed(el, box), *paint, radius=el.radius)

    def do_ellipse(self, el: S.Shape, box: Box, scope: Scope) -> None:
        paint = self._paint(el, scope)
        if self.pen:
            self.pen.ellipse(self._bleed(el, box), *paint)

    def do_path(self, el: S.Shape, box: Box, scope: Scope) -> None:
        paint = self._paint(el, scope)
        if self.pen:
            pts = [(box.x + x.of(box.w), box.y + y.of(box.h)) for x, y in el.points]
            self.pen.poly(pts, el.closed, *paint)

    # -- icons and images

    def do_icon(self, el: S.Icon, box: Box, scope: Scope) -> None:
        name = scope.render(el.name).strip()
        if not name:
            return
        if not icon_exists(name):
            raise UnknownIcon(f"unknown icon {name!r} (known: {', '.join(sorted(icon_names()))})")
        tint = self.palette.get(el.tint, scope) if el.tint else None
        if self.pen:
            side = min(box.w, box.h)
            self.pen.icon(name, tint.hexval()[2:] if tint else None,
                          box.x + (box.w - side) / 2, box.y + (box.h - side) / 2, side)

    def do_image(self, el: S.Image, box: Box, scope: Scope) -> None:
        from pipeline.checks.assets import ASSETS, problem

        src = scope.render(el.src).strip()
        if not src:
            return
        root = Path(self.face.pack_root)
        why = problem(src, root)
        if why:
            self.problem("unsafe-asset", f"image {src!r} {why}", scope.field(el.src))
            return
        path = next(str((r / src).resolve()) for r in (root, ASSETS) if (r / src).is_file())
        if self.pen:
            self.pen.image(path, box, el.fit)

    # -- text

    def paragraphs(self, el: S.Text, scope: Scope) -> tuple[list[Para], str | None]:
        """The text's paragraphs for this face, and the field of its longest paragraph."""
        fonts = self.face.fonts
        out: list[Para] = []
        longest = (0, None)
        icons = icon_names()
        for p in el.paragraphs:
            if p.over is None:
                if not scope.truth(p.when):
                    continue
                items = [scope]
            else:
                items = [sc for sc in self._loop(p.over, p.as_, scope) if sc.truth(p.when)]
            for sc in items:
                body = sc.render(p.text)
                label = sc.render(p.label)
                if not body.strip() and not label.strip():
                    continue
                bold = el.style.bold if p.bold is None else p.bold
                font = fonts.name(el.style.font, bold)
                make_upper = el.style.upper if p.upper is None else p.upper
                if make_upper:
                    body, label = upper(body), upper(label)
                colour = p.color or el.style.color
                lines = parse(body, font, icons, colour)
                if label.strip():
                    lab = parse(label, fonts.name(el.style.font, True), icons,
                                p.label_color or colour)
                    head = [w for line in lab for w in line]
                    lines[0] = head + lines[0]
                if len(body) > longest[0]:
                    longest = (len(body), sc.field(p.text) or sc.field(p.label))
                tracking = el.style.tracking if p.tracking is None else p.tracking
                for j, words in enumerate(lines):
                    out.append(Para(tuple(words), p.scale, p.align or el.style.align, colour,
                                    p.divider and j == 0, tracking, font, el.icon_scale))
        return out, longest[1]

    def _loop(self, over: Any, name: str, scope: Scope) -> list[Scope]:
        value = scope.eval(over)
        base = scope.field(over, expression=True)
        if value is None or value is False:
            return []
        if isinstance(value, int) and not isinstance(value, bool):
            if value > 10_000:
                raise BindError(f"{over!r} asks for {value} copies (at most 10000)")
            return [scope.child(name, i, i, None) for i in range(value)]
        if isinstance(value, Mapping):
            items = [({"key": k, "value": v}, str(k)) for k, v in value.items()]
        elif isinstance(value, list | tuple):
            items = [(v, str(i)) for i, v in enumerate(value)]
        elif isinstance(value, str):
            items = [(value, None)]
        else:
            try:
                items = [(v, str(i)) for i, v in enumerate(value)]
            except TypeError as exc:
                raise BindError(f"{over!r} is not a list") from exc
        return [scope.child(name, v, i, f"{base}.{sub}" if base is not None and sub is not None
                            else None) for i, (v, sub) in enumerate(items)]

    def _min(self, el) -> float:
        return el.min_size if el.min_size is not None else self.face.min_font

    def text_setting(self, el: S.Text, paras: list[Para], width: float, height: float,
                     field: str | None) -> Setting | None:
        """The text set at the size its fit mode gives (recording the best size when
        measuring); None when it cannot fit (a problem is recorded)."""
        hyph = el.hyphenate and self.face.hyphenate

        def at(size: float, h: float = height) -> Setting:
            return set_text(paras, width, h, size, el.leading, el.gap, el.icon_scale, hyph,
                            self.face.lang, el.max_lines)

        if el.fit == "none":
            setting = at(el.font_size)
            if not setting.fits:
                self._overflow(el, field, el.font_size, setting)
                return None
            return setting
        if self.pen is not None and el.key in self.sizes:
            return at(self.sizes[el.key], height + 0.05)  # the size chosen for the deck
        low = min(self._min(el), el.font_size)
        best, setting = best_size(at, low, el.font_size)
        key = el.key
        if best is None:
            self._overflow(el, field, low, setting)
            self.measured.best[key] = None
            return None
        m = self.measured
        prev = m.best.get(key, INF)
        m.best[key] = None if prev is None else min(best, prev)
        m.fits[key] = el.fit
        if el.floor is not None:
            m.floors[key] = el.floor
        if el.fit == "deck" and key in self.sizes and self.sizes[key] < best:
            return at(self.sizes[key])
        return setting

    def _overflow(self, el, field: str | None, size: float, setting: Setting) -> None:
        what = "a word too long for its box" if setting.too_wide else "text too long for its box"
        where = f"element {el.key} of layout {self.layout.name}"
        self.problem("text-overflow",
                     f"{field or 'text'}: {what} ({where}) even at {size:g} pt", field)

    def do_text(self, el: S.Text, box: Box, scope: Scope) -> None:
        preset = self._preset.pop(id(el), None)
        if preset is not None:
            setting = preset
        else:
            paras, field = self.paragraphs(el, scope)
            if not paras:
                return
            setting = self.text_setting(el, paras, box.w, box.h, field)
        if setting and self.pen:
            self.pen.text(setting, box, el.leading, el.gap, el.valign, el.icon_scale,
                          self.palette, scope)

    def natural_height(self, el: S.Element, width: float, scope: Scope) -> float:
        if isinstance(el, S.Text) and scope.truth(el.when):
            paras, _ = self.paragraphs(el, scope)
            if not paras:
                return 0.0
            hyph = el.hyphenate and self.face.hyphenate
            size = el.font_size
            if el.fit == "deck" and el.key in self.sizes:
                size = min(size, self.sizes[el.key])
            return set_text(paras, width, INF, size, el.leading, el.gap, el.icon_scale, hyph,
                            self.face.lang, el.max_lines).height
        if isinstance(el, S.Table) and scope.truth(el.when):
            rows = self.table_rows(el, scope)
            return self.table_layout(el, rows, width, INF, el.font_size)[1]
        return 0.0

    def _line_paras(self, text: str, font_role: str, bold: bool, colour: str,
                    align: str) -> list[Para]:
        font = self.face.fonts.name(font_role, bold)
        return [Para(tuple(w), 1.0, align, colour, False, 0.0, font)
                for w in parse(text, font, icon_names(), colour)[:1]]

    def line_best(self, text: str, font_role: str, bold: bool, box: Box,
                  high: float) -> float | None:
        """The largest size (min_font .. high) at which `text` fits `box` on one line."""
        paras = self._line_paras(text, font_role, bold, "ink", "center")
        low = self.face.min_font
        best, _ = best_size(lambda s: set_text(paras, box.w, box.h, s, 1.15, None, 1.0, False,
                                               self.face.lang, 1), low, max(high, low))
        return best

    def one_line(self, text: str, font_role: str, bold: bool, box: Box, high: float,
                 colour: str, scope: Scope, field: str | None, align: str = "center",
                 size: float | None = None) -> None:
        """A single line shrunk to fit `box` (numbers in chips, captions under boxes), or set
        at `size` (a size shared by several lines)."""
        if not text:
            return
        paras = self._line_paras(text, font_role, bold, colour, align)
        best = size if size is not None else self.line_best(text, font_role, bold, box, high)
        setting = set_text(paras, box.w, box.h + 0.05, best, 1.15, None, 1.0, False,
                           self.face.lang, 1) if best is not None else None
        if setting is None or not setting.fits:
            self.problem("text-overflow",
                         f"{field or text[:40]!r}: does not fit its box in layout "
                         f"{self.layout.name} even at {self.face.min_font:g} pt", field)
            return
        if self.pen:
            self.pen.text(setting, box, 1.15, None, "middle", 1.0, self.palette, scope)

    # -- stats

    def do_stats(self, el: S.Stats, box: Box, scope: Scope) -> None:
        chips: list[tuple[str, str, str, Scope, str | None]] = []
        if el.over is not None:
            for sc in self._loop(el.over, el.as_, scope):
                chips.append((sc.render(el.icon).strip(), sc.render(el.value).strip(),
                              sc.render(el.label).strip(), sc, sc.field(el.value)))
        for item in el.items:
            if scope.truth(item.when):
                chips.append((scope.render(item.icon).strip(), scope.render(item.value).strip(),
                              scope.render(item.label).strip(), scope, scope.field(item.value)))
        if not chips:
            return
        n = len(chips)
        gap = 1.2 * PT_PER_MM
        row = el.direction == "row"
        main = (box.w if row else box.h) - gap * (n - 1)
        labelled = any(c[2] for c in chips)
        step = main / n
        if row:  # a few chips do not stretch across the box: at most 2.6 times as wide as high
            step = min(step, box.h * 2.6)
        start = (box.w - (step * n + gap * (n - 1))) / 2 if row else 0.0
        for i, (icon, value, label, sc, fld) in enumerate(chips):
            if row:
                slot = Box(box.x + start + i * (step + gap), box.y, step, box.h)
            else:
                slot = Box(box.x, box.y + i * (step + gap), box.w, step)
            chip = slot
            if labelled:
                lh = max(slot.h * 0.3, self.face.min_font * 1.2)
                chip = Box(slot.x, slot.y, slot.w, slot.h - lh)
                self.one_line(label, "body", False, Box(slot.x, slot.y + slot.h - lh,
                              slot.w, lh), lh / 1.15, el.label_color, sc, sc.field(el.label))
            self._chip(el, chip, icon, value, sc, fld)

    def _chip(self, el: S.Stats, chip: Box, icon: str, value: str, sc: Scope,
              fld: str | None) -> None:
        if el.chip != "none" and self.pen:
            fill, stroke = self.palette.get(el.fill, sc), self.palette.get(el.stroke, sc)
            if el.chip == "circle":
                side = min(chip.w, chip.h)
                self.pen.ellipse(Box(chip.x + (chip.w - side) / 2, chip.y + (chip.h - side) / 2,
                                     side, side), fill, stroke, 0.3 * PT_PER_MM)
            else:
                self.pen.rect(chip, fill, stroke, 0.3 * PT_PER_MM,
                              radius=min(chip.w, chip.h) * 0.22)
        if icon and not icon_exists(icon):
            raise UnknownIcon(f"unknown icon {icon!r} (known: {', '.join(sorted(icon_names()))})")
        pad = min(chip.w, chip.h) * 0.12
        inner = Box(chip.x + pad, chip.y + pad, chip.w - 2 * pad, chip.h - 2 * pad)
        narrow = chip.w < chip.h * 1.5  # no room beside the icon: put the value under it
        if el.arrange == "icon-top" or not value or narrow:
            isz = min(inner.w, inner.h * (0.55 if value else 1.0))
            if icon and self.pen:
                self.pen.icon(icon, None, inner.x + (inner.w - isz) / 2, inner.y, isz)
            vbox = Box(inner.x, inner.y + isz, inner.w, inner.h - isz)
        else:
            isz = min(inner.h * 0.8, inner.w * 0.45) if icon else 0.0
            total_w = inner.w
            if icon and self.pen:
                self.pen.icon(icon, None, inner.x, inner.y + (inner.h - isz) / 2, isz)
            vbox = Box(inner.x + isz + pad * 0.5, inner.y, total_w - isz - pad * 0.5, inner.h)
        high = el.font_size or max(self.face.min_font, vbox.h / 1.15)
        self.one_line(value, el.font, True, vbox, high, el.color, sc, fld,
                      align="center" if el.arrange == "icon-top" or not icon or narrow
                      else "left")

    # -- tables

    def table_rows(self, el: S.Table, scope: Scope) -> list[tuple[list[str], list[str | None]]]:
        rows = []
        for sc in self._loop(el.over, el.as_, scope):
            rows.append(([sc.render(c.text) for c in el.columns],
                         [sc.field(c.text) for c in el.columns]))
        return rows

    def table_layout(self, el: S.Table, rows, width: float, height: float, size: float):
        """(fits, height, rows of cell settings) at `size`."""
        fonts = self.face.fonts
        total_w = sum(c.width for c in el.columns)
        widths = [width * c.width / total_w for c in el.columns]
        pad = 0.3 * size
        out = []
        y = 0.0
        has_header = any(c.header for c in el.columns)
        body = [([self.layout_scope_header(c) for c in el.columns], [None] * len(el.columns),
                 True)] if has_header else []
        body += [(texts, fields, False) for texts, fields in rows]
        hyph = el.hyphenate and self.face.hyphenate
        for texts, _fields, header in body:
            cells = []
            row_h = 0.0
            for col, w, text in zip(el.columns, widths, texts, strict=True):
                font = fonts.name(el.font, header or col.bold)
                colour = el.header_color if header else el.color
                paras = [Para(tuple(words), 1.0, col.align, colour, False, 0.0, font)
                         for words in parse(text, font, icon_names(), colour)] if text else []
                setting = set_text(paras, w - 2 * pad, INF, size, 1.15, 0.0, 1.0, hyph,
                                   self.face.lang, None if el.wrap else 1)
                if setting.too_wide or (not el.wrap and not setting.fits):
                    return False, INF, []
                cells.append(setting)
                row_h = max(row_h, setting.height)
            row_h += 2 * pad * 0.6
            out.append((y, row_h, cells, header))
            y += row_h
            if y > height + 0.01:
                return False, y, out
        return True, y, out

    def layout_scope_header(self, col: S.Column) -> str:
        return self._header_scope.render(col.header) if col.header else ""

    def do_table(self, el: S.Table, box: Box, scope: Scope) -> None:
        self._header_scope = scope
        rows = self.table_rows(el, scope)
        if not rows:
            return

        def at(size: float):
            fits, h, out = self.table_layout(el, rows, box.w, box.h, size)
            return _TableSetting(size, fits, h, out)

        field = next((f for _, fields in rows for f in fields if f), None)
        if el.fit == "none":
            chosen = at(el.font_size)
            if not chosen.fits:
                self.problem("text-overflow", f"{field or 'table'}: the table does not fit its "
                             f"box (element {el.key} of layout {self.layout.name}) at "
                             f"{el.font_size:g} pt", field)
                return
        else:
            low = min(self._min(el), el.font_size)
            best, chosen = best_size(at, low, el.font_size)
            if best is None:
                self.problem("text-overflow", f"{field or 'table'}: the table does not fit its "
                             f"box (element {el.key} of layout {self.layout.name}) even at "
                             f"{low:g} pt", field)
                self.measured.best[el.key] = None
                return
            m = self.measured
            prev = m.best.get(el.key, INF)
            m.best[el.key] = None if prev is None else min(best, prev)
            m.fits[el.key] = el.fit
            if el.floor is not None:
                m.floors[el.key] = el.floor
            if el.fit == "deck" and el.key in self.sizes and self.sizes[el.key] < best:
                chosen = at(self.sizes[el.key])
        if self.pen:
            self._draw_table(el, box, chosen, scope)

    def _draw_table(self, el: S.Table, box: Box, chosen, scope: Scope) -> None:
        total_w = sum(c.width for c in el.columns)
        widths = [box.w * c.width / total_w for c in el.columns]
        pad = 0.3 * chosen.size
        rule = self.palette.get(el.rule, scope) if el.rule else None
        n = 0
        for y, row_h, cells, header in chosen.rows:
            rbox = Box(box.x, box.y + y, box.w, row_h)
            if header and el.header_fill:
                self.pen.rect(rbox, self.palette.get(el.header_fill, scope))
            elif not header:
                if el.zebra and n % 2 == 1:
                    self.pen.rect(rbox, self.palette.get(el.zebra, scope))
                n += 1
            x = box.x
            for w, setting in zip(widths, cells, strict=True):
                if setting.paras:
                    self.pen.text(setting, Box(x + pad, rbox.y, w - 2 * pad, row_h), 1.15, 0.0,
                                  "middle", 1.0, self.palette, scope)
                x += w
            if rule is not None:
                yy = rbox.y + row_h
                self.pen.poly([(box.x, yy), (box.x + box.w, yy)], False, None, rule,
                              0.2 * PT_PER_MM)

    # -- tracks

    def do_track(self, el: S.Track, box: Box, scope: Scope) -> None:
        if el.over is not None:
            items = self._loop(el.over, el.as_, scope)
        else:
            n = scope.eval(el.count)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 10_000:
                raise BindError(f"count {el.count!r} is {n!r}, not a number of boxes (0-10000)")
            items = [scope.child(el.as_, i, i, None) for i in range(n)]
        n = len(items)
        if not n:
            return
        row = el.direction == "row"
        cols = el.cols or (n if row else 1)
        rows = math.ceil(n / cols)
        labelled = el.label is not None
        beside = labelled and cols == 1  # a column of boxes: captions to the right
        label_k = 0.42 if labelled and not beside else 0.0
        gap = el.gap
        start = scope.eval(el.start) if el.start is not None else None
        top_k = 0.38 if isinstance(start, int) and not beside else 0.0
        room_w = box.w * 0.4 if beside else box.w
        fit_side = min((room_w - (cols - 1) * gap) / cols,
                       (box.h - (rows - 1) * gap) / (rows * (1 + label_k) + top_k))
        side = max(min(el.box_size, fit_side) if el.box_size else fit_side, 0.1)
        cell_h = side * (1 + label_k)
        used_w = cols * side + (cols - 1) * gap
        used_h = side * top_k + rows * cell_h + (rows - 1) * gap
        x0 = box.x + (0.0 if beside else (box.w - used_w) / 2)
        y0 = box.y + (box.h - used_h) / 2 + side * top_k
        marks = scope.eval(el.marks) if el.marks is not None else None
        marks = set(marks) if isinstance(marks, list | tuple | set) else set()
        boxes = []
        for i in range(n):
            col, r = i % cols, i // cols
            boxes.append(Box(x0 + col * (side + gap), y0 + r * (cell_h + gap), side, side))
        # captions share one size, and numbers another: a track reads as one thing
        labels = [sc.render(el.label).strip() if labelled else "" for sc in items]
        numbers = [sc.render(el.number).strip() if el.number is not None else ""
                   for sc in items]
        if beside:
            label_boxes = [Box(b.x + side * 1.25, b.y, box.x + box.w - b.x - side * 1.25, side)
                           for b in boxes]
        else:
            label_boxes = [Box(b.x - gap / 2, b.y + side * 1.04, side + gap, side * label_k)
                           for b in boxes]
        number_boxes = [Box(b.x + side * 0.12, b.y + side * 0.12, side * 0.76, side * 0.76)
                        for b in boxes]
        label_size = self._shared_size(labels, "narrow", True, label_boxes,
                                       el.font_size or side * (0.5 if beside else
                                                               label_k / 1.2))
        number_size = self._shared_size(numbers, "title", True, number_boxes,
                                        el.font_size or side * 0.55)
        for i, sc in enumerate(items):
            b = boxes[i]
            fill = el.fill
            if i in marks:
                fill = el.mark_fill
            if i == start:
                fill = el.start_fill
            if self.pen:
                paint = (self.palette.get(fill, sc), self.palette.get(el.stroke, sc))
                width = 0.3 * PT_PER_MM * (2.2 if i == start else 1.0)
                if el.shape == "circle":
                    self.pen.ellipse(b, *paint, width)
                else:
                    self.pen.rect(b, *paint, width,
                                  radius=side * 0.14 if el.shape == "rounded" else 0.0)
                if i == start and not beside:
                    tri = side * 0.16
                    cx = b.x + side / 2
                    self.pen.poly([(cx - tri, b.y - side * 0.34), (cx + tri, b.y - side * 0.34),
                                   (cx, b.y - side * 0.08)], True,
                                  self.palette.get(el.stroke, sc))
            if numbers[i]:
                self.one_line(numbers[i], "title", True, number_boxes[i], 0, el.color, sc,
                              sc.field(el.number), size=number_size)
            if labels[i]:
                self.one_line(labels[i], "narrow", i == start, label_boxes[i], 0, el.color, sc,
                              sc.field(el.label), align="left" if beside else "center",
                              size=label_size)

    def _shared_size(self, texts: list[str], role: str, bold: bool, boxes: list[Box],
                     high: float) -> float | None:
        sizes = [self.line_best(t, role, bold, b, high) for t, b in zip(texts, boxes,
                                                                          strict=True) if t]
        if not sizes or any(s is None for s in sizes):
            return None
        return min(sizes)

    # -- grids

    def do_grid(self, el: S.Grid, box: Box, scope: Scope) -> None:
        cols, rows = scope.eval(el.cols), scope.eval(el.rows)
        for name, v in (("cols", cols), ("rows", rows)):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= 500:
                raise BindError(f"{name} {getattr(el, name)!r} is {v!r}, not 1-500")
        cw, ch = box.w / cols, box.h / rows
        if el.square:
            cw = ch = min(cw, ch)
        if el.cell_size:  # fixed cells, from the box's top-left corner
            cw = ch = el.cell_size
            x0, y0 = box.x, box.y
        else:
            x0 = box.x + (box.w - cw * cols) / 2
            y0 = box.y + (box.h - ch * rows) / 2

        def cell(c: int, r: int) -> Box:
            return Box(x0 + c * cw, y0 + r * ch, cw, ch)

        grid_map = scope.eval(el.map) if el.map is not None else None
        on = set()
        if el.cells is not None:
            for item in scope.eval(el.cells) or []:
                if isinstance(item, list | tuple) and len(item) == 2:
                    on.add((int(item[0]), int(item[1])))
        lines = self.palette.get(el.lines, scope) if el.lines else None
        base = self.palette.get(el.fill, scope) if el.fill else None
        if self.pen and base is not None:
            self.pen.rect(Box(x0, y0, cw * cols, ch * rows), base)
        icons_later: list[tuple[str, str | None, Box]] = []
        for r in range(rows):
            line = ""
            if isinstance(grid_map, list | tuple) and r < len(grid_map):
                line = str(grid_map[r])
            for c in range(cols):
                style = el.legend.get(line[c]) if c < len(line) else None
                fill = None
                if style and style.fill:
                    fill = self.palette.get(style.fill, scope)
                b = cell(c, r)
                if (c, r) in on:
                    fill = self.palette.get(el.on, scope)
                    if lines is None:  # cells of a shape stay apart by a hairline
                        k = min(b.w, b.h) * 0.04
                        b = Box(b.x + k, b.y + k, b.w - 2 * k, b.h - 2 * k)
                if self.pen and fill is not None:
                    self.pen.rect(b, fill)
                if style and style.icon:
                    icons_later.append((scope.render(style.icon).strip(), None, cell(c, r)))
        if self.pen and lines is not None:
            for c in range(cols + 1):
                x = x0 + c * cw
                self.pen.poly([(x, y0), (x, y0 + rows * ch)], False, None, lines, el.line_width)
            for r in range(rows + 1):
                y = y0 + r * ch
                self.pen.poly([(x0, y), (x0 + cols * cw, y)], False, None, lines, el.line_width)
        if el.edges is not None:
            self._edges(el, scope, cols, rows, cell)
        for mark in el.marks:
            for sc in self._loop(mark.over, mark.as_, scope):
                where = sc.eval(mark.cell or f"{mark.as_}.cell")
                if not (isinstance(where, list | tuple) and len(where) == 2):
                    continue
                c, r = int(where[0]), int(where[1])
                if not (0 <= c < cols and 0 <= r < rows):
                    continue
                b = cell(c, r)
                if mark.fill and self.pen:
                    if mark.shape == "dot":  # a pip: a disc of `scale` of the cell
                        side = min(b.w, b.h) * mark.scale
                        self.pen.ellipse(Box(b.x + (b.w - side) / 2, b.y + (b.h - side) / 2,
                                             side, side), self.palette.get(mark.fill, sc))
                    else:
                        self.pen.rect(b, self.palette.get(mark.fill, sc))
                if mark.icon:
                    name = sc.render(mark.icon).strip()
                    if name:
                        if not icon_exists(name):
                            raise UnknownIcon(f"unknown icon {name!r}")
                        side = min(b.w, b.h) * mark.scale
                        tint = self.palette.get(mark.tint, sc) if mark.tint else None
                        if self.pen:
                            self.pen.icon(name, tint.hexval()[2:] if tint else None,
                                          b.x + (b.w - side) / 2, b.y + (b.h - side) / 2, side)
                if mark.text:
                    text = sc.render(mark.text).strip()
                    inner = Box(b.x + b.w * 0.06, b.y + b.h * 0.06, b.w * 0.88, b.h * 0.88)
                    self.one_line(text, "body", True, inner, inner.h * 0.45,
                                  mark.color or "ink", sc, sc.field(mark.text))
        for name, tint, b in icons_later:
            if name and self.pen:
                side = min(b.w, b.h) * 0.7
                self.pen.icon(name, tint, b.x + (b.w - side) / 2, b.y + (b.h - side) / 2, side)

    def _edges(self, el: S.Grid, scope: Scope, cols: int, rows: int, cell) -> None:
        edges = scope.eval(el.edges)
        if not isinstance(edges, Mapping) or not self.pen:
            return
        fill = self.palette.get(el.edge_fill, scope)
        d = el.edge_depth
        for side, indices in edges.items():
            for i in indices or []:
                if not isinstance(i, int):
                    continue
                if side in ("north", "south") and 0 <= i < cols:
                    b = cell(i, 0 if side == "north" else rows - 1)
                    y = b.y if side == "north" else b.y + b.h - d
                    self.pen.rect(Box(b.x + b.w * 0.2, y, b.w * 0.6, d), fill)
                elif side in ("west", "east") and 0 <= i < rows:
                    b = cell(0 if side == "west" else cols - 1, i)
                    x = b.x if side == "west" else b.x + b.w - d
                    self.pen.rect(Box(x, b.y + b.h * 0.2, d, b.h * 0.6), fill)

    # -- containers

    def do_repeat(self, el: S.Repeat, box: Box, scope: Scope) -> None:
        items = self._loop(el.over, el.as_, scope)
        if not items:
            return
        n = len(items)
        if el.step_x is None and el.step_y is None:  # spread evenly over the box
            cols = el.cols or (n if el.direction == "row" else 1)
            rows = -(-n // cols)
            dx, dy = box.w / cols, box.h / rows
            w = el.cell_w.of(box.w) if el.cell_w else dx
            h = el.cell_h.of(box.h) if el.cell_h else dy
        else:
            dx = el.step_x.of(box.w) if el.step_x else 0.0
            dy = el.step_y.of(box.h) if el.step_y else 0.0
            cols = el.cols or (n if el.step_x is not None else 1)
            w = el.cell_w.of(box.w) if el.cell_w else box.w
            h = el.cell_h.of(box.h) if el.cell_h else box.h
        for i, sc in enumerate(items):
            c, r = i % cols, i // cols
            self.elements(el.elements, Box(box.x + c * dx, box.y + r * dy, w, h), sc)

    def do_group(self, el: S.Group, box: Box, scope: Scope) -> None:
        transformed = el.rotate or el.mirror
        frame = box
        if self.pen:
            self.pen.c.saveState()
        if transformed:
            self.depth += 1
            cw, ch = (box.h, box.w) if el.rotate in (90, 270) else (box.w, box.h)
            if self.pen:
                c = self.pen.c
                c.translate(box.x + box.w / 2, box.y + box.h / 2)
                if el.rotate:
                    c.rotate(-el.rotate)
                if el.mirror:
                    c.scale(-1, 1)
                c.translate(-cw / 2, -ch / 2)
            frame = Box(0, 0, cw, ch)
        if el.clip and self.pen:
            self.pen.clip(frame, el.clip)
        self.elements(el.elements, frame, scope)
        if transformed:
            self.depth -= 1
        if self.pen:
            self.pen.c.restoreState()

    def do_stack(self, el: S.Stack, box: Box, scope: Scope) -> None:
        """Children one after another. A child has a fixed `size`, or `grow` (a share of the
        space left, at least its `size`), or is a text or table: as tall as its content; the
        first fitted text (or table) of a column is the flow: it gets the space the others
        leave, and once set, whatever it does not need goes to the `grow` children."""
        column = el.direction == "column"
        total = box.h if column else box.w
        cross = box.w if column else box.h
        kids = [k for k in el.elements if scope.truth(k.when)]
        if not kids:
            return
        sizes: list[float] = []
        growing: list[float] = []
        flow = None
        for k in kids:
            fixed = k.size.of(total) if isinstance(k.size, S.Dim) else None
            if k.grow > 0:
                sizes.append(fixed or 0.0)
                growing.append(k.grow)
                continue
            growing.append(0.0)
            if fixed is not None:
                sizes.append(fixed)
            elif isinstance(k, S.Text | S.Table) and column and k.fit != "none" \
                    and flow is None:
                flow = k
                sizes.append(0.0)
            elif isinstance(k, S.Text | S.Table) and column:
                sizes.append(self.natural_height(k, place(k.box, Box(0, 0, cross, INF)).w,
                                                 scope))
            else:
                sizes.append(0.0)
                growing[-1] = 1.0
        free = total - el.gap * (len(kids) - 1) - sum(sizes)
        weights = sum(growing)
        if flow is not None:
            i = kids.index(flow)
            room = max(free, 0.0)
            sizes[i] = room
            if self.pen is not None and weights and isinstance(flow, S.Text):
                # the flow takes what it needs at its chosen size; the rest goes to `grow`
                fbox = place(S.BoxSpec(x=flow.box.x, w=flow.box.w, right=flow.box.right,
                                       inset=flow.box.inset), Box(0, 0, cross, room))
                paras, field = self.paragraphs(flow, scope)
                setting = self.text_setting(flow, paras, fbox.w, room, field) if paras else None
                if setting is not None:
                    self._preset[id(flow)] = setting
                    sizes[i] = min(room, setting.height + 0.05)
                else:
                    sizes[i] = 0.0
            free -= sizes[i]
        if weights:
            share = max(free, 0.0) / weights
            sizes = [s + share * g for s, g in zip(sizes, growing, strict=True)]
        pos = box.y if column else box.x
        for k, s in zip(kids, sizes, strict=True):
            if column:
                slot = Box(box.x, pos, box.w, s)
                inner = place(S.BoxSpec(x=k.box.x, w=k.box.w, right=k.box.right,
                                        inset=k.box.inset), slot)
            else:
                slot = Box(pos, box.y, s, box.h)
                inner = place(S.BoxSpec(y=k.box.y, h=k.box.h, bottom=k.box.bottom,
                                        inset=k.box.inset), slot)
            self.element(k, inner, scope)
            pos += s + el.gap

    def do_drawer(self, el: S.Drawer, box: Box, scope: Scope) -> None:
        fn = self.drawers.get(el.name)
        if fn is None:
            raise BindError(f"no drawer {el.name!r} is registered (entry point group "
                            f"relic.drawers)")
        args = {k: scope.render(v) for k, v in el.args.items()}
        if self.pen:
            fn(self.pen, box, args, scope.values)

    # -- proof marks

    def proof_mark(self, el: S.Element, box: Box, scope: Scope) -> None:
        path = scope.render(el.proof).strip()
        prov = self.face.provisional
        reason = prov.get("") if path in ("-", "") else (prov.get(path) or prov.get(""))
        if not reason:
            return
        side = 2.4 * PT_PER_MM
        b = Box(box.x + box.w - side, box.y, side, side)
        self.pen.rect(b, hex_color("#c0392b"), radius=side * 0.25)
        white = "#ffffff"
        font = self.face.fonts.name("body", True)
        paras = [Para(tuple(w), 1.0, "center", white, False, 0.0, font)
                 for w in parse("P", font, icon_names(), white)]
        setting = set_text(paras, b.w, b.h, side * 0.7, 1.1, None, 1.0, False, "en", 1)
        self.pen.text(setting, b, 1.1, None, "middle", 1.0, self.palette, scope)


@dataclass
class _TableSetting:
    size: float
    fits: bool
    height: float
    rows: list
