"""Pictures of printed components for the book, rasterized once at the size they print.

A picture is the front face of an entity's component. `FacePictures` takes it from the card
renderer (the same face, the same render cache as `relic build`), so the book needs no PNG
output and shows exactly what the cards print; `FilePictures` takes existing image files.
Either way a picture is rasterized straight at its printed width (300 DPI) and kept in the
cache under its identity and width, so a build rasterizes only pictures that changed.

This module is the rulebook's one dependency on the card renderer's internals.
"""

from __future__ import annotations

import hashlib
import io
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Protocol

from pipeline.model import Model

DPI = 300
RASTER_VERSION = "1"


@dataclass(frozen=True)
class Picture:
    """The front of one entity's component: `key` names its bytes, `aspect` is height/width."""

    entity_id: str
    key: str
    aspect: float


def pixels(width_mm: float) -> int:
    """The raster width of a picture printed `width_mm` wide."""
    return math.ceil(width_mm / 25.4 * DPI)


class Pictures(Protocol):
    def find(self, entity_id: str) -> Picture | None: ...

    def available(self, picture: Picture) -> bool: ...

    def render(self, pictures: list[Picture]) -> None: ...

    def raster(self, picture: Picture, width_px: int) -> bytes: ...


class NoPictures:
    """A book without component pictures."""

    def find(self, entity_id: str) -> Picture | None:
        return None

    def available(self, picture: Picture) -> bool:
        return True

    def render(self, pictures: list[Picture]) -> None:
        return None

    def raster(self, picture: Picture, width_px: int) -> bytes:
        raise KeyError(picture.entity_id)


def raster_path(picture: Picture, width_px: int, cache_dir: Path) -> Path:
    """Where the cache keeps the picture's PNG at `width_px`."""
    digest = hashlib.sha256(f"{RASTER_VERSION}\0{picture.key}\0{width_px}".encode()).hexdigest()
    return cache_dir / "pictures" / f"{digest}.png"


def raster_file(pictures: Pictures, picture: Picture, width_px: int, cache_dir: Path) -> Path:
    """The picture's PNG at `width_px`, from the cache or rasterized into it now."""
    from pipeline.cards.prune import mark_used
    from pipeline.cards.render import cache_write

    path = raster_path(picture, width_px, cache_dir)
    if path.is_file():
        mark_used(path)
    else:
        cache_write(path, pictures.raster(picture, width_px))
    return path


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


class FilePictures:
    """Pictures from image files, by entity id (for packs built elsewhere, and for tests)."""

    def __init__(self, files: Mapping[str, Path]):
        self.files = dict(files)

    def find(self, entity_id: str) -> Picture | None:
        from PIL import Image

        path = self.files.get(entity_id)
        if path is None:
            return None
        try:
            data = path.read_bytes()
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
        except (OSError, ValueError):
            return None  # not a readable picture: the book leaves it out
        return Picture(entity_id, hashlib.sha256(data).hexdigest(), height / width)

    def available(self, picture: Picture) -> bool:
        return True

    def render(self, pictures: list[Picture]) -> None:
        return None

    def raster(self, picture: Picture, width_px: int) -> bytes:
        from PIL import Image

        with Image.open(self.files[picture.entity_id]) as img:
            rgb = img.convert("RGB")
            height = max(1, round(width_px * picture.aspect))
            return _png(rgb.resize((width_px, height), Image.Resampling.LANCZOS))


class FacePictures:
    """The front faces the card renderer draws for one language, from its render cache.

    A picture's identity is its face (the face's own key: everything the template receives)
    and the renderer (code, templates, assets, fonts): what the face looks like. Where the
    rendered face is kept also depends on the build's charset (its font subsets), which takes
    every language's faces to compute: that is done only when a face is needed."""

    def __init__(self, model: Model, lang: str, cache_dir: Path, *, proof: bool = False,
                 faces_ready: Callable[[], bool] | None = None, workers: int = 1):
        from pipeline.cards.components import expand
        from pipeline.cards.formats import load_labels, load_profile
        from pipeline.cards.render import RenderSettings

        self.model, self.lang, self.proof = model, lang, proof
        self.profile = load_profile(model.pack)
        self.formats = self.profile.formats
        components = expand(model, self.profile, lang, proof, load_labels(model.pack, lang))
        self.fronts = {}
        for item in components.items:
            self.fronts.setdefault(item.id, components.faces[item.front])
        self.base = RenderSettings(
            fonts=dict(self.profile.fonts), min_font_pt=self.profile.min_font_pt,
            formats=dict(self.profile.formats), charset="",
            pack_root=str(model.pack.root.resolve()), cache_dir=str(Path(cache_dir).resolve()),
            lang=lang, png=False)
        self.look = self.base.key()  # the renderer, without the charset
        self.faces_ready = faces_ready  # True once another process has rendered every face
        self.workers = workers  # processes for the faces this book renders itself

    @cached_property
    def settings(self):
        """The card build's render settings for this language (with its charset)."""
        from pipeline.cards import charset
        from pipeline.cards.components import expand
        from pipeline.cards.formats import load_labels

        expanded = [expand(self.model, self.profile, lang, self.proof,
                           load_labels(self.model.pack, lang))
                    for lang in self.model.pack.languages]
        settings = replace(self.base, charset=charset(*expanded))
        return replace(settings, salt=settings.key())

    def find(self, entity_id: str) -> Picture | None:
        face = self.fronts.get(entity_id)
        if face is None:
            return None
        fmt = self.formats[face.format]
        key = hashlib.sha256(f"{face.key}\0{self.look}".encode()).hexdigest()
        return Picture(entity_id, key, fmt.height / fmt.width)

    def _cached(self, picture: Picture):
        from pipeline.cards.render import cached

        return cached(self.fronts[picture.entity_id], self.settings)

    def available(self, picture: Picture) -> bool:
        return self._cached(picture) is not None

    def render(self, pictures: list[Picture], wait: float = 600.0) -> None:
        """Make sure every picture's face is rendered: wait while the card build renders them
        (`faces_ready`), then render in this process whatever is still missing."""
        from pipeline.cards.render import render_faces

        deadline = time.monotonic() + wait
        missing = [p for p in pictures if not self.available(p)]
        while missing and self.faces_ready is not None and not self.faces_ready() \
                and time.monotonic() < deadline:
            time.sleep(0.05)
            missing = [p for p in missing if not self.available(p)]
        if missing:
            faces = list({self.fronts[p.entity_id].key: self.fronts[p.entity_id]
                          for p in missing}.values())
            _, outcome = render_faces([(faces, self.settings)], self.workers, lambda n: None)
            if outcome.problems:  # the card build reports them at their place
                raise RuntimeError(f"{outcome.problems[0].entity_id}: "
                                   f"{outcome.problems[0].message}")

    def raster(self, picture: Picture, width_px: int) -> bytes:
        """The face's page, its bleed cut off, rasterized `width_px` wide."""
        import pypdfium2 as pdfium

        rendered = self._cached(picture)
        if rendered is None:
            self.render([picture])
            rendered = self._cached(picture)
        face = self.fronts[picture.entity_id]
        bleed = self.formats[face.format].bleed / 25.4 * 72
        trim_pt = self.formats[face.format].width / 25.4 * 72
        document = pdfium.PdfDocument(rendered.pdf)
        try:
            page = document[rendered.page]
            image = page.render(scale=width_px / trim_pt, crop=(bleed, bleed, bleed, bleed),
                                may_draw_forms=False).to_pil()
        finally:
            document.close()
        return _png(image.convert("RGB"))
