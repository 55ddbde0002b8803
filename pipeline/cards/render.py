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
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline.cards.components import Components, Face
from pipeline.cards.formats import PROJECT_ROOT, Format, Profile
from pipeline.cards.prune import mark_used
from pipeline.fsutil import cache_write

ASSETS = PROJECT_ROOT / "assets"
LAYOUTS = PROJECT_ROOT / "templates" / "layouts"
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
    labels: str = "{}"  # the language's captions, as Components.labels keeps them

    @classmethod
    def of(cls, profile: Profile, components: Components, lang: str, **rest: Any
           ) -> RenderSettings:
        """The settings a profile gives one language's faces (`rest`: the other fields)."""
        return cls(fonts=dict(profile.fonts), min_font_pt=profile.min_font_pt,
                   formats=dict(profile.formats), lang=lang, labels=components.labels, **rest)

    def key(self) -> str:
        """What, besides a face's own data, changes its drawing."""
        parts = [RENDERER_VERSION, code_hash(), metadata.version("reportlab"),
                 json.dumps(dict(self.fonts), sort_keys=True), str(self.min_font_pt),
                 hashlib.sha256(self.charset.encode()).hexdigest(),
                 hashlib.sha256(self.labels.encode()).hexdigest(),
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
    """Where a drawn face lives: entry `art_key` of the batch file `batch` (and its PNG)."""

    key: str  # Face.key
    art_key: str  # what the face's drawing depends on: its data, its sizes, the renderer
    batch: str  # cache/faces/<digest>.json: the Art of several faces drawn together
    png: str = ""


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


_TREES: dict[tuple, str] = {}  # the files' paths, times and sizes -> their tree_hash


def tree_hash(root: Path) -> str:
    """The names and bytes of every file under `root`, hashed (read again only when a file's
    time or size changed: the drawing and the book's pictures ask for the same folders)."""
    digest = hashlib.sha256()
    if not root.is_dir():
        return digest.hexdigest()
    files = sorted(p for p in root.rglob("*") if p.is_file())
    stamp = tuple((str(p), st.st_mtime_ns, st.st_size) for p in files for st in [p.stat()])
    if stamp not in _TREES:
        for path in files:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
        _TREES[stamp] = digest.hexdigest()
    return _TREES[stamp]


# ----- one face ----------------------------------------------------------------------------


def layout_name(face: Face) -> str:
    return face.template


def _prepare(face: Face, settings: RenderSettings):
    from pipeline.cards.faces import face_spec, load_layout, scope_for
    from pipeline.cards.faces.expr import keep_compiled_in

    if settings.cache_dir:
        keep_compiled_in(Path(settings.cache_dir) / "jinja")
    ctx = json.loads(face.context)
    ctx["labels"] = dict(_labels(settings.labels))  # a face's own copy, as its context is
    fmt = settings.formats[face.format]
    layout = load_layout(layout_name(face), Path(settings.pack_root))
    spec = face_spec(ctx, fmt, settings.fonts, settings.min_font_pt, settings.lang,
                     settings.pack_root)
    return layout, spec, scope_for(ctx, fmt)


@cache
def _labels(text: str) -> Mapping[str, str]:
    """A language's captions, parsed once per process."""
    return json.loads(text)


def measure_face(face: Face, settings: RenderSettings):
    """The face's FaceMeasure, measured now (the caller keeps them: MeasureCache)."""
    from pipeline.cards.faces import measure

    layout, spec, scope = _prepare(face, settings)
    return measure(layout, spec, scope, face.format)


KEEP_ENTRIES_DAYS = 14  # index entries no build used for longer are dropped


def _today() -> int:
    return int(time.time() // 86400)


class _Entries:
    """A cache file of small entries (key -> value) for one salt: shared by every pack and copy
    of a pack that draws the same faces; entries no build used for two weeks are dropped."""

    def __init__(self, path: Path):
        self.path = path
        self.values: dict[str, Any] = {}
        self.used: dict[str, int] = {}
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.values = {k: v[0] for k, v in data.items()}
                self.used = {k: int(v[1]) for k, v in data.items()}
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                self.values, self.used = {}, {}
        self.before = dict(self.used)

    def touch(self, key: str) -> None:
        self.used[key] = _today()

    def save(self) -> None:
        today = _today()
        keep = {k: [self.values[k], d] for k, d in self.used.items()
                if k in self.values and today - d <= KEEP_ENTRIES_DAYS}
        if self.used != self.before or len(keep) != len(self.used):
            cache_write(self.path, json.dumps(keep, sort_keys=True))
        else:
            mark_used(self.path)


class MeasureCache(_Entries):
    """Every face's FaceMeasure for one salt (language, layouts, renderer): one file."""

    def __init__(self, settings: RenderSettings):
        super().__init__(self.path_of(settings))

    @staticmethod
    def path_of(settings: RenderSettings) -> Path:
        return Path(settings.cache_dir) / "measure" / f"{settings.salt}.json"

    def get(self, face: Face, settings: RenderSettings):
        from pipeline.cards.faces import FaceMeasure

        key = face_cache_key(face, settings)
        value = self.values.get(key)
        if isinstance(value, dict):
            try:
                result = FaceMeasure.from_dict(value)
            except (KeyError, TypeError):
                result = None
        else:
            result = None
        if result is None:
            result = measure_face(face, settings)
            self.values[key] = result.to_dict()
        self.touch(key)
        return result


_MEASURED: dict[str, dict[str, Any]] = {}  # cache folder, faces' cache keys, hashed -> measures


def measures_of(faces: list[Face], settings: RenderSettings) -> dict[str, Any]:
    """Face key -> FaceMeasure of every face, from the measure cache (measured now if it has
    none), kept for the process: a build asks for a language's measures up to three times (the
    book's pictures, the drawing, the book process forked after them)."""
    keys = [face_cache_key(f, settings) for f in faces]
    memo = hashlib.sha256("\0".join([settings.cache_dir, *keys]).encode()).hexdigest()
    found = _MEASURED.get(memo)
    if found is None:
        cache = MeasureCache(settings)
        found = _MEASURED[memo] = {f.key: cache.get(f, settings) for f in faces}
        cache.save()
    else:
        mark_used(MeasureCache.path_of(settings))  # (kept by the cache's pruning: in use)
    return found


def face_cache_key(face: Face, settings: RenderSettings) -> str:
    """The face's data, the salt and its format's sizes (trim, bleed, shape: a vendor's bleed
    or a pack's edited format draws the face again)."""
    fmt = settings.formats.get(face.format)
    return hashlib.sha256(f"{face.key}\0{settings.salt}\0{fmt!r}".encode()).hexdigest()


def art_key(face: Face, settings: RenderSettings, sizes: Mapping[str, float]) -> str:
    return hashlib.sha256(f"{face_cache_key(face, settings)}\0{json.dumps(sizes, sort_keys=True)}"
                          .encode()).hexdigest()


class ArtIndex(_Entries):
    """Which batch file holds the drawing of each art key (one index per salt)."""

    def __init__(self, settings: RenderSettings):
        self.folder = Path(settings.cache_dir) / "faces"
        super().__init__(self.folder / f"index-{settings.salt}.json")

    def batch(self, art: str) -> Path | None:
        name = self.values.get(art)
        if isinstance(name, str) and (self.folder / name).is_file():
            self.touch(art)
            return self.folder / name
        return None

    def put(self, art: str, batch: str) -> None:
        self.values[art] = Path(batch).name
        self.touch(art)


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
    """Draw a batch of faces; their Art goes into one cache file (and their PNGs, with --png)."""
    from pipeline.cards.faces import Art

    faces, settings = job
    result = BatchResult()
    arts: dict[str, Art] = {}
    done: list[tuple[Face, str]] = []
    for face, sizes, key in faces:
        art, problems = draw_face(face, settings, sizes, key)
        for p in problems:
            result.problems.append(Problem(face.entity_id, p.code, p.message, p.field,
                                           settings.lang))
        if not problems:
            arts[key] = art
            done.append((face, key))
    if not arts:
        return result
    text = json.dumps({k: a.to_dict() for k, a in sorted(arts.items())}, sort_keys=True)
    batch = Path(settings.cache_dir) / "faces" / f"{hashlib.sha256(text.encode()).hexdigest()}.json"
    if not batch.is_file():
        cache_write(batch, text)
    pngs = rasterize_arts([arts[k] for _, k in done], settings) if settings.png else []
    for n, (face, key) in enumerate(done):
        png = ""
        if settings.png:
            png = str(png_path(settings, key))
            cache_write(Path(png), pngs[n])
        result.rendered.append(Rendered(face.key, key, str(batch), png))
    return result


def _png_job(job: tuple[list[tuple[str, str, str]], RenderSettings]) -> list[str]:
    """PNGs for faces drawn earlier without one (--png after a build without)."""
    from pipeline.cards.impose import load_art

    items, settings = job
    arts = [load_art(batch, key) for batch, key, _ in items]
    for (_, _, png), data in zip(items, rasterize_arts(arts, settings), strict=True):
        cache_write(Path(png), data)
    return [png for _, _, png in items]


def rasterize_arts(arts, settings: RenderSettings) -> list[bytes]:
    """PNG bytes of drawn faces at settings.png_dpi: one PDF page each, via pypdfium2."""
    from pipeline.cards.impose import face_pages

    buffer = io.BytesIO()
    face_pages(arts, settings.fonts, settings.charset, buffer)
    return rasterize(buffer.getvalue(), list(range(len(arts))), settings.png_dpi)


def rasterize(pdf: bytes, pages: list[int], dpi: int) -> list[bytes]:
    """PNG bytes of the given pages (0-based) at `dpi`: pypdfium2 renders RGB, pypng encodes
    with no row filter and zlib level 1 (the same pixels as Pillow's adaptive filtering, in
    about 60 % of the time and in smaller files for these flat-coloured faces)."""
    import pypdfium2 as pdfium

    out = []
    document = pdfium.PdfDocument(pdf)
    try:
        for index in pages:
            bitmap = document[index].render(scale=dpi / 72, rev_byteorder=True)
            out.append(encode_png(bitmap, dpi))
    finally:
        document.close()
    return out


def encode_png(bitmap, dpi: int) -> bytes:
    """A pypdfium2 RGB bitmap as PNG bytes (filter type 0, zlib level 1, pHYs at `dpi`)."""
    import png

    view = memoryview(bitmap.buffer).cast("B")
    width, height, stride, channels = bitmap.width, bitmap.height, bitmap.stride, \
        bitmap.n_channels
    rows = (view[r * stride:r * stride + width * channels] for r in range(height))
    per_metre = round(dpi / 0.0254)
    buffer = io.BytesIO()
    png.Writer(width, height, greyscale=False, alpha=channels == 4, bitdepth=8, compression=1,
               x_pixels_per_unit=per_metre, y_pixels_per_unit=per_metre,
               unit_is_meter=True).write(buffer, rows)
    return buffer.getvalue()


def face_page(rendered: Rendered, settings: RenderSettings) -> bytes:
    """A one-page PDF of a drawn face (its bleed box), e.g. to rasterize a picture of it."""
    from pipeline.cards.faces import icons
    from pipeline.cards.impose import face_pages, load_art

    art = load_art(rendered.batch, rendered.art_key)
    # its icons' operators from the cache, as the writers take them: a process that has not
    # read them would otherwise draw each icon's SVG again (svglib: 0.14 s for the first)
    icons.prepare(art.forms, Path(settings.cache_dir))
    buffer = io.BytesIO()
    face_pages([art], settings.fonts, settings.charset, buffer)
    return buffer.getvalue()


def lookup(face: Face, faces: list[Face], settings: RenderSettings) -> Rendered | None:
    """The drawn face from the cache, if a build drew it: `faces` are all the faces of its
    language (the deck's type size depends on them); None when it is not drawn yet."""
    from pipeline.cards.faces import choose_sizes

    sizes = choose_sizes(measures_of(faces, settings))
    key = art_key(face, settings, sizes[face.key])
    batch = ArtIndex(settings).batch(key)
    return Rendered(face.key, key, str(batch)) if batch else None


class Workers:
    """Where faces are drawn. With one worker, in this process. With more, a pool of `count`
    processes, started on first use (forked: they inherit everything already imported)."""

    def __init__(self, count: int):
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
    pngs: list[tuple[str, str, str, RenderSettings]] = []
    indexes: list[tuple[ArtIndex, list[Face]]] = []
    for faces, settings in work:
        measures = measures_of(faces, settings)
        problems = [Problem(f.entity_id, p.code, p.message, p.field, settings.lang)
                    for f in faces for p in measures[f.key].problems]
        if problems:
            total.problems += problems
            continue
        sizes = choose_sizes(measures)
        index = ArtIndex(settings)
        indexes.append((index, faces))
        for face in faces:
            key = art_key(face, settings, sizes[face.key])
            batch = index.batch(key)
            if batch is None:
                todo.append((face, sizes[face.key], key, settings))
                continue
            png = ""
            if settings.png:
                png = str(png_path(settings, key))
                if Path(png).is_file():
                    mark_used(png)
                else:
                    pngs.append((str(batch), key, png, settings))
            found[face.key] = Rendered(face.key, key, str(batch), png)
    if total.problems:
        return found, total
    mark_used(*{r.batch for r in found.values()})
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
            size = min(max(batch_size, 8), max(8, -(-len(items) // parts)))
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
            for batch, key, png, settings in pngs:
                groups.setdefault(id(settings), [settings, []])[1].append((batch, key, png))
            for settings, items in groups.values():
                png_jobs += [(chunk, settings) for chunk in _split(items, parts)]
            list(pool.map(_png_job, png_jobs, len(pngs) >= 8))
    finally:
        if own:
            pool.close()
    if not total.problems:
        for index, faces in indexes:
            for face in faces:
                r = found[face.key]
                index.put(r.art_key, r.batch)
            index.save()
    return found, total


