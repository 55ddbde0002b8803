"""`relic export model|tts --pack ID`: the resolved model as JSON on stdout, or the pack as a
Tabletop Simulator saved object (pipeline/export/tts.py, docs/exports.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export", help="export the resolved model, or the pack for Tabletop Simulator",
        description="model: the resolved model as stable, sorted JSON on stdout. tts: the pack "
        "as a Tabletop Simulator saved object in build/<pack>/tts/<lang>/: <pack>-<lang>.json "
        "and its thumbnail (copy both into TTS's Saved Objects folder), card sheets of at most "
        "10 x 7 cards and 4096 px, deck backs, and an image per tile, token and board face.")
    p.add_argument("what", choices=["model", "tts"], help="what to export")
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--lang", default="all", help="tts: a language of the pack, or 'all' (default)")
    p.add_argument("--base-url", default=None, metavar="URL",
                   help="tts: the address where the language folder's files will be hosted; "
                        "image addresses become URL/<file> (default: file:/// paths of the "
                        "written files, for playing on this computer)")
    p.add_argument("--out", default=None,
                   help="tts: output folder; files go to OUT/<lang>/ (default: build/<pack>/tts)")
    p.add_argument("--cache", default="build/.cache", help="render cache (default: build/.cache)")
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    if args.what == "model":
        sys.stdout.write(model.to_json())
        return 0
    from pipeline.cards.formats import checked_copies_scope

    with checked_copies_scope():
        return _tts(model, args)


def _tts(model, args: argparse.Namespace) -> int:
    """The TTS folder of every language, as `relic build` writes its own: one export at a time
    per output folder, the shared cache held (never pruned here: `relic build` prunes)."""
    from pipeline.cards import BuildOptions, build
    from pipeline.cards.progress import Progress
    from pipeline.checks.assets import check as check_assets
    from pipeline.commands.build import NEVER, usage
    from pipeline.commands.output import CacheLock, FolderError, build_lock, usable_folder
    from pipeline.diagnostics import RelicError, Severity
    from pipeline.export.tts import export_options
    from pipeline.processes import default_workers

    unsafe = [d for d in check_assets(model) if d.severity is Severity.ERROR]
    if unsafe:
        raise RelicError(unsafe)
    out_root = Path(args.out) if args.out else Path("build") / model.pack.id / "tts"
    cache_dir = Path(args.cache)
    options = BuildOptions(
        out_root=out_root, cache_dir=cache_dir,
        langs=() if args.lang == "all" else tuple(args.lang.split(",")),
        workers=args.jobs or default_workers(), keep_cache_days=NEVER,
        pdf=False,  # no print sheets: the writer draws its own sheets from the faces
        **export_options(model.pack.root, args.base_url))
    try:
        usable_folder(cache_dir, "cache folder")
        usable_folder(out_root, "output folder")
        with build_lock(out_root, model.pack.id), CacheLock(cache_dir):
            result = build(model, options, Progress(quiet=args.quiet))
    except FolderError as exc:
        return usage(str(exc))
    if not args.quiet:
        for lang in result.langs:
            print(f"relic: wrote {lang.folder / f'{model.pack.id}-{lang.lang}.json'} "
                  f"({lang.components} components, {lang.faces} faces)", file=sys.stderr)
    return 0
