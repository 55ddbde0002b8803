"""The output files of one language: PnP sheets, shop PDFs, PNGs and manifest.json.

Each file is a pure function of its layout and of the rendered faces it shows, so finished
files are kept in the cache under the hash of exactly that: after a one-card edit only the
files that show the card are imposed again; the others are linked from the cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pipeline.cards.components import Components
from pipeline.cards.formats import Profile
from pipeline.cards.impose import write_sheets, write_shop
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
from pipeline.cards.render import Rendered, cache_write
from pipeline.fsutil import atomic_file

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

    def pdf(self, name: str, key: str, produce: Callable[[BinaryIO], None]) -> None:
        cached = self.cache / f"{key}.pdf"
        target = self.staging / name
        if not cached.is_file():
            with atomic_file(target) as handle:
                produce(handle)
            link_or_copy(target, cached)
        else:
            mark_used(cached)
            link_or_copy(cached, target)
        self.known[name] = self._sha(cached)

    def link(self, source: Path, name: str) -> None:
        link_or_copy(source, self.staging / name)
        self.known[name] = self._sha(source)

    @staticmethod
    def _sha(path: Path) -> str:
        """sha256 of a cache file, remembered beside it (cache files never change)."""
        side = path.with_name(path.name + ".sha256")
        if side.is_file():
            mark_used(side)
            return side.read_text().strip()
        value = sha256_file(path)
        cache_write(side, value)
        return value


def _key(*parts: object) -> str:
    return hashlib.sha256(repr((IMPOSE_VERSION, *parts)).encode()).hexdigest()


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


def write_langs(meta: PackMeta, profile: Profile, components: Mapping[str, Components],
                layouts: Mapping[str, Mapping[str, Layout]], rendered: Mapping[str, Rendered],
                options, progress: Progress) -> dict[str, Path]:
    """Every language's files; languages are written side by side when there are workers."""
    langs = list(components)
    jobs = [(meta, profile, lang, components[lang], layouts[lang], rendered, options)
            for lang in langs]
    progress.start(f"writing files ({', '.join(langs)})", len(langs))
    if options.workers > 1 and len(langs) > 1:
        with ProcessPoolExecutor(max_workers=min(options.workers, len(langs))) as pool:
            folders = []
            for folder in pool.map(_write_job, jobs):
                folders.append(folder)
                progress.advance()
    else:
        folders = []
        for job in jobs:
            folders.append(_write_job(job))
            progress.advance()
    progress.finish()
    return dict(zip(langs, folders, strict=True))


def _write_job(job) -> Path:
    options = job[-1]
    return (options.writer or write_all)(*job)


def write_all(meta: PackMeta, profile: Profile, lang: str, components: Components,
              layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered],
              options) -> Path:
    from pipeline.cards.faces.text import font_set

    font_set(tuple(sorted(profile.fonts.items())))  # the faces' fonts, in this process too
    final = options.out_root / lang
    staging = staging_for(final)
    out = Outputs(staging, options.cache_dir)
    title = meta.title.get(lang) or meta.title.get(meta.source_language, "")
    paper = profile.sheet.name
    files_of: dict[str, list[str]] = {}
    for fmt, lay in sorted(layouts.items()):
        has_backs = any(p.side == "back" for p in lay.pages)
        if not has_backs:
            variants = [("", True)]
        elif options.duplex:
            variants = [("-duplex", True), ("-simplex", False)]
        else:
            variants = [("-simplex", False)]
        for suffix, duplex in variants:
            name = f"pnp/{fmt}-{paper}{suffix}.pdf"
            sheet_layout = replace(lay, pages=_pages(lay, duplex))
            label = f"{title} — {fmt}{' (' + suffix[1:] + ')' if suffix else ''}"
            doc = _id(meta.id, lang, name)
            faces = [[(p.box, p.rotate, _where(rendered, p.face)) for p in page.placements]
                     for page in sheet_layout.pages]
            key = _key("sheets", label, doc, sheet_layout.sheet, sheet_layout.format,
                       [page.marks for page in sheet_layout.pages], faces)
            out.pdf(name, key, lambda h, sl=sheet_layout, lb=label, d=doc: write_sheets(
                sl, rendered, lb, d, h, meta.charset))
            files_of.setdefault(fmt, []).append(name)
        name = f"shop/{fmt}.pdf"
        items = [(c.front, c.back) for c in components.of_format(fmt)]
        label, doc = f"{title} — {fmt}", _id(meta.id, lang, name)
        key = _key("shop", label, doc, profile.formats[fmt],
                   [(_where(rendered, f), _where(rendered, b)) for f, b in items])
        out.pdf(name, key, lambda h, it=items, f=fmt, lb=label, d=doc: write_shop(
            it, profile.formats[f], rendered, lb, d, h, meta.charset))
        files_of[fmt].append(name)
    if options.png:
        _pngs(out, profile, components, rendered)
    write_manifest(staging, _info(meta, profile, lang, components, layouts, files_of, options),
                   known=out.known)
    swap_in(staging, final)
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
