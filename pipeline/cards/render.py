"""Faces -> rendered PDF pages: Jinja2 HTML, WeasyPrint in batches, fit-to-box, cache.

Many faces share one WeasyPrint document (one face per page): the per-document overhead
dominates, so a batch of faces costs little more than one. Batches run in worker processes.
Each batch document starts with a *charset page* that sets every character of the build in
every font style, so each batch embeds the very same font subsets: a face renders to the same
bytes whichever batch it is in, and imposition can share one font object across batches.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import metadata
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pipeline.cards.components import Face
from pipeline.cards.formats import PROJECT_ROOT, Format
from pipeline.cards.prune import mark_used
from pipeline.fsutil import inside

TEMPLATES = PROJECT_ROOT / "templates" / "cards"
ASSETS = PROJECT_ROOT / "assets"
ICONS = ASSETS / "icons"
RENDERER_VERSION = "1"
# Fixed timestamps inside embedded fonts (fontTools reads SOURCE_DATE_EPOCH when it subsets):
# two builds of the same input must be byte-identical. 1980-01-01, unless the caller sets one.
SOURCE_DATE_EPOCH = os.environ.setdefault("SOURCE_DATE_EPOCH", "315532800")
ICON = re.compile(r":([a-z0-9]+(?:-[a-z0-9]+)*):")
FIT_START = re.compile(r'data-fit-start="([0-9]+(?:\.[0-9]+)?)"')
SMALL_RENDER = 24  # fewer faces than this render in-process: starting workers costs more


@dataclass(frozen=True)
class RenderSettings:
    fonts: Mapping[str, str]
    min_font_pt: float
    formats: Mapping[str, Format]
    charset: str
    pack_root: str
    cache_dir: str
    lang: str
    png_dpi: int = 300
    png: bool = True  # also rasterize each face to PNG
    start_font_pt: float = 9.5
    step_pt: float = 0.5
    salt: str = ""  # settings.key(), computed once by the caller (dataclasses.replace)

    def key(self) -> str:
        """What, besides a face's own data, changes its rendered bytes."""
        code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # this renderer
        parts = [RENDERER_VERSION, code, SOURCE_DATE_EPOCH, metadata.version("weasyprint"),
                 json.dumps(dict(self.fonts)),
                 str(self.min_font_pt), str(self.start_font_pt), str(self.step_pt),
                 hashlib.sha256(self.charset.encode()).hexdigest(),
                 tree_hash(TEMPLATES), tree_hash(ASSETS)]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()


@dataclass(frozen=True)
class Rendered:
    """Where a face's page lives: page `page` of the cached PDF `pdf`, and its PNG."""

    key: str
    pdf: str
    page: int
    png: str


@dataclass
class Problem:
    entity_id: str
    code: str
    message: str


@dataclass
class BatchResult:
    rendered: list[Rendered] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def cache_write(path: Path, data: bytes | str) -> None:
    """Write a cache file: temp file + rename, without fsync (the cache can be rebuilt, and an
    fsync per face would cost more than rendering it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(payload)
    os.replace(tmp, path)


def tree_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


# ----- templates ---------------------------------------------------------------------------


@cache
def icon_names() -> frozenset[str]:
    return frozenset(p.stem for p in ICONS.glob("*.svg"))


class UnknownIcon(Exception):
    pass


def rich_text(value: Any) -> Markup:
    """Escaped text with `:name:` replaced by the icon assets/icons/<name>.svg, newlines as <br>."""
    if value is None:
        return Markup("")
    names = icon_names()
    out: list[str] = []
    pos = 0
    text = str(value)
    for match in ICON.finditer(text):
        if match[1] not in names:
            raise UnknownIcon(f"unknown icon :{match[1]}: (known: {', '.join(sorted(names))})")
        out.append(escape(text[pos:match.start()]))
        url = (ICONS / f"{match[1]}.svg").as_uri()
        out.append(f'<img class="icon" alt="{match[1]}" src="{url}">')
        pos = match.end()
    out.append(escape(text[pos:]))
    return Markup("".join(out).replace("\n", "<br>"))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.ChainableUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["rich"] = rich_text
    return env


def _fragment(face: Face, fmt: Format, settings: RenderSettings) -> str:
    ctx = json.loads(face.context)
    entity = ctx.get("entity") or {}
    provisional = entity.get("provisional") or {}

    def mark(path: str = "") -> Markup:
        """A small proof mark when the value at `path` (or the whole entity) is provisional."""
        if not ctx.get("proof"):
            return Markup("")
        reason = provisional.get(path) or provisional.get("")
        if path == "*":
            reason = reason or next(iter(provisional.values()), None)
        if not reason:
            return Markup("")
        return Markup('<span class="provisional" title="{}">P</span>').format(reason)

    def ref(entity_id: str) -> Any:
        return ctx.get("refs", {}).get(entity_id, {"id": entity_id, "name": entity_id})

    def asset(path: str) -> str:
        """A URL for an image inside the pack folder or the project's assets; refuses others."""
        if not isinstance(path, str) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", path) \
                or path.startswith("/") or "\\" in path:
            raise UnsafeAsset(path)
        for root in (Path(settings.pack_root), ASSETS):
            candidate = root / path
            if inside(candidate, (root.resolve(),)) and candidate.is_file():
                return candidate.resolve().as_uri()
        raise UnsafeAsset(path)

    fmt_ctx = {"name": fmt.name, "width": fmt.width, "height": fmt.height, "bleed": fmt.bleed,
               "shape": fmt.shape}
    template = environment().get_template(face.template)
    return template.render(**ctx, format=fmt_ctx, mark=mark, ref=ref, asset=asset)


class UnsafeAsset(Exception):
    pass


# ----- font subsets ------------------------------------------------------------------------


_subset_home: dict[str, Path] = {}
"""The cache folder the installed subset cache writes to (the latest build's)."""


def install_subset_cache(cache_dir: Path) -> None:
    """Reuse font subsets across batch documents.

    Every batch embeds the same glyph set (the charset page), so WeasyPrint would compute the
    very same subset for every batch, which is the slowest step when HarfBuzz-subset is missing
    (fontTools then takes ~0.15 s per font per document). The subset is a pure function of the
    font bytes, the glyph ids and the options, so it is kept in memory and on disk by that key.
    """
    from weasyprint.pdf import fonts

    _subset_home["dir"] = Path(cache_dir)  # this build's cache, also when already installed
    font_class = getattr(fonts, "Font", None)
    original = getattr(font_class, "subset", None)
    if original is None or getattr(original, "_relic_cached", False):
        return
    memory: dict[str, bytes] = {}
    font_digests: dict[tuple[int, int], bytes] = {}  # (size, crc32) -> sha256

    def subset(self, to_unicode, hinting):
        if not to_unicode:
            return original(self, to_unicode, hinting)
        font_key = (len(self.file_content), zlib.crc32(self.file_content))
        if font_key not in font_digests:  # hashing 700 KB of font per document adds up
            font_digests[font_key] = hashlib.sha256(self.file_content).digest()
        digest = hashlib.sha256(font_digests[font_key])
        digest.update(repr((self.index, sorted(to_unicode), bool(hinting), bool(self.missing),
                            SOURCE_DATE_EPOCH)).encode())
        key = digest.hexdigest()
        path = _subset_home["dir"] / "fonts" / f"{key}.bin"
        on_disk = path.is_file()
        if key not in memory and on_disk:
            memory[key] = path.read_bytes()
        if key in memory:
            self.file_content = memory[key]
        else:
            original(self, to_unicode, hinting)
            memory[key] = self.file_content
        if on_disk:
            mark_used(path)
        else:
            cache_write(path, memory[key])
        return None

    subset._relic_cached = True
    font_class.subset = subset


# ----- documents ---------------------------------------------------------------------------


def _page_css(fmt: Format, settings: RenderSettings) -> str:
    b = fmt.bleed
    return (
        f"@page {{ size: {fmt.bleed_width}mm {fmt.bleed_height}mm; margin: 0 }}\n"
        f"html {{ font-family: '{settings.fonts['body']}'; }}\n"
        f".title-font {{ font-family: '{settings.fonts['title']}'; }}\n"
        f"section.face {{ width: {fmt.bleed_width}mm; height: {fmt.bleed_height}mm; }}\n"
        f".trim {{ left: {b}mm; top: {b}mm; width: {fmt.width}mm; height: {fmt.height}mm; }}\n"
        f".fit {{ font-size: {settings.start_font_pt}pt; }}\n"
    )


def _charset_page(settings: RenderSettings, families: Iterable[str] | None = None) -> str:
    # spaces inside the run (a leading or line-final space would be collapsed and not drawn)
    glyphs = [ch for ch in settings.charset if not ch.isspace()]
    spaces = "".join(ch for ch in settings.charset if ch.isspace())
    text = escape(glyphs[0] + "".join(f"{sp}{glyphs[0]}" for sp in spaces) + "".join(glyphs[1:]))
    styles = []
    for fam in families or dict.fromkeys(settings.fonts.values()):
        for weight in ("normal", "bold"):  # the styles templates use (no italics)
            styles.append(f"<p style=\"font-family:'{fam}';font-weight:{weight}\">{text}</p>")
    return f'<section class="charset">{"".join(styles)}</section>'


@cache
def _stylesheet():
    """cards.css, parsed once per process (parsing it per document cost ~50 ms)."""
    import weasyprint

    from pipeline.cards.fetcher import SafeFetcher

    return weasyprint.CSS(string=(TEMPLATES / "cards.css").read_text(encoding="utf-8"),
                          base_url=TEMPLATES.as_uri() + "/",
                          url_fetcher=SafeFetcher((ASSETS, TEMPLATES)))


def _document(fragments: list[tuple[int, str, float]], fmt: Format,
              settings: RenderSettings) -> str:
    sizes = "".join(f"#f{i} .fit {{ font-size: {pt}pt; }}\n" for i, _, pt in fragments)
    body = "".join(f'<section class="face" id="f{i}">{html}</section>' for i, html, _ in fragments)
    return (
        f'<!DOCTYPE html><html lang="{settings.lang}"><head><meta charset="utf-8">'
        f"<style>{_page_css(fmt, settings)}{sizes}</style></head>"
        f"<body>{_charset_page(settings)}{body}</body></html>"
    )


def _overflow(page_box) -> float:
    """How much too big the text of the page's `.fit` boxes is: 1.0 or less when it fits,
    content height / box height when it runs past the bottom, infinity when a word is too
    wide for its box."""
    worst = 0.0
    stack = [page_box]
    while stack:
        box = stack.pop()
        children = getattr(box, "children", None) or []
        element = getattr(box, "element", None)
        classes = (element.get("class") or "").split() if element is not None else []
        if "fit" in classes and getattr(box, "element_tag", None) and children:
            top = box.content_box_y()
            bottom = max(c.position_y + c.margin_height() for c in children)
            if bottom > top + box.height + 0.5:
                worst = max(worst, (bottom - top) / max(box.height, 1e-6))
            elif _too_wide(box):
                worst = float("inf")
            continue
        stack.extend(children)
    return worst


def _smaller(size: float, ratio: float, step: float) -> float:
    """The next size to try: text area grows with the square of the size, so jump to
    size / sqrt(ratio) (rounded down to a step), and always at least one step down."""
    guess = size / ratio ** 0.5 if ratio != float("inf") else size - step
    return round(min(size - step, int(guess / step) * step), 3)


def _too_wide(fit) -> bool:
    """A text run that ends beyond the right edge of its `.fit` box (a word too long)."""
    right = fit.content_box_x() + fit.width + 0.5
    stack = list(fit.children)
    while stack:
        box = stack.pop()
        if type(box).__name__ == "TextBox" and box.position_x + box.width > right:
            return True
        stack.extend(getattr(box, "children", None) or [])
    return False


def render_batch(faces: list[Face], settings: RenderSettings, fmt_name: str) -> BatchResult:
    """Render faces of one format in as few WeasyPrint documents as fitting allows."""
    import weasyprint

    from pipeline.cards.fetcher import SafeFetcher

    fmt = settings.formats[fmt_name]
    install_subset_cache(Path(settings.cache_dir))
    result = BatchResult()
    fetcher = SafeFetcher((ASSETS, TEMPLATES, Path(settings.pack_root)))
    sizes: dict[str, float] = {}
    pending = list(faces)
    while pending:
        fragments, ok_faces = [], []
        for face in pending:
            try:
                html = _fragment(face, fmt, settings)
                if face.key not in sizes:  # a template may start bigger: data-fit-start="12"
                    start = FIT_START.search(html)
                    sizes[face.key] = float(start[1]) if start else settings.start_font_pt
                fragments.append((len(ok_faces), html, sizes[face.key]))
                ok_faces.append(face)
            except UnknownIcon as exc:
                result.problems.append(Problem(face.entity_id, "unknown-icon", str(exc)))
            except UnsafeAsset as exc:
                result.problems.append(Problem(
                    face.entity_id, "unsafe-asset",
                    f"image {exc.args[0]!r} is outside the pack and the project's assets"))
            except (jinja2.TemplateError, TypeError, ValueError, KeyError) as exc:
                result.problems.append(Problem(face.entity_id, "template-error",
                                               f"{face.template}: {type(exc).__name__}: {exc}"))
        if not ok_faces:
            break
        html = _document(fragments, fmt, settings)
        doc = weasyprint.HTML(string=html, base_url=TEMPLATES.as_uri() + "/",
                              url_fetcher=fetcher).render(stylesheets=[_stylesheet()])
        lead = len(doc.pages) - len(ok_faces)  # pages taken by the charset section
        done, retry = [], []
        for i, face in enumerate(ok_faces):
            ratio = _overflow(doc.pages[lead + i]._page_box)
            if ratio > 1.0:
                smaller = _smaller(sizes[face.key], ratio, settings.step_pt)
                if sizes[face.key] <= settings.min_font_pt + 1e-6:
                    result.problems.append(Problem(
                        face.entity_id, "text-overflow",
                        f"text of {face.side} face does not fit its box even at "
                        f"{settings.min_font_pt:g} pt ({face.template})"))
                else:
                    sizes[face.key] = max(smaller, settings.min_font_pt)
                    retry.append(face)
            else:
                done.append(i)
        if done:
            _write(doc, lead, done, ok_faces, settings, result)
        pending = retry
    result.refused = list(fetcher.refused)
    return result


def _write(doc, lead: int, done: list[int], faces: list[Face], settings: RenderSettings,
           result: BatchResult) -> None:
    pages = doc.pages[:lead] + [doc.pages[lead + i] for i in done]
    pdf = doc.copy(pages).write_pdf(pdf_identifier=b"relic-press-face-batch")
    cache_dir = Path(settings.cache_dir)
    name = hashlib.sha256(pdf).hexdigest()
    pdf_path = cache_dir / "batches" / f"{name}.pdf"
    if not pdf_path.exists():
        cache_write(pdf_path, pdf)
    pages = [lead + n for n in range(len(done))]
    pngs = rasterize(pdf, pages, settings.png_dpi) if settings.png else [b""] * len(done)
    for n, i in enumerate(done):
        face = faces[i]
        png = ""
        if settings.png:
            png = str(png_path(face, settings))
            cache_write(Path(png), pngs[n])
        result.rendered.append(Rendered(face.key, str(pdf_path), lead + n, png))


def png_path(face: Face, settings: RenderSettings) -> Path:
    return Path(settings.cache_dir) / "png" / (
        f"{face_cache_key(face, settings)}-{settings.png_dpi}.png")


def rasterize(pdf: bytes, pages: list[int], dpi: int) -> list[bytes]:
    """PNG bytes of the given pages (0-based) at `dpi`, via pypdfium2."""
    import io

    import pypdfium2 as pdfium

    out = []
    document = pdfium.PdfDocument(pdf)
    try:
        for index in pages:
            bitmap = document[index].render(scale=dpi / 72)
            image = bitmap.to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", compress_level=1, compress_type=3, dpi=(dpi, dpi))
            out.append(buffer.getvalue())
    finally:
        document.close()
    return out


# ----- the cache and the pool --------------------------------------------------------------


def face_cache_key(face: Face, settings: RenderSettings) -> str:
    return hashlib.sha256(f"{face.key}\0{settings.salt}".encode()).hexdigest()


def cached(face: Face, settings: RenderSettings) -> Rendered | None:
    entry = Path(settings.cache_dir) / "faces" / f"{face_cache_key(face, settings)}.json"
    if not entry.is_file():
        return None
    data = json.loads(entry.read_text(encoding="utf-8"))
    if not Path(data["pdf"]).is_file():
        return None
    png = ""
    if settings.png:  # rendered earlier without its PNG (--no-png): rasterize it now
        png = str(png_path(face, settings))
        if not Path(png).is_file():
            pdf = Path(data["pdf"]).read_bytes()
            cache_write(Path(png), rasterize(pdf, [data["page"]], settings.png_dpi)[0])
    mark_used(entry, *([png] if png else []))  # the batch PDFs: once each, by the caller
    return Rendered(face.key, data["pdf"], data["page"], png)


def remember(face: Face, rendered: Rendered, settings: RenderSettings) -> None:
    entry = Path(settings.cache_dir) / "faces" / f"{face_cache_key(face, settings)}.json"
    cache_write(entry, json.dumps({"pdf": rendered.pdf, "page": rendered.page}))


def batches(faces: list[Face], workers: int, max_size: int = 40) -> list[tuple[str, list[Face]]]:
    """Faces grouped by format, split into near-equal batches, biggest first (deterministic)."""
    out = []
    by_format: dict[str, list[Face]] = {}
    for face in sorted(faces, key=lambda f: (f.format, f.side, f.entity_id, f.key)):
        by_format.setdefault(face.format, []).append(face)
    for fmt, group in sorted(by_format.items()):
        n = max(-(-len(group) // max_size), min(workers, -(-len(group) // 8)))
        size = -(-len(group) // n)
        out.extend((fmt, group[i:i + size]) for i in range(0, len(group), size))
    return sorted(out, key=lambda job: -len(job[1]))


def _run(job: tuple[list[Face], RenderSettings, str]) -> BatchResult:
    faces, settings, fmt = job
    return render_batch(faces, settings, fmt)


def warm_fonts(job: tuple[str, RenderSettings]) -> None:
    """Subset one font family for this build's charset, so that batches find it in the cache.

    Every batch embeds the same subsets; computing them once per family, in parallel, before
    the batches start saves each worker from computing all of them again.
    """
    import weasyprint

    from pipeline.cards.fetcher import SafeFetcher

    family, settings = job
    install_subset_cache(Path(settings.cache_dir))
    html = (f'<!DOCTYPE html><html lang="{settings.lang}"><head><meta charset="utf-8"><style>'
            f"{(TEMPLATES / 'cards.css').read_text(encoding='utf-8')}</style></head><body>"
            f"{_charset_page(settings, [family])}</body></html>")
    weasyprint.HTML(string=html, url_fetcher=SafeFetcher((TEMPLATES,))).write_pdf()


class Workers:
    """Where faces render. With one worker, in this process. With more, one process, the
    scout, starts at once: `relic build` creates it before it loads the model, so that its
    import of WeasyPrint (about 0.4 s) overlaps that. A small render (after an edit) runs on
    the scout; a big one (a cold build) on a pool of `count` processes.
    """

    def __init__(self, count: int, scout: bool = True):
        self.count = count
        self._scout = _fork_pool(1) if count > 1 and scout else None
        self._pool = None

    def run(self, jobs: list[tuple[list[Face], RenderSettings, str]],
            big: bool) -> Iterator[BatchResult]:
        """Every job's result, in order."""
        if not jobs:
            return
        if self.count <= 1 or (not big and self._scout is None):
            yield from map(_run, jobs)
        elif not big:
            yield from self._scout.apply(_run_all, (jobs,))
        else:
            self.close()  # the scout is one process: a big render wants them all
            self._pool = _fork_pool(self.count)
            first = jobs[0][1]  # every language shares the charset, hence the font subsets
            families = [(f, first) for f in dict.fromkeys(first.fonts.values())]
            list(self._pool.imap(warm_fonts, families))
            yield from self._pool.imap(_run, jobs)

    @property
    def running(self) -> bool:
        return self._scout is not None or self._pool is not None

    def close(self) -> None:
        for pool in (self._scout, self._pool):
            if pool is not None:
                pool.terminate()
                pool.join()
        self._scout = self._pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fork_pool(processes: int):
    """Forked processes inherit everything imported so far; each warms up WeasyPrint."""
    return multiprocessing.get_context("fork").Pool(processes, initializer=_preload)


def _run_all(jobs: list[tuple[list[Face], RenderSettings, str]]) -> list[BatchResult]:
    return [_run(job) for job in jobs]


def _preload() -> None:
    """Import what rendering needs (WeasyPrint alone takes about 0.4 s)."""
    import pypdfium2  # noqa: F401
    import weasyprint  # noqa: F401


def render_faces(work: list[tuple[list[Face], RenderSettings]], workers: int,
                 progress: Callable[[int], None], batch_size: int = 40,
                 pool: Workers | None = None) -> tuple[dict[str, Rendered], BatchResult]:
    """Rendered pages for every face of every language: from the cache, else rendered in
    batches spread over `workers` processes. `work` pairs faces with their language's settings.
    Fewer than SMALL_RENDER faces render on `pool`'s scout, or without one in this process."""
    found: dict[str, Rendered] = {}
    todo: dict[str, tuple[Face, RenderSettings]] = {}
    jobs = []
    for faces, settings in work:
        missing = []
        for face in faces:
            hit = cached(face, settings)
            if hit:
                found[face.key] = hit
            else:
                missing.append(face)
                todo[face.key] = (face, settings)
        jobs += [(group, settings, fmt) for fmt, group in batches(missing, workers, batch_size)]
    mark_used(*{hit.pdf for hit in found.values()})
    progress(len(found))
    jobs.sort(key=lambda job: -len(job[0]))  # biggest first: the workers finish together
    total = BatchResult()
    own = None
    if pool is None:
        own = pool = Workers(workers, scout=False)
    try:
        for result in pool.run(jobs, big=len(todo) >= SMALL_RENDER and len(jobs) > 1):
            for rendered in result.rendered:
                face, settings = todo[rendered.key]
                remember(face, rendered, settings)
                found[rendered.key] = rendered
            total.rendered.extend(result.rendered)
            total.problems.extend(result.problems)
            total.refused.extend(result.refused)
            progress(len(result.rendered))
    finally:
        if own is not None:
            own.close()
    return found, total


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)
