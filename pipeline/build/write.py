"""The output files of one language: PnP sheets, shop PDFs, PNGs and manifest.json."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from pipeline.build.components import Components
from pipeline.build.formats import Profile
from pipeline.build.impose import Sources, write_sheets, write_shop
from pipeline.build.layout import Layout, SheetPage
from pipeline.build.outputs import atomic_file, link_or_copy, staging_for, swap_in, write_manifest
from pipeline.build.progress import Progress
from pipeline.build.render import Rendered
from pipeline.model import Model


def _id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _pages(layout: Layout, duplex: bool) -> tuple[SheetPage, ...]:
    """Duplex: front 1, back 1, front 2, ...; simplex: every front sheet, then every back."""
    if duplex:
        return layout.pages
    return tuple(p for p in layout.pages if p.side == "front") + tuple(
        p for p in layout.pages if p.side == "back")


def write_all(model: Model, profile: Profile, lang: str, components: Components,
              layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered], options,
              progress: Progress) -> Path:
    final = options.out_root / lang
    staging = staging_for(final)
    title = model.pack.title.get(lang) or model.pack.title.get(model.pack.source_language, "")
    paper = profile.sheet.name
    steps = len(layouts) * 3 + (len(components.items) if options.png else 0)
    progress.start(f"{lang}: writing files", steps)
    files_of: dict[str, list[str]] = {}
    sources = Sources()
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
            pages = _pages(lay, duplex)
            label = f"{title} — {fmt}{' (' + suffix[1:] + ')' if suffix else ''}"
            with atomic_file(staging / name) as handle:
                write_sheets(_with_pages(lay, pages), rendered, label,
                             _id(model.pack.id, lang, name), handle, sources)
            files_of.setdefault(fmt, []).append(name)
            progress.advance()
        name = f"shop/{fmt}.pdf"
        items = [(c.front, c.back) for c in components.of_format(fmt)]
        with atomic_file(staging / name) as handle:
            write_shop(items, profile.formats[fmt], rendered, f"{title} — {fmt}",
                       _id(model.pack.id, lang, name), handle, sources)
        files_of[fmt].append(name)
        progress.advance()
    if options.png:
        shared: set[str] = set()
        for comp in components.items:
            link_or_copy(Path(rendered[comp.front].png), staging / "png" / f"{comp.name}.png")
            if comp.back:
                face = components.faces[comp.back]
                if face.entity_id == comp.id and _per_entity(profile, comp.kind):
                    link_or_copy(Path(rendered[comp.back].png),
                                 staging / "png" / f"{comp.name}-back.png")
                elif comp.back not in shared:
                    shared.add(comp.back)
                    group = json.loads(face.context).get("group") or {}
                    name = f"back-{comp.kind}-{group.get('id', comp.format)}.png"
                    link_or_copy(Path(rendered[comp.back].png), staging / "png" / name)
            progress.advance()
    write_manifest(staging, _info(model, profile, lang, components, layouts, files_of, options))
    swap_in(staging, final)
    progress.finish()
    return final


def _per_entity(profile: Profile, kind: str) -> bool:
    spec = profile.for_kind(kind)
    return bool(spec and spec.back_per_entity)


def _with_pages(lay: Layout, pages: tuple[SheetPage, ...]) -> Layout:
    from dataclasses import replace

    return replace(lay, pages=pages)


def _info(model: Model, profile: Profile, lang: str, components: Components,
          layouts: Mapping[str, Layout], files_of: Mapping[str, list[str]], options) -> dict:
    counts = components.counts()
    kinds: dict[str, int] = {}
    for comp in components.items:
        kinds[comp.kind] = kinds.get(comp.kind, 0) + 1
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
        "pack": model.pack.id, "lang": lang, "paper": profile.sheet.name,
        "proof": options.proof, "components": counts, "kinds": kinds,
        "total_components": len(components.items), "formats": formats,
    }
