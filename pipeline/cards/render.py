"""Faces -> drawn faces: measured, sized per deck, drawn with reportlab, cached by content.

    faces of a language -> FaceMeasure each (cache/measure/)      in this process
                        -> one size per deck and fitted box       faces.choose_sizes
                        -> Art each: the face's PDF operators    (cache/faces/), in workers
                        -> PNG each, only with --png             (cache/png/), in workers

A face's operators are recorded on a *recorder* canvas that is never saved. Its fonts are
primed with the build's whole charset in a fixed order, and their PDF names are pinned, so the
operators mean the same in every PDF that primes the same way (impose.Writer): a face is drawn
once and placed in any sheet, shop file or PNG page, whichever batch drew it.
"""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path

from pipeline.cards.components import Face
from pipeline.cards.formats import PROJECT_ROOT, Format
from pipeline.cards.prune import mark_used

ASSETS = PROJECT_ROOT / "assets"
LAYOUTS = PROJECT_ROOT / "templates" / "layouts"
TEMPLATES = LAYOUTS  # where the project's face templates (layouts) live
RENDERER_VERSION = "2"
SMALL_RENDER = 200  # fewer faces than this are drawn in-process: starting workers costs more
PNG_DPI = 300


@dataclass(frozen=True)
class RenderSettings:
    fonts: Mapping[str, str]
    min_font_pt: float
    formats: Mapping[str, Format]
    charset: str
    pack_root: str
    cache_dir: str
    lang: str
    png_dpi: int = PNG_DPI
    png: bool = False  # also rasterize each face to PNG
    salt: str = ""  # settings.key(), computed once by the caller (dataclasses.replace)

    def key(self) -> str:
        """What, besides a face's own data, changes its drawing."""
        parts = [RENDERER_VERSION, code_hash(), metadata.version("reportlab"),
                 json.dumps(dict(self.fonts), sort_keys=True), str(self.min_font_pt),
                 hashlib.sha256(self.charset.encode()).hexdigest(),
                 tree_hash(LAYOUTS), tree_hash(ASSETS),
                 tree_hash(Path(self.pack_root) / "print" / "layouts"), self.lang]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()


@cache
def code_hash() -> str:
    """The renderer's own code: a change to it draws every face again."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for path in [here / "render.py", *sorted((here / "faces").glob("*.py"))]:
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class Rendered:
    """Where a drawn face lives: its Art file (and its PNG)."""

    key: str  # Face.key
    art: str  # cache/faces/<art key>.json
    png: str = ""

    @property
    def art_key(self) -> str:
        return Path(self.art).stem


@dataclass
class Problem:
    entity_id: str
    code: str
    message: str
    field: str | None = None
    lang: str | None = None


@dataclass
class BatchResult:
    rendered: list[Rendered] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def cache_write(path: Path, data: bytes | str) -> None:
    """Write a cache file: temp file + rename, without fsync (the cache can be rebuilt, and an
    fsync per face would cost more than drawing it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(payload)
    os.replace(tmp, path)


def tree_hash(root: Path) -> str:
    digest = hashlib.sha256()
    if not root.is_dir():
        return digest.hexdigest()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


# ----- one face ----------------------------------------------------------------------------


def layout_name(face: Face) -> str:
    return face.template


def _prepare(face: Face, settings: RenderSettings):
    from pipeline.cards.faces import face_spec, load_layout, scope_for

    ctx = json.loads(face.context)
    fmt = settings.formats[face.format]
    layout = load_layout(layout_name(face), Path(settings.pack_root))
    spec = face_spec(ctx, fmt, settings.fonts, settings.min_font_pt, settings.lang,
                     settings.pack_root)
    return layout, spec, scope_for(ctx, fmt)


def measure_face(face: Face, settings: RenderSettings, cache: bool = True):
    """The face's FaceMeasure: from the cache, else measured now (and cached)."""
    from pipeline.cards.faces import FaceMeasure, measure

    path = Path(settings.cache_dir) / "measure" / f"{face_cache_key(face, settings)}.json"
    if cache and path.is_file():
        mark_used(path)
        return FaceMeasure.from_json(path.read_text(encoding="utf-8"))
    layout, spec, scope = _prepare(face, settings)
    result = measure(layout, spec, scope, face.format)
    if cache:
        cache_write(path, result.to_json())
    return result


def face_cache_key(face: Face, settings: RenderSettings) -> str:
    return hashlib.sha256(f"{face.key}\0{settings.salt}".encode()).hexdigest()


def art_key(face: Face, settings: RenderSettings, sizes: Mapping[str, float]) -> str:
    return hashlib.sha256(f"{face_cache_key(face, settings)}\0{json.dumps(sizes, sort_keys=True)}"
                          .encode()).hexdigest()


def art_path(settings: RenderSettings, key: str) -> Path:
    return Path(settings.cache_dir) / "faces" / f"{key}.json"


def png_path(settings: RenderSettings, key: str) -> Path:
    return Path(settings.cache_dir) / "png" / f"{key}-{settings.png_dpi}.png"


@cache
def recorder(fonts: tuple[tuple[str, str], ...], charset: str):
    """A canvas that records faces' operators; never saved (one per process and charset)."""
    from reportlab.pdfgen.canvas import Canvas

    from pipeline.cards.faces.text import font_set
    from pipeline.cards.impose import prime

    fs = font_set(fonts)
    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=min(fs.files))
    prime(canvas, sorted(fs.files), charset, embed=False)
    return canvas


def draw_face(face: Face, settings: RenderSettings, sizes: Mapping[str, float], key: str):
    from pipeline.cards.faces import draw

    layout, spec, scope = _prepare(face, settings)
    canvas = recorder(tuple(sorted(settings.fonts.items())), settings.charset)
    before = _codes(canvas)
    art, problems = draw(layout, spec, scope, sizes, canvas)
    if _codes(canvas) != before:  # a character outside the charset: its code means nothing
        raise RuntimeError(f"{face.entity_id}: the face prints characters outside the build's "
                           "charset")
    return art, problems


def _codes(canvas) -> int:
    from reportlab.pdfbase import pdfmetrics

    doc = canvas._doc
    return sum(len(pdfmetrics.getFont(n).state[doc].assignments)
               for n in doc.fontMapping if n.startswith("Relic"))


# ----- batches in worker processes ---------------------------------------------------------

Job = tuple[list[tuple[Face, dict[str, float], str]], RenderSettings]


def _draw_job(job: Job) -> BatchResult:
    faces, settings = job
    result = BatchResult()
    for face, sizes, key in faces:
        art, problems = draw_face(face, settings, sizes, key)
        for p in problems:
            result.problems.append(Problem(face.entity_id, p.code, p.message, p.field,
                                           settings.lang))
        if problems:
            continue
        path = art_path(settings, key)
        cache_write(path, art.to_json())
        png = ""
        if settings.png:
            png = str(png_path(settings, key))
            cache_write(Path(png), rasterize_arts([art], settings)[0])
        result.rendered.append(Rendered(face.key, str(path), png))
    return result


def _png_job(job: tuple[list[tuple[str, str]], RenderSettings]) -> list[str]:
    """PNGs for faces drawn earlier without one (--png after a build without)."""
    from pipeline.cards.faces import Art

    items, settings = job
    arts = [Art.from_json(Path(art).read_text(encoding="utf-8")) for art, _ in items]
    for (_, png), data in zip(items, rasterize_arts(arts, settings), strict=True):
        cache_write(Path(png), data)
    return [png for _, png in items]


def rasterize_arts(arts, settings: RenderSettings) -> list[bytes]:
    """PNG bytes of drawn faces at settings.png_dpi: one PDF page each, via pypdfium2."""
    from pipeline.cards.impose import face_pages

    buffer = io.BytesIO()
    face_pages(arts, settings.fonts, settings.charset, buffer)
    return rasterize(buffer.getvalue(), list(range(len(arts))), settings.png_dpi)


def rasterize(pdf: bytes, pages: list[int], dpi: int) -> list[bytes]:
    """PNG bytes of the given pages (0-based) at `dpi`: pypdfium2 renders, Pillow encodes with
    zlib level 1 and no PNG row filter (the fastest setting; same pixels)."""
    import pypdfium2 as pdfium

    out = []
    document = pdfium.PdfDocument(pdf)
    try:
        for index in pages:
            bitmap = document[index].render(scale=dpi / 72)
            out.append(encode_png(bitmap.to_pil(), dpi))
    finally:
        document.close()
    return out


def encode_png(image, dpi: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, dpi=(dpi, dpi))
    return buffer.getvalue()


class Workers:
    """Where faces are drawn. With one worker, in this process. With more, a pool of `count`
    processes, started on first use (forked: they inherit everything already imported)."""

    def __init__(self, count: int, scout: bool = True):
        self.count = count
        self._pool = None

    def map(self, fn, jobs: list, big: bool) -> Iterator:
        if not jobs:
            return
        if self.count <= 1 or not big or len(jobs) == 1:
            yield from map(fn, jobs)
            return
        if self._pool is None:
            self._pool = multiprocessing.get_context("fork").Pool(self.count)
        yield from self._pool.imap(fn, jobs)

    @property
    def running(self) -> bool:
        return self._pool is not None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
        self._pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _split(items: list, parts: int) -> list[list]:
    size = max(1, -(-len(items) // parts))
    return [items[i:i + size] for i in range(0, len(items), size)]


def render_faces(work: list[tuple[list[Face], RenderSettings]], workers: int,
                 progress: Callable[[int], None], batch_size: int = 40,
                 pool: Workers | None = None) -> tuple[dict[str, Rendered], BatchResult]:
    """Drawn faces for every face of every language: measured, sized per deck, then from the
    cache or drawn in batches spread over `workers` processes. `work` pairs faces with their
    language's settings. Problems (text that cannot fit, unknown icons, ...) come back in the
    result; nothing is drawn for a language with problems."""
    from pipeline.cards.faces import choose_sizes

    found: dict[str, Rendered] = {}
    total = BatchResult()
    todo: list[tuple[Face, dict[str, float], str, RenderSettings]] = []
    pngs: list[tuple[str, str, RenderSettings]] = []
    for faces, settings in work:
        measures = {f.key: measure_face(f, settings) for f in faces}
        problems = [Problem(f.entity_id, p.code, p.message, p.field, settings.lang)
                    for f in faces for p in measures[f.key].problems]
        if problems:
            total.problems += problems
            continue
        sizes = choose_sizes(measures)
        for face in faces:
            key = art_key(face, settings, sizes[face.key])
            path = art_path(settings, key)
            if path.is_file():
                png = ""
                if settings.png:
                    png = str(png_path(settings, key))
                    if not Path(png).is_file():
                        pngs.append((str(path), png, settings))
                    else:
                        mark_used(png)
                mark_used(path)
                found[face.key] = Rendered(face.key, str(path), png)
            else:
                todo.append((face, sizes[face.key], key, settings))
    if total.problems:
        return found, total
    progress(len(found))
    own = pool is None
    if own:
        pool = Workers(workers)
    try:
        jobs: list[Job] = []
        by_settings: dict[int, list] = {}
        for face, sizes, key, settings in todo:
            by_settings.setdefault(id(settings), [settings, []])[1].append((face, sizes, key))
        parts = max(1, workers) * 2
        for settings, items in by_settings.values():
            size = min(batch_size, max(8, -(-len(items) // parts)))
            jobs += [(items[i:i + size], settings) for i in range(0, len(items), size)]
        big = len(todo) >= SMALL_RENDER
        for result in pool.map(_draw_job, jobs, big):
            for r in result.rendered:
                found[r.key] = r
            total.rendered.extend(result.rendered)
            total.problems.extend(result.problems)
            progress(len(result.rendered) + len({p.entity_id for p in result.problems}))
        if pngs:
            png_jobs = []
            groups: dict[int, list] = {}
            for art, png, settings in pngs:
                groups.setdefault(id(settings), [settings, []])[1].append((art, png))
            for settings, items in groups.values():
                png_jobs += [(chunk, settings) for chunk in _split(items, parts)]
            list(pool.map(_png_job, png_jobs, len(pngs) >= 8))
    finally:
        if own:
            pool.close()
    return found, total


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)
