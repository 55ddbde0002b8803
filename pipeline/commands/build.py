"""`relic build --pack ID --lang ru|all`: print-ready PDFs, PNGs and a manifest."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.cards import BuildResult
    from pipeline.cards.render import Workers
    from pipeline.model import Model


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build print-ready PDFs and PNGs of a pack")
    p.add_argument("--pack", required=True, help="the pack id (a folder in the content folder)")
    p.add_argument("--lang", default="all", help="a language of the pack, or 'all' (default)")
    p.add_argument("--content", default="content", help="the content folder (default: content)")
    p.add_argument("--out", default=None,
                   help="output folder; files go to OUT/<lang>/ (default: build/<pack>)")
    p.add_argument("--cache", default="build/.cache", help="render cache (default: build/.cache)")
    p.add_argument("--paper", default=None, help="sheet for print-and-play: a4, letter, ...")
    p.add_argument("--no-duplex", action="store_true",
                   help="only the variant with backs on separate sheets")
    p.add_argument("--proof", action="store_true", help="mark provisional values on the cards")
    p.add_argument("--png", action="store_true",
                   help="also write a 300 DPI PNG of every component (png/)")
    p.add_argument("--no-png", action="store_true", help=argparse.SUPPRESS)  # the default now
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: all cores)")
    p.add_argument("--keep-cache-days", type=_days, default=None, metavar="DAYS",
                   help="remove cache files no build used for DAYS days (default 14)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument("--rulebook-paper", default=None,
                   help="page size of the rulebook: a5 (default) or a4")
    p.add_argument("--booklet", action="store_true",
                   help="also write rulebook-booklet.pdf (saddle-stitch, two-up on A4 landscape)")
    p.add_argument("--no-rulebook", action="store_true", help="cards only, no rulebook")
    p.add_argument("--shop", default=None, metavar="VENDOR",
                   help="files for a print vendor instead of the print-and-play set: generic, "
                        "tgc, mpc, drivethru (templates/print/vendors/; a pack adds its own in "
                        "print/vendors/), drawn at the vendor's sizes into "
                        "build/<pack>/shops/VENDOR/<lang>/ (no rulebook)")
    p.set_defaults(run=run)


def _days(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of days (0 or more)")
    return value


def build_rulebooks(model, folders: dict[str, Path], args: argparse.Namespace) -> None:
    """The rulebook of every built language, beside its cards (whose PNGs give the thumbnails);
    then the folder's manifest lists it too."""
    if args.no_rulebook or args.shop or not (model.pack.root / "rules").is_dir():
        return
    from pipeline.cards.outputs import refresh_manifest
    from pipeline.rulebook import build_rulebook

    paper = args.rulebook_paper or model.pack.data.get("rules", {}).get("paper", "a5")
    for lang, folder in folders.items():
        written = build_rulebook(model, lang, folder, paper=paper, booklet=args.booklet,
                                 proof=args.proof)
        refresh_manifest(folder)
        if not args.quiet:
            for path in written:
                print(f"relic: wrote {path}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from pipeline.cards.render import Workers, default_workers

    jobs = args.jobs or default_workers()
    with Workers(jobs) as workers:  # they import WeasyPrint while the model loads
        result, model = _build_cards(args, jobs, workers)
    if not args.quiet:
        for lang in result.langs:
            print(f"relic: built {lang.folder} ({lang.components} components, {lang.faces} faces,"
                  f" {lang.rendered} rendered)", file=sys.stderr)
        secs = result.seconds or float("inf")
        print(f"relic: {result.components} components ({result.faces} distinct faces) in "
              f"{result.seconds:.2f} s: {result.components / secs:.0f} components/s, "
              f"{result.faces / secs:.0f} faces/s; "
              + ", ".join(f"{name} {t:.2f} s" for name, t in result.stages), file=sys.stderr)
        if result.pruned.files:
            print(f"relic: removed {result.pruned.files} cache files "
                  f"({result.pruned.bytes / 1e6:.1f} MB) no build used for "
                  f"{result.pruned.days:g} days", file=sys.stderr)
    build_rulebooks(model, {lang.lang: lang.folder for lang in result.langs}, args)
    return 0


def _build_cards(
    args: argparse.Namespace, jobs: int, workers: Workers
) -> tuple[BuildResult, Model]:
    """Load the model, refuse unsafe assets, build the cards of every requested language."""
    from pipeline.cards import BuildOptions, build
    from pipeline.cards.progress import Progress
    from pipeline.checks.assets import check as check_assets
    from pipeline.diagnostics import RelicError, Severity
    from pipeline.stages import load_model, pack_dir_for

    pack_dir = pack_dir_for(Path(args.content), args.pack)
    model = load_model(pack_dir)
    unsafe = [d for d in check_assets(model) if d.severity is Severity.ERROR]
    if unsafe:
        raise RelicError(unsafe)
    shop: dict = {}
    if args.shop:
        from pipeline.shops import build_options

        shop = build_options(model, args.shop, quiet=args.quiet)
    default_out = Path("build") / model.pack.id / shop.pop("subfolder", "")
    options = BuildOptions(
        out_root=Path(args.out) if args.out else default_out,
        cache_dir=Path(args.cache),
        langs=() if args.lang == "all" else tuple(args.lang.split(",")),
        paper=args.paper,
        duplex=not args.no_duplex,
        proof=args.proof,
        png=(args.png and not args.no_png) or shop.pop("png", False),
        workers=jobs,
        **({} if args.keep_cache_days is None else {"keep_cache_days": args.keep_cache_days}),
        **shop,
    )
    return build(model, options, Progress(quiet=args.quiet), workers), model
