"""`relic serve` and `relic watch`: the edit loop, with or without a browser.

    file change (watchfiles)  -> Session          (session.py: one rebuild at a time)
                              -> builder process  (builder.py: analyze, cached cards build,
                                                   plug-in checks in a cancellable child)
                              -> messages         (messages.py: Progress, Built, Checked, Report)
                              -> Preview state    (state.py) -> server-sent events -> the page
                                 or printed lines (`relic watch`)

The page (static/) shows the gallery (gallery.py: every printed entity, front and back), an
overlay with the diagnostics while the content has errors, the rulebook pages, the odds tables
and a small simulation report (sim.py).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.diagnostics import RelicError, Span, error
from pipeline.stages import find_packs, load_manifest, pack_dir_for

__all__ = ["choose_pack", "out_folder", "pack_languages"]


def choose_pack(content: Path, pack_id: str | None) -> Path:
    """The pack folder of `--pack`, or the only pack of the content folder."""
    if pack_id:
        return pack_dir_for(content, pack_id)
    packs = find_packs(content)
    if len(packs) == 1:
        return packs[0]
    known = ", ".join(p.name for p in packs) or "none"
    raise RelicError([error("usage", f"say which pack with --pack (packs in {content}: {known})",
                            Span("<command line>"))])


def pack_languages(pack_dir: Path) -> tuple[str, ...]:
    """The pack's languages, source first; empty while its manifest does not load."""
    from pipeline.schemas import catalogue_for

    try:
        pack, _ = load_manifest(pack_dir, catalogue_for(pack_dir))
    except RelicError:
        return ()
    return pack.languages if pack is not None else ()


def out_folder(pack_dir: Path, out: Path) -> Path:
    """Where the loop builds: never inside the pack (it never writes content), nor above it."""
    out, pack = out.resolve(), pack_dir.resolve()
    if out == pack or pack in out.parents or out in pack.parents:
        raise RelicError([error("usage", f"--out {out} would put build files among the pack's "
                                f"content ({pack}); choose a folder outside it",
                                Span("<command line>"))])
    return out
