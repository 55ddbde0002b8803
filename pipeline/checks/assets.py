"""Check plug-in: image references in content stay inside the pack or the project's assets.

Any string field named like an image (`image`, `art`, `picture`, `icon_file`, or ending in
`_image`) must be a relative path without `..`, scheme or leading slash, naming an existing file
under the pack folder or `assets/`. Text fields cannot smuggle URLs into a page at all: templates
autoescape, and the renderer's URL fetcher refuses everything outside those folders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pipeline.diagnostics import Diagnostic, error
from pipeline.model import SCALARS, Model

ASSETS = Path(__file__).resolve().parents[2] / "assets"
IMAGE_FIELDS = re.compile(r"^(image|art|picture|icon_file|[a-z_]+_image)$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _fields(value: Any, path: str = "") -> Iterable[tuple[str, str, Any]]:
    if type(value) in SCALARS:
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            sub = f"{path}.{k}" if path else str(k)
            yield str(k), sub, v
            yield from _fields(v, sub)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _fields(v, f"{path}.{i}")


def problem(path: str, pack_root: Path) -> str | None:
    """Why an image path is unsafe or missing, or None when it is fine."""
    if SCHEME.match(path) or path.startswith(("/", "\\")) or "\\" in path:
        return "is a URL or an absolute path"
    if any(part == ".." for part in path.split("/")):
        return "climbs out of its folder with '..'"
    for root in (pack_root.resolve(), ASSETS):
        candidate = (root / path).resolve()
        if (candidate == root or root in candidate.parents) and candidate.is_file():
            return None
    return "names no file in the pack or in assets/"


def check(model: Model) -> Iterable[Diagnostic]:
    for entity in model.entities:
        for key, dotted, value in _fields(entity.data):
            if not IMAGE_FIELDS.match(key):
                continue
            if not isinstance(value, str):
                continue
            why = problem(value, model.pack.root)
            if why:
                yield error("unsafe-asset", f"{entity.id}: image {value!r} {why}",
                            entity.locate(dotted),
                            hint="images must be files inside the pack folder or assets/")
