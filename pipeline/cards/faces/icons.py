"""Icons: assets/icons/<name>.svg read with svglib, drawn once per PDF as a form XObject.

A face only names the icons it uses (`icon-skull`, or `icon-skull-f6eedc` tinted); the file
that places the face defines each form once, however many faces and cells show it. An icon's
operators are kept in the render cache (`icons/`, under a hash of its SVG, its tint and the
code that draws it): a build whose icons are all there never imports svglib.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import threading
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

from pipeline.cards.faces.spec import PROJECT_ROOT

ICONS = PROJECT_ROOT / "assets" / "icons"
UNIT = 24.0  # every icon is drawn into a 24 x 24 box


@cache
def icon_names() -> frozenset[str]:
    return frozenset(p.stem for p in ICONS.glob("*.svg"))


def form_name(icon: str, tint: str | None) -> str:
    return f"icon-{icon}" if not tint else f"icon-{icon}-{tint.lstrip('#').lower()}"


def parse_form(name: str) -> tuple[str, str | None]:
    body = name.removeprefix("icon-")
    head, _, tail = body.rpartition("-")
    if head and len(tail) == 6 and all(c in "0123456789abcdef" for c in tail) \
            and head in icon_names():
        return head, "#" + tail
    return body, None


@cache
def _drawing(icon: str):
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(str(ICONS / f"{icon}.svg"))
    if drawing is None:
        raise ValueError(f"icon {icon} is not a readable SVG")
    return drawing


def _tinted(drawing, tint: str):
    from reportlab.lib.colors import HexColor

    colour = HexColor(tint)
    out = copy.deepcopy(drawing)
    stack = [out]
    while stack:
        node = stack.pop()
        for attr in ("fillColor", "strokeColor"):
            if getattr(node, attr, None) is not None:
                setattr(node, attr, colour)
        stack.extend(getattr(node, "contents", []) or [])
    return out


_DRAWING_LOCK = threading.Lock()
"""reportlab's renderer marks the drawing it walks (`drawing._parent`, then deletes it), and
`_drawing` shares one drawing per icon: two threads drawing it at once (the rulebook process
makes each language's book in its own thread) failed with "'Drawing' object has no attribute
'_parent'"."""


@cache
def _operators(name: str) -> str:
    """The icon's PDF operators in a 24 x 24 box (drawn once per process with svglib)."""
    with _DRAWING_LOCK:
        return _draw_operators(name)


def _draw_operators(name: str) -> str:
    import io

    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    icon, tint = parse_form(name)
    drawing = _drawing(icon)
    if tint:
        drawing = _tinted(drawing, tint)
    canvas = Canvas(io.BytesIO(), invariant=1)
    canvas._code = []
    canvas.saveState()
    canvas.scale(UNIT / (drawing.width or UNIT), UNIT / (drawing.height or UNIT))
    renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
    canvas.restoreState()
    return "\n".join(canvas._code)


_PREPARED: dict[str, str] = {}  # form name -> operators, read from the cache by `prepare`


@cache
def _version() -> str:
    """What an icon's operators depend on besides its SVG: this code, reportlab and svglib."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for package in ("reportlab", "svglib"):
        digest.update(f"{package} {metadata.version(package)}".encode())
    return digest.hexdigest()


def cache_key(name: str) -> str:
    icon, tint = parse_form(name)
    digest = hashlib.sha256(_version().encode())
    digest.update((ICONS / f"{icon}.svg").read_bytes())
    digest.update(f"\0{tint or ''}".encode())
    return digest.hexdigest()


def prepare(names: Iterable[str], cache_dir: Path) -> None:
    """The operators of these icon forms, from the cache (drawn and kept there when missing),
    ready in this process and in the processes it forks."""
    from pipeline.cards.prune import mark_used
    from pipeline.fsutil import cache_write

    folder = cache_dir / "icons"
    for name in sorted(set(names)):
        path = folder / f"{cache_key(name)}.ops"
        if path.is_file():
            mark_used(path)
            if name not in _PREPARED:
                _PREPARED[name] = path.read_bytes().decode("utf-8")
        else:
            _PREPARED[name] = _PREPARED.get(name) or _operators(name)
            cache_write(path, _PREPARED[name])


def define(canvas, name: str) -> None:
    """Define the icon form `name` in this canvas's document (once per document); only
    between pages."""
    if canvas.hasForm(name):
        return
    code = _PREPARED.get(name)
    if code is None:
        code = _operators(name)
    canvas.beginForm(name, 0, 0, UNIT, UNIT)
    canvas._code.append(code)
    canvas.endForm()


def exists(icon: str) -> bool:
    return icon in icon_names()


def path_of(icon: str) -> Path:
    return ICONS / f"{icon}.svg"
