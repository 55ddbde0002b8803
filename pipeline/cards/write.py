"""The output files of every language: PnP sheets, shop PDFs, PNGs and manifest.json.

Each file is a pure function of its layout and of the rendered faces it shows, so finished
files are kept in the cache under the hash of exactly that: after a one-card edit only the
files that show the card are imposed again; the others are linked from the cache. The files
to write are planned first (`plan_files`: a FileJob each), then written as separate jobs, side
by side on the build's workers, whatever their language.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import pickle
import shutil
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pipeline.cards.components import Components
from pipeline.cards.faces import icons
from pipeline.cards.formats import Format, Profile
from pipeline.cards.impose import write_sheets, write_shop, writer_art
from pipeline.cards.layout import Layout, SheetPage
from pipeline.cards.outputs import (
    link_or_copy,
    sha256_file,
    staging_for,
    swap_in,
    write_manifest,
)
from pipeline.cards.progress import Progress
from pipeline.cards.prune import mark_used
from pipeline.cards.render import Rendered
from pipeline.fsutil import atomic_file, cache_write

# Output files are cached under a key that includes the code that writes them.
IMPOSE_VERSION = hashlib.sha256(b"".join(
    (Path(__file__).parent / name).read_bytes() for name in ("impose.py", "layout.py", "write.py",
                                                             "faces/icons.py")
)).hexdigest()


def _id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _pages(layout: Layout, duplex: bool) -> tuple[SheetPage, ...]:
    """Duplex: front 1, back 1, front 2, ...; simplex: every front sheet, then every back."""
    if duplex:
        return layout.pages
    return tuple(p for p in layout.pages if p.side == "front") + tuple(
        p for p in layout.pages if p.side == "back")


class Outputs:
    """Writes files into the staging folder, reusing finished files from the cache."""

    def __init__(self, staging: Path, cache_dir: Path):
        self.staging = staging
        self.cache = cache_dir / "outputs"
        self.known: dict[str, str] = {}  # relative path -> sha256, when already known

    def cached(self, key: str) -> Path:
        return self.cache / f"{key}.pdf"

    def reuse(self, name: str, key: str) -> bool:
        """Link a finished file from the cache, if it is there."""
        cached = self.cached(key)
        if not cached.is_file():
            return False
        mark_used(cached)
        link_or_copy(cached, self.staging / name)
        self.known[name] = self.sha(cached)
        return True

    def pdf(self, name: str, key: str, produce: Callable[[BinaryIO], None]) -> None:
        if not self.reuse(name, key):
            cached, target = self.cached(key), self.staging / name
            with atomic_file(target) as handle:
                produce(handle)
            link_or_copy(target, cached)
            self.known[name] = self.sha(cached)

    def link(self, source: Path, name: str) -> None:
        link_or_copy(source, self.staging / name)
        self.known[name] = self.sha(source)

    @staticmethod
    def sha(path: Path) -> str:
        """sha256 of a cache file, remembered beside it (cache files never change)."""
        side = path.with_name(path.name + ".sha256")
        if side.is_file():
            mark_used(side)
            return side.read_text().strip()
        value = sha256_file(path)
        cache_write(side, value)
        return value


def _key(*parts: object) -> str:
    """The hash of a file's parts (pickled: a quarter of the time `repr` of the same frozen
    dataclasses takes; protocol 5 whatever the interpreter's highest)."""
    return hashlib.sha256(pickle.dumps((IMPOSE_VERSION, *parts), protocol=5)).hexdigest()


def _where(rendered: Mapping[str, Rendered], face: str | None) -> str | None:
    """The drawn face a placement shows (its art key names its bytes)."""
    if face is None:
        return None
    return rendered[face].art_key


@dataclass(frozen=True)
class PackMeta:
    """What the files need to know about the pack (plain data: it crosses to worker processes)."""

    id: str
    title: Mapping[str, str]
    source_language: str
    charset: str  # the build's characters, primed in this order in every file (impose.prime)


@dataclass(frozen=True)
class FileJob:
    """One PDF to write: everything its writer needs, and only the faces it shows (plain data:
    it crosses to a worker process)."""

    name: str  # the file's path in the language's folder: pnp/..., shop/...
    key: str  # its cache key: the same key, the same bytes
    kind: str  # "sheets" or "shop"
    title: str
    doc: str  # the document id
    charset: str
    rendered: Mapping[str, Rendered]  # the faces the file shows
    layout: Layout | None = None  # sheets
    items: tuple[tuple[str, str | None], ...] = ()  # shop: (front, back) per component
    fmt: Format | None = None  # shop

    @property
    def weight(self) -> int:
        """Placements to draw plus pages to write (a page costs about what a placement costs:
        159 cards on 36 sheets take 0.05 s, on 318 shop pages 0.08 s): the heaviest files are
        started first, and the shares of the writers are balanced by it."""
        if self.layout is not None:
            pages = self.layout.pages
            return sum(len(page.placements) for page in pages) + len(pages)
        return 2 * sum(1 + (back is not None) for _, back in self.items)

    def produce(self, handle: BinaryIO) -> None:
        if self.kind == "sheets":
            write_sheets(self.layout, self.rendered, self.title, self.doc, handle, self.charset)
        else:
            write_shop(list(self.items), self.fmt, self.rendered, self.title, self.doc, handle,
                       self.charset)


@dataclass(frozen=True)
class LangPlan:
    """The files of one language, and what its manifest says of them."""

    lang: str
    files: tuple[FileJob, ...]
    files_of: Mapping[str, tuple[str, ...]]  # format -> its files


def plan_files(meta: PackMeta, profile: Profile, lang: str, components: Components,
               layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered],
               options) -> LangPlan:
    """Every PDF of one language, with its cache key (nothing is written yet)."""
    title = meta.title.get(lang) or meta.title.get(meta.source_language, "")
    paper = profile.sheet.name
    files: list[FileJob] = []
    files_of: dict[str, list[str]] = {}
    for fmt, lay in sorted(layouts.items()):
        has_backs = any(p.side == "back" for p in lay.pages)
        if not has_backs:
            variants = [("", True)]
        elif options.duplex:
            variants = [("-duplex", True), ("-simplex", False)]
        else:
            variants = [("-simplex", False)]
        shown = {p.face: rendered[p.face] for page in lay.pages for p in page.placements
                 if p.face is not None}
        for suffix, duplex in variants:
            name = f"pnp/{fmt}-{paper}{suffix}.pdf"
            sheet_layout = replace(lay, pages=_pages(lay, duplex))
            label = f"{title} — {fmt}{' (' + suffix[1:] + ')' if suffix else ''}"
            doc = _id(meta.id, lang, name)
            faces = [[(p.box, p.rotate, _where(rendered, p.face)) for p in page.placements]
                     for page in sheet_layout.pages]
            key = _key("sheets", label, doc, sheet_layout.sheet, sheet_layout.format,
                       [page.marks for page in sheet_layout.pages], faces)
            files.append(FileJob(name, key, "sheets", label, doc, meta.charset, shown,
                                 layout=sheet_layout))
            files_of.setdefault(fmt, []).append(name)
        name = f"shop/{fmt}.pdf"
        items = tuple((c.front, c.back) for c in components.of_format(fmt))
        label, doc = f"{title} — {fmt}", _id(meta.id, lang, name)
        key = _key("shop", label, doc, profile.formats[fmt],
                   [(_where(rendered, f), _where(rendered, b)) for f, b in items])
        faces_shown = {f: rendered[f] for pair in items for f in pair if f}
        files.append(FileJob(name, key, "shop", label, doc, meta.charset, faces_shown,
                             items=items, fmt=profile.formats[fmt]))
        files_of.setdefault(fmt, []).append(name)
    return LangPlan(lang, tuple(files), {k: tuple(v) for k, v in files_of.items()})


def _write_file(job: tuple[FileJob, Path, Path, tuple[tuple[str, str], ...]]) -> str:
    """Write one file into its staging folder and keep it in the cache (a worker's job)."""
    from pipeline.cards.faces.text import font_set

    file, target, cached, fonts = job
    font_set(fonts)  # the faces' fonts, registered in this process too
    with atomic_file(target) as handle:
        file.produce(handle)
    link_or_copy(target, cached)
    return file.name


def _shares(jobs: list, parts: int) -> list[list]:
    """Jobs (heaviest first) dealt into `parts` shares of about equal weight: each goes to the
    lightest share so far."""
    shares: list[list] = [[] for _ in range(parts)]
    loads = [0] * parts
    for job in jobs:
        i = loads.index(min(loads))
        shares[i].append(job)
        loads[i] += job[0].weight
    return shares


def _run(jobs: list, workers: int) -> Iterator[str]:
    """The files written, as they are done. With several files and workers, this process
    writes the first share itself while forked processes write the others: `workers`
    processes in all, no idle parent. A forked writer has its share from the fork (nothing is
    pickled for it) and reports each file it wrote through a pipe. A writer that fails or dies
    ends the build with an error, never a hang."""
    parts = min(workers, len(jobs))
    if parts <= 1:
        yield from map(_write_file, jobs)
        return
    mine, *others = _shares(jobs, parts)
    writers = [_Writer.start(share) for share in others if share]
    try:
        for job in mine:
            yield _write_file(job)
        for writer in writers:
            yield from writer.written()
    finally:
        for writer in writers:
            writer.stop()


class _Writer:
    """A forked process writing a share of the files (`_write_share`)."""

    def __init__(self, process, pipe) -> None:
        self.process = process
        self.pipe = pipe
        self.done = False  # it said it wrote its share

    @classmethod
    def start(cls, share: list) -> _Writer:
        context = multiprocessing.get_context("fork")
        receiving, sending = context.Pipe(duplex=False)
        process = context.Process(target=_write_share, args=(share, sending),
                                  name="relic-writer")
        process.start()
        sending.close()  # the child's end: its exit ends the pipe (EOFError)
        return cls(process, receiving)

    def written(self) -> Iterator[str]:
        while True:
            try:
                kind, value = self.pipe.recv()
            except EOFError:
                self.process.join()
                raise RuntimeError(f"a file writer ended without its files "
                                   f"(exit code {self.process.exitcode})") from None
            if kind == "done":
                self.done = True
                return
            if kind == "failed":
                raise RuntimeError(f"a file writer failed: {value}")
            yield value

    def stop(self) -> None:
        """Wait for a writer that is done to end; end one that is not (the build failed)."""
        self.pipe.close()
        if self.done:
            self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _write_share(share: list, sending) -> None:
    """In a forked writer: each file of the share, reported as written; then "done" (or
    "failed" with the error, which the build raises)."""
    from pipeline.processes import die_with_parent

    die_with_parent()
    try:
        for job in share:
            sending.send(("file", _write_file(job)))
        sending.send(("done", None))
    except BaseException as exc:  # (the build reports it, with the traceback's last line)
        with contextlib.suppress(OSError):
            sending.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        sending.close()


def write_langs(meta: PackMeta, profile: Profile, components: Mapping[str, Components],
                layouts: Mapping[str, Mapping[str, Layout]], rendered: Mapping[str, Rendered],
                options, progress: Progress) -> dict[str, Path]:
    """Every language's files. Each PDF is its own job: with workers, the files of every
    language are written side by side (the heaviest first), so no core waits for a language.
    A file whose key is in the cache is linked from it, not written."""
    if options.writer is not None:
        return _write_with(options.writer, meta, profile, components, layouts, rendered,
                           options, progress)
    langs = list(components)
    plans = [plan_files(meta, profile, lang, components[lang], layouts[lang], rendered, options)
             for lang in langs]
    outs = {lang: Outputs(staging_for(options.out_root / lang), options.cache_dir)
            for lang in langs}
    count = sum(len(plan.files) for plan in plans)
    progress.start(f"writing {count} files ({', '.join(langs)})", count)
    fonts = tuple(sorted(profile.fonts.items()))
    todo = []
    for plan in plans:
        out = outs[plan.lang]
        for file in plan.files:
            if out.reuse(file.name, file.key):
                progress.advance()
            else:
                todo.append((file, out.staging / file.name, out.cached(file.key), fonts))
    todo.sort(key=lambda job: -job[0].weight)
    # read here once, before the writers fork: the faces' operators and their icons'
    icons.prepare({icon for file, *_ in todo for r in file.rendered.values()
                   for icon in writer_art(r).forms}, options.cache_dir)
    try:
        for _name in _run(todo, options.workers):
            progress.advance()
    except BaseException:
        for out in outs.values():
            shutil.rmtree(out.staging, ignore_errors=True)
        raise
    for plan in plans:
        out = outs[plan.lang]
        for file in plan.files:
            out.known.setdefault(file.name, out.sha(out.cached(file.key)))
    progress.finish()
    return {plan.lang: _finish(meta, profile, plan, components[plan.lang], layouts[plan.lang],
                               rendered, options, outs[plan.lang]) for plan in plans}


def _write_with(writer: Callable[..., Path], meta: PackMeta, profile: Profile,
                components: Mapping[str, Components], layouts: Mapping[str, Mapping[str, Layout]],
                rendered: Mapping[str, Rendered], options, progress: Progress) -> dict[str, Path]:
    """BuildOptions.writer (other outputs of the same faces: print vendors, virtual tables):
    called like write_all for each language, the languages side by side when there are
    workers."""
    langs = list(components)
    jobs = [(writer, meta, profile, lang, components[lang], layouts[lang], rendered, options)
            for lang in langs]
    progress.start(f"writing files ({', '.join(langs)})", len(langs))
    folders = []
    if options.workers > 1 and len(langs) > 1:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=min(options.workers, len(langs)),
                                 mp_context=context) as pool:
            for folder in pool.map(_writer_job, jobs):
                folders.append(folder)
                progress.advance()
    else:
        for job in jobs:
            folders.append(_writer_job(job))
            progress.advance()
    progress.finish()
    return dict(zip(langs, folders, strict=True))


def _writer_job(job) -> Path:
    from pipeline.cards.faces.text import font_set

    writer, *args = job
    profile = args[1]
    font_set(tuple(sorted(profile.fonts.items())))  # the faces' fonts, in this process too
    return writer(*args)


def write_all(meta: PackMeta, profile: Profile, lang: str, components: Components,
              layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered],
              options) -> Path:
    """One language's files, in this process."""
    return write_langs(meta, profile, {lang: components}, {lang: layouts}, rendered,
                       replace(options, workers=1), Progress(quiet=True))[lang]


def _finish(meta: PackMeta, profile: Profile, plan: LangPlan, components: Components,
            layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered], options,
            out: Outputs) -> Path:
    """PNGs and the manifest beside the written files, then the folder swapped in."""
    if options.png:
        _pngs(out, profile, components, rendered)
    info = _info(meta, profile, plan.lang, components, layouts,
                 {fmt: list(names) for fmt, names in plan.files_of.items()}, options)
    write_manifest(out.staging, info, known=out.known)
    final = options.out_root / plan.lang
    swap_in(out.staging, final)
    return final


def _pngs(out: Outputs, profile: Profile, components: Components,
          rendered: Mapping[str, Rendered]) -> None:
    """png/<id>-<copy>.png per copy; backs per copy when they show the entity, else shared."""
    shared: set[str] = set()
    for comp in components.items:
        out.link(Path(rendered[comp.front].png), f"png/{comp.name}.png")
        if comp.back:
            face = components.faces[comp.back]
            spec = profile.for_entry(comp.entry or comp.kind)
            if spec is not None and spec.back_per_entity:
                out.link(Path(rendered[comp.back].png), f"png/{comp.name}-back.png")
            elif comp.back not in shared:
                shared.add(comp.back)
                group = json.loads(face.context).get("group") or {}
                name = f"png/back-{comp.entry or comp.kind}-{group.get('id', comp.format)}.png"
                out.link(Path(rendered[comp.back].png), name)


def _info(meta: PackMeta, profile: Profile, lang: str, components: Components,
          layouts: Mapping[str, Layout], files_of: Mapping[str, list[str]], options) -> dict:
    counts = components.counts()
    kinds: dict[str, int] = {}
    for comp in components.items:  # per print entry: a kind, or a kind's second print
        name = comp.entry or comp.kind
        kinds[name] = kinds.get(name, 0) + 1
    formats = {}
    for fmt, lay in sorted(layouts.items()):
        f = profile.formats[fmt]
        formats[fmt] = {
            "trim_mm": [f.width, f.height], "bleed_mm": f.bleed, "shape": f.shape,
            "components": len(components.of_format(fmt)),
            "per_sheet": lay.grid.per_sheet, "sheets": sum(p.side == "front" for p in lay.pages),
            "files": files_of.get(fmt, []),
        }
    return {
        "pack": meta.id, "lang": lang, "paper": profile.sheet.name,
        "proof": options.proof, "components": counts, "kinds": kinds,
        "total_components": len(components.items), "distinct_faces": len(components.faces),
        "formats": formats,
    }
