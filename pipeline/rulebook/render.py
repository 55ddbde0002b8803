"""The book's units laid out in parallel, each cached on everything it is made of, until every
page number printed is the real one; then assembled into one PDF, cached too.

A unit's layout is a pure function of its HTML (page numbers filled in, its first page's
number, its CSS), the fonts and the code: that is its cache key. The component pictures it
shows are not part of it: every picture prints at its CSS size, so a unit is laid out with a
placeholder in each picture's place, and the assembly puts the real pictures in
(`assemble.py`). A card edit that the book's text does not print lays out nothing, and the
layouts never wait for the card build to draw the pictures; only the assembly does. Page
numbers come from the previous round of layout: the first round takes them from the last build
of the same book. A book never laid out with this cache is first laid out whole on guessed
numbers, or, when each worker has a book of its own (`in_order`), unit by unit in book order,
so that each unit's first page and the pages it points back to are known, and only the units
that point forward are laid out twice. Every later round lays out only the units
whose numbers changed, and the book is done when a round changes none. An edit that leaves
the book's HTML and pictures alone costs one HTML rendering and cache lookups; an edit inside
one chapter lays out that chapter alone, unless it moves pages. A book whose record says that
only pictures changed, or the words of a block it draws apart (`blocks.py`: laid out as a
placeholder of its measured size, like a picture), is not composed at all: `reassemble` takes
its laid-out units from the cache and assembles them with the new pictures and drawings.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from pipeline.rulebook.blocks import height_mm
from pipeline.rulebook.layout import LaidOut, UnitJob, lay_out
from pipeline.rulebook.pictures import Pictures, raster_file, raster_path
from pipeline.rulebook.record import DrawnBlock, Reassembly
from pipeline.rulebook.views import PICTURES_URL

if TYPE_CHECKING:  # (the book's composition is not imported by a book assembled again)
    from pipeline.rulebook.book import Composed, Unit

HERE = Path(__file__).resolve().parent
MAX_ROUNDS = 5
PLACEHOLDER = "placeholder-1"  # how units are laid out: a placeholder in each picture's place
GUESS = "00"  # a page number nobody has laid out yet: two digits wide, like most


@cache
def code_key() -> str:
    """What besides a unit's HTML and pictures changes its PDF: the layout code, the libraries
    (the font subsetter among them) and the font files."""
    from pipeline.rulebook.glyphs import font_identity
    from pipeline.rulebook.subsets import SOURCE_DATE_EPOCH, subsetter

    digest = hashlib.sha256(SOURCE_DATE_EPOCH.encode())
    digest.update(subsetter().encode())
    for name in ("layout.py", "pdf.py", "assemble.py", "subsets.py"):
        digest.update((HERE / name).read_bytes())
    for lib in ("weasyprint", "pydyf", "fonttools", "pikepdf", "pypdfium2", "pillow"):
        digest.update(f"{lib}={metadata.version(lib)}\0".encode())
    digest.update(font_identity().encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Finished:
    """The book's PDF in the cache, and how it was made."""

    pdf: Path
    units: int
    laid_out: int  # units laid out by this build (0: every unit came from the cache)
    rounds: int
    cached: bool  # the assembled book itself came from the cache
    files: tuple[str, ...] = ()  # every cache file the book is made of (kept while it is used)
    plan: Reassembly | None = None  # how to assemble the same units with other pictures


class PageMap:
    """Where every unit starts and every anchor is, in printed page numbers."""

    def __init__(self, firsts: Mapping[str, int], pages: Mapping[str, int]):
        self.firsts = dict(firsts)
        self.pages = dict(pages)

    @classmethod
    def of(cls, units: list[Unit], laid: Mapping[str, LaidOut]) -> PageMap:
        """The map of the laid-out units; of a prefix, while the book is being laid out in
        order: it stops at the first unit not laid out yet, and gives that unit's first page,
        and the page of the anchors of its heading (`leading_anchors`), on that page."""
        firsts, pages, page = {}, {}, 1
        for unit in units:
            firsts[unit.name] = page
            if unit.name not in laid:
                for name in leading_anchors(unit):
                    pages.setdefault(name, page)
                break
            for name, (n, _, _) in laid[unit.name].anchors.items():
                pages.setdefault(name, page + n)
            page += laid[unit.name].pages
        return cls(firsts, pages)

    def number(self, target: str) -> str:
        return str(self.pages[target]) if target in self.pages else GUESS

    def same_for(self, unit: Unit, other: PageMap) -> bool:
        return self.firsts.get(unit.name) == other.firsts.get(unit.name) and all(
            self.number(t) == other.number(t) for t in unit.targets)

    def save(self, path: Path) -> None:
        from pipeline.fsutil import cache_write

        cache_write(path, json.dumps({"firsts": self.firsts, "pages": self.pages},
                                     ensure_ascii=False, sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> PageMap:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(data["firsts"], data["pages"])
        except (OSError, ValueError, KeyError):
            return cls({}, {})


def map_file(root: Path, book_id: str) -> Path:
    """Where the rulebook cache `root` keeps the page map of the last build of a book."""
    return root / "maps" / f"{_sha(book_id)}.json"


class BookRenderer:
    """Lays out one composed book through the cache (`cache_dir/rulebook/`)."""

    def __init__(self, composed: Composed, pictures: Pictures, cache_dir: Path,
                 roots: tuple[Path, ...], book_id: str):
        self.composed = composed
        self.pictures = pictures
        self.root = Path(cache_dir) / "rulebook"
        self.roots = tuple(str(r.resolve()) for r in roots)
        self.charset = composed.charset()
        self.map_file = map_file(self.root, book_id)
        self.base = _sha(code_key(), self.charset)

    def rasters(self, units: list[Unit]) -> dict[str, Path]:
        """Picture URL path -> its raster file, for every picture the units show (and the
        drawing of every block drawn apart they show)."""
        paths = sorted({p for u in units for p in u.pictures})
        drawn = {p: self.composed.drawn[p] for p in paths if p in self.composed.drawn}
        return {**_rasters(self.pictures, {p: self.composed.pictures[p] for p in paths
                                           if p in self.composed.pictures}, self.root),
                **_drawings(drawn, self.root)}

    def files(self, unit: Unit) -> dict[str, str]:
        """Picture URL path -> the placeholder the unit is laid out with."""
        return {path: str(self.placeholder()) for path in unit.pictures}

    def placeholder(self) -> Path:
        from PIL import Image

        from pipeline.fsutil import cache_write

        path = self.root / "pictures" / f"{PLACEHOLDER}.png"
        if not path.is_file():
            import io

            buffer = io.BytesIO()
            Image.new("RGB", (1, 1), (235, 230, 220)).save(buffer, format="PNG")
            cache_write(path, buffer.getvalue())
        return path

    def job(self, unit: Unit, pages: PageMap, write: bool = True) -> UnitJob:
        """The unit on `pages`. A round that only finds where pages break (`write` False)
        leaves out the charset page: it follows a page break, and only the written PDF
        needs its fonts."""
        html = self.composed.html(unit, pages.number, pages.firsts.get(unit.name, 1),
                                  self.charset if write else "")
        from pipeline.rulebook.book import TEMPLATES

        files = self.files(unit)
        key = _sha(self.base, unit.name, html, PLACEHOLDER, *_file_digests(html))
        return UnitJob(key, html, str(TEMPLATES), self.roots, files,
                       str(self.root / "units" / f"{key}.pdf"), str(self.root.parent), write)

    def cached(self, job: UnitJob) -> LaidOut | None:
        from pipeline.cards.prune import mark_used

        entry = self.root / "units" / f"{job.key}.json"
        found = LaidOut.load(entry) if entry.is_file() else None
        if found is not None:
            mark_used(entry, found.pdf, *job.files.values())
        return found

    def run(self, executor: Executor | None = None,
            progress: Callable[[int, int, int], None] | None = None,
            in_order: bool = False) -> Finished:
        """`progress(round, units done, units to lay out in this round)`. `in_order`: a book
        no build has laid out is laid out unit by unit in book order (`_in_order`): fewer
        layouts, but the book's units one at a time, worth it when the workers have a book
        each; otherwise its first round lays every unit out at once on guessed numbers."""
        units = list(self.composed.units)
        with ThreadPoolExecutor(1, thread_name_prefix="relic-rasters") as beside:
            # the pictures do not depend on the layout: rasterized while the workers lay out
            rastering = beside.submit(self.rasters, units)
            laid, made, rounds = self._lay_out(units, executor, progress, in_order)
            rasters = rastering.result()
        ordered = [laid[u.name] for u in units]
        pictures, drawn = self.composed.pictures, self.composed.drawn
        shown = sorted(p for p in rasters if p in pictures)
        plan = Reassembly(self.base, self.composed.title, self.composed.lang,
                          tuple(u.key for u in ordered),
                          tuple((p, pictures[p][0].entity_id, pictures[p][1], pictures[p][0].aspect)
                                for p in shown),
                          tuple(DrawnBlock(p, drawn[p].spec, height_mm(drawn[p]), drawn[p].key,
                                           self.composed.drawn_read[p])
                                for p in sorted(rasters) if p in drawn))
        keys = {**{p: pictures[p][0].key for p in shown},
                **{p: drawn[p].key for p in rasters if p in drawn}}
        book, hit = _assembled(self.root, plan, ordered, keys, rasters)
        return Finished(book, len(units), made, rounds, hit,
                        _files(self.root, book, self.map_file, plan, ordered, rasters), plan)

    def _lay_out(self, units: list[Unit], executor: Executor | None,
                 progress: Callable[[int, int, int], None] | None,
                 in_order: bool) -> tuple[dict[str, LaidOut], int, int]:
        """Every unit laid out on the real page numbers, round after round: the units, the
        number laid out and the rounds it took."""
        pages = PageMap.load(self.map_file)
        laid: dict[str, LaidOut] = {}
        made = rounds = first = 0
        if not pages.firsts:  # no earlier build: the first round finds the page numbers
            tick = (lambda d, n: progress(1, d, n)) if progress else None
            made = (self._in_order(units, laid, executor, tick) if in_order else
                    self._round(units, pages, laid, executor, tick, write=False))
            pages, first = PageMap.of(units, laid), 1
        for rounds in range(first + 1, MAX_ROUNDS + 1):
            tick = (lambda d, n, r=rounds: progress(r, d, n)) if progress else None
            made += self._round(units, pages, laid, executor, tick)
            now = PageMap.of(units, laid)
            if all(pages.same_for(u, now) for u in units):
                break
            pages = now  # lay out again what the new page numbers change
        now.save(self.map_file)
        return laid, made, rounds

    def _in_order(self, units: list[Unit], laid: dict[str, LaidOut],
                  executor: Executor | None,
                  progress: Callable[[int, int], None] | None) -> int:
        """The first round of a book no build has laid out: each unit in book order, once the
        ones before it are laid out, so that its first page and every page it points back to
        are known. A unit that points forward is laid out on guessed numbers for its length,
        and again, for good, as soon as the units it points to are laid out (on the other
        worker, while the book goes on). The next round confirms the numbers (from the cache).
        The number laid out."""
        where = _anchor_units(units)

        def known_after(target: str) -> int:
            """The unit after whose layout the target's page is known: a heading's anchors
            are on its unit's first page, known once the unit before it is laid out."""
            j = where.get(target)
            if j is None:
                return len(units) - 1  # no unit has it: its number stays a guess
            return j - 1 if target in leading_anchors(units[j]) else j

        ready = [max((known_after(t) for t in u.targets), default=-1)
                 for u in units]  # unit i's numbers are known once unit ready[i] is laid out
        again = {i for i, r in enumerate(ready) if r >= i}
        pool = _Pool(self, executor)
        finals: list[tuple[str, Future]] = []
        if progress is not None:
            progress(0, len(units) + len(again))
        for i, unit in enumerate(units):
            laid[unit.name] = pool.take(pool.lay_out(self.job(unit, PageMap.of(units, laid),
                                                              i not in again)))
            pool.tick(progress, len(units) + len(again))
            for k in sorted(k for k in again if ready[k] == i):
                finals.append((units[k].name,
                               pool.lay_out(self.job(units[k], PageMap.of(units, laid)))))
        for name, final in finals:
            laid[name] = pool.take(final)
            pool.tick(progress, len(units) + len(again))
        return pool.count

    def _round(self, units: list[Unit], pages: PageMap, laid: dict[str, LaidOut],
               executor: Executor | None, progress: Callable[[int, int], None] | None,
               write: bool = True) -> int:
        """Every unit on `pages`, from the cache or laid out (`write` False: only to find where
        the pages break, on guessed numbers), the longest first, so that the workers end
        together. The number laid out."""
        pool = _Pool(self, executor)
        jobs = sorted(((unit.name, self.job(unit, pages, write)) for unit in units),
                      key=lambda named: -len(named[1].html))
        futures = [(name, pool.lay_out(job)) for name, job in jobs]
        if progress is not None and pool.count:
            progress(0, pool.count)  # the round's size, before its first unit is done
        for name, future in futures:
            fresh = pool.fresh(future)
            laid[name] = pool.take(future)
            if fresh:
                pool.tick(progress, pool.count)
        return pool.count


def reassemble(plan: Reassembly, pictures: Pictures, cache_dir: Path, book_id: str,
               model: Any, blocks: Mapping[str, tuple[Any, DrawnBlock]]) -> Finished | None:
    """The book of `plan` with the pictures and `blocks`, the blocks drawn apart as they are
    now (`BookRecord.blocks_to_reassemble`), waiting while the card build draws the faces
    still missing, its units from the cache; None when a unit is no longer there (the book is
    then made as usual)."""
    root = Path(cache_dir) / "rulebook"
    ordered = []
    for key in plan.units:
        found = LaidOut.load(root / "units" / f"{key}.json")
        if found is None:
            return None
        ordered.append(found)
    now = {}
    for path, entity_id, px, _ in plan.shown:
        picture = pictures.find(entity_id)
        if picture is None:
            return None
        now[path] = (picture, px)
    rasters = {**_rasters(pictures, now, root), **_kept_drawings(blocks, model, root)}
    keys = {**{path: picture.key for path, (picture, _) in now.items()},
            **{path: drawn.key for path, (_, drawn) in blocks.items()}}
    book, hit = _assembled(root, plan, ordered, keys, rasters)
    # the plan, with the blocks as they are drawn now (their keys, and what they read)
    plan = replace(plan, drawn=tuple(blocks[d.path][1] for d in plan.drawn))
    return Finished(book, len(ordered), 0, 0, hit,
                    _files(root, book, map_file(root, book_id), plan, ordered, rasters), plan)


def _rasters(pictures: Pictures, shown: Mapping[str, tuple[Any, int]],
             root: Path) -> dict[str, Path]:
    """Picture URL path -> its raster file, for each (picture, width) shown: waits while the
    card build draws the faces still missing (or draws them)."""
    missing = [picture for picture, px in shown.values()
               if not raster_path(picture, px, root).is_file() and not pictures.available(picture)]
    if missing:
        pictures.render(missing)
    return {path: raster_file(pictures, picture, px, root)
            for path, (picture, px) in shown.items()}


def _drawings(blocks: Mapping[str, Any], root: Path) -> dict[str, Path]:
    """Block URL path -> its drawing (`blocks.drawn_file`)."""
    from pipeline.rulebook.blocks import drawn_file

    return {path: drawn_file(block, root) for path, block in blocks.items()}


def _kept_drawings(found: Mapping[str, tuple[Any, Any]], model: Any,
                   root: Path) -> dict[str, Path]:
    """Block URL path -> its drawing, for a book assembled again: a block whose words are
    as they were comes from the cache under its key (composed and drawn again only if the
    cache lost it)."""
    from pipeline.cards.prune import mark_used
    from pipeline.rulebook.blocks import drawing_path
    from pipeline.rulebook.record import read_block

    out = {}
    for path, (block, drawn) in found.items():
        kept = drawing_path(drawn.key, root)
        if block is None and kept.is_file():
            mark_used(kept)
            out[path] = kept
        else:
            out[path] = _drawings({path: block or read_block(model, drawn.spec)[0]}, root)[path]
    return out


def _assembled(root: Path, plan: Reassembly, ordered: list[LaidOut], keys: Mapping[str, str],
               rasters: Mapping[str, Path]) -> tuple[Path, bool]:
    """The book of the laid-out units with these pictures (picture URL path -> its key, its
    raster), from the cache or finished into it from the units' frame: (its PDF, whether the
    cache had it)."""
    from pipeline.cards.prune import mark_used
    from pipeline.fsutil import cache_write
    from pipeline.rulebook.assemble import finish

    shown = [f"{p}={keys[p]}" for p in sorted(rasters)]
    key = _sha(plan.base, "book", plan.title, plan.lang, *(u.key for u in ordered), *shown)
    book = root / "books" / f"{key}.pdf"
    hit = book.is_file()
    if hit:
        mark_used(book)
    else:
        urls = _urls(rasters)
        cache_write(book, finish(_frame(root, plan, ordered, urls), urls))
    return book, hit


def _urls(rasters: Mapping[str, Path]) -> dict[str, Path]:
    """Picture URL -> its raster (or drawing), for each picture URL path the units show."""
    return {f"file://{p}": f for p, f in rasters.items()}


def _frame(root: Path, plan: Reassembly, ordered: list[LaidOut],
           urls: Mapping[str, Path]) -> Path:
    """The units' frame (`assemble.frame`: the book but its pictures), from the cache or made
    into it."""
    from pipeline.cards.prune import mark_used
    from pipeline.fsutil import cache_write
    from pipeline.rulebook.assemble import frame

    path = _frame_path(root, plan, ordered, urls)
    if path.is_file():
        mark_used(path)
    else:
        cache_write(path, frame(ordered, plan.title, plan.lang, urls))
    return path


def _frame_path(root: Path, plan: Reassembly, ordered: list[LaidOut],
                urls: Iterable[str]) -> Path:
    key = _sha(plan.base, "frame", plan.title, plan.lang, *(u.key for u in ordered),
               *sorted(urls))
    return root / "frames" / f"{key}.pdf"


def _files(root: Path, book: Path, page_map: Path, plan: Reassembly, ordered: list[LaidOut],
           rasters: Mapping[str, Path]) -> tuple[str, ...]:
    """Every cache file a finished book is made of."""
    units_dir = root / "units"
    frame = _frame_path(root, plan, ordered, _urls(rasters))
    return (str(book), str(page_map), str(frame), *(str(p) for p in rasters.values()),
            *(f for unit in ordered for f in (unit.pdf, str(units_dir / f"{unit.key}.json"))))


class _Pool:
    """Units handed to the workers as soon as they are known (or laid out here, without
    workers), each from the cache if it is there, and kept in it once laid out for good."""

    def __init__(self, renderer: BookRenderer, executor: Executor | None):
        self.renderer = renderer
        self.executor = executor
        self.count = self.done = 0
        self.made: dict[Future, bool] = {}  # laid out here, not taken yet -> to keep (write)

    def lay_out(self, job: UnitJob) -> Future:
        future: Future = Future()
        hit = self.renderer.cached(job)
        if hit is not None:
            future.set_result(hit)
            return future
        self.count += 1
        if self.executor is None:
            future.set_result(lay_out(job))
        else:
            future = self.executor.submit(lay_out, job)
        self.made[future] = job.write
        return future

    def fresh(self, future: Future) -> bool:
        """Whether the future's unit is laid out by this pool (not found in the cache)."""
        return future in self.made

    def take(self, future: Future) -> LaidOut:
        """The future's unit, kept in the cache first if it was laid out for good."""
        result = future.result()
        if self.made.pop(future, False):
            result.save(self.renderer.root / "units" / f"{result.key}.json")
        return result

    def tick(self, progress: Callable[[int, int], None] | None, total: int) -> None:
        self.done += 1
        if progress is not None:
            progress(self.done, total)


ANCHOR = re.compile(r"""\bid=["']([^"']+)["']""")


def leading_anchors(unit: Unit) -> list[str]:
    """The anchors of a unit's heading (and of what comes before it): on its first page, as
    every unit starts a page with its heading. A guess that the next round checks."""
    end = unit.body.find("</h1>")
    return ANCHOR.findall(unit.body, 0, end) if end >= 0 else []


def _anchor_units(units: list[Unit]) -> dict[str, int]:
    """Anchor id -> the first unit whose HTML defines it (the one whose page it is numbered
    by: `PageMap.of`)."""
    where: dict[str, int] = {}
    for i, unit in enumerate(units):
        for m in ANCHOR.finditer(unit.body):
            where.setdefault(m[1], i)
    return where


FILE_URL = re.compile(r"""file://(/[^"'\s)]+)""")


def _file_digests(html: str) -> list[str]:
    """The bytes of every real file the HTML shows (pictures of the prose): they are part of
    the page as much as its text. Virtual picture URLs are keyed by their pictures."""
    out = []
    for url in sorted(set(FILE_URL.findall(html))):
        path = Path(unquote(url))
        if url.startswith(PICTURES_URL) or not path.is_file():
            continue
        out.append(f"{url}={hashlib.sha256(path.read_bytes()).hexdigest()}")
    return out


def _sha(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def project_roots(pack_root: Path, extra: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The folders a book's pages may read: the project's assets and templates, the pack."""
    from pipeline.rulebook.book import PROJECT_ROOT, TEMPLATES

    return (PROJECT_ROOT / "assets", TEMPLATES, pack_root, *extra)
