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
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pipeline.model import Model

if TYPE_CHECKING:
    from pipeline.cards import PrintSet
    from pipeline.cards.components import Face
    from pipeline.cards.formats import Format
    from pipeline.cards.render import RenderSettings

DPI = 300
RASTER_VERSION = "1"
# reportlab (which draws faces and writes their pages) and PDFium (which rasterizes them) keep
# process-wide state and are not safe in two threads at once: the book process has a thread per
# language, and each may draw and rasterize its pictures
DRAWING = threading.Lock()
POLL = 0.2  # seconds between two looks at what the card build has drawn


@dataclass(frozen=True)
class Picture:
    """The front of one entity's component: `key` names its bytes, `aspect` is height/width."""

    entity_id: str
    key: str
    aspect: float


def pixels(width_mm: float) -> int:
    """The raster width of a picture printed `width_mm` wide."""
    return math.ceil(width_mm / 25.4 * DPI)


class Signal(Protocol):
    """What tells the book that the card build has drawn every face (a process's `Event`)."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float | None = None) -> bool: ...


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
    from pipeline.fsutil import cache_write

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

    A picture's identity is the face's drawing key (`render.art_key`: the face's data, the
    type sizes its deck sets it in, the renderer and its settings), so the book shows exactly
    what the cards print, and notices when a card's picture changes because its deck's type
    size did."""

    def __init__(self, model: Model, lang: str, cache_dir: Path, *, proof: bool = False,
                 faces_drawn: Signal | None = None, workers: int = 1,
                 print_set: PrintSet | Callable[[], PrintSet] | None = None):
        """`print_set`: the card build's (`cards.prepare`, with the same `proof`), or what gives
        it once the card build has worked it out, when the book is made beside the cards;
        else it is worked out here. It is needed on the first picture, not before."""
        self.model, self.lang, self.cache_dir, self.proof = model, lang, Path(cache_dir), proof
        self._print_set = print_set
        self.faces_drawn = faces_drawn  # set once another process has drawn every face
        self.workers = workers  # processes for the faces this book draws itself

    @cached_property
    def _faces(self) -> tuple[Mapping[str, Format], list[Face], dict[str, Face], RenderSettings]:
        """(formats, every face of the language, the front of each component, the settings)."""
        from pipeline.cards import BuildOptions, prepare
        from pipeline.cards.render import RenderSettings

        print_set = self._print_set() if callable(self._print_set) else self._print_set
        if print_set is None:
            print_set = prepare(self.model, BuildOptions(Path(), self.cache_dir,
                                                         langs=(self.lang,), proof=self.proof))
        profile, components = print_set.profile, print_set.expanded[self.lang]
        fronts: dict[str, Face] = {}
        for item in components.items:
            fronts.setdefault(item.id, components.faces[item.front])
        base = RenderSettings.of(
            profile, components, self.lang, charset=print_set.charset,
            pack_root=str(self.model.pack.root.resolve()),
            cache_dir=str(self.cache_dir.resolve()), png=False)
        return (profile.formats, list(components.faces.values()), fronts,
                replace(base, salt=base.key()))

    @property
    def formats(self) -> Mapping[str, Format]:
        return self._faces[0]

    @property
    def faces(self) -> list[Face]:
        return self._faces[1]

    @property
    def fronts(self) -> dict[str, Face]:
        return self._faces[2]

    @property
    def settings(self) -> RenderSettings:
        return self._faces[3]

    @cached_property
    def sizes(self) -> dict[str, dict[str, float]]:
        """The type sizes of every face, chosen per deck as the card build chooses them."""
        from pipeline.cards.faces import choose_sizes
        from pipeline.cards.render import measures_of

        return choose_sizes(measures_of(self.faces, self.settings))

    def find(self, entity_id: str) -> Picture | None:
        from pipeline.cards.render import art_key

        face = self.fronts.get(entity_id)
        if face is None:
            return None
        fmt = self.formats[face.format]
        key = art_key(face, self.settings, self.sizes[face.key])
        return Picture(entity_id, key, fmt.height / fmt.width)

    def _drawn(self, picture: Picture, index=None):
        """The drawn face of the picture, if the card build has drawn it (`index`: the art
        index read once for many pictures)."""
        from pipeline.cards.render import ArtIndex, Rendered

        batch = (index or ArtIndex(self.settings)).batch(picture.key)
        face = self.fronts[picture.entity_id]
        return Rendered(face.key, picture.key, str(batch)) if batch else None

    def available(self, picture: Picture) -> bool:
        return self._drawn(picture) is not None

    def render(self, pictures: list[Picture], wait: float = 600.0) -> None:
        """Make sure every picture's face is drawn: wait while the card build draws them
        (until `faces_drawn` is set, looking at what it has drawn every `POLL` seconds), then
        draw in this process whatever is still missing (the faces of the whole language: a
        deck's type size depends on all its cards)."""
        import pypdfium2  # noqa: F401 - the rasters' (0.06 s), imported while the faces are drawn

        from pipeline.cards.render import ArtIndex, render_faces

        deadline = time.monotonic() + wait
        missing = [p for p in pictures if not self.available(p)]
        while missing and self.faces_drawn is not None and not self.faces_drawn.is_set() \
                and time.monotonic() < deadline:
            self.faces_drawn.wait(POLL)
            index = ArtIndex(self.settings)  # read once a look: it holds hundreds of faces
            missing = [p for p in missing if self._drawn(p, index) is None]
        if missing:
            with DRAWING:
                _, outcome = render_faces([(self.faces, self.settings)], self.workers,
                                          lambda n: None)
            if outcome.problems:  # the card build reports them at their place
                raise RuntimeError(f"{outcome.problems[0].entity_id}: "
                                   f"{outcome.problems[0].message}")

    def raster(self, picture: Picture, width_px: int) -> bytes:
        """The drawn face, its bleed cut off, rasterized `width_px` wide."""
        import pypdfium2 as pdfium

        from pipeline.cards.render import face_page

        drawn = self._drawn(picture)
        if drawn is None:
            self.render([picture])
            drawn = self._drawn(picture)
        face = self.fronts[picture.entity_id]
        fmt = self.formats[face.format]
        bleed, trim = fmt.bleed / 25.4 * 72, fmt.width / 25.4 * 72
        with DRAWING:
            document = pdfium.PdfDocument(face_page(drawn, self.settings))
            try:
                image = document[0].render(scale=width_px / trim, crop=(bleed,) * 4,
                                           may_draw_forms=False).to_pil()
            finally:
                document.close()
        return _png(image.convert("RGB"))
