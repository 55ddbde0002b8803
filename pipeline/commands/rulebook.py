"""`relic rulebook --pack ID --lang ru|en|all`: build the rulebook PDF(s) on their own."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.rulebook import build_rulebook
from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulebook", help="build the rulebook PDF from the rules prose and the data")
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--lang", default="all", help="a language of the pack, or 'all' (default)")
    p.add_argument("--paper", choices=["a5", "a4", "letter"], default="a5",
                   help="page size (default a5)")
    p.add_argument("--booklet", action="store_true",
                   help="also write rulebook-booklet.pdf: saddle-stitch, two-up on A4 landscape")
    p.add_argument("--proof", action="store_true",
                   help="mark provisional decisions with their reasons")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--out", default="build", help="output root (default: build)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    langs = list(model.pack.languages) if args.lang == "all" else [args.lang]
    unknown = [lang for lang in langs if lang not in model.pack.languages]
    if unknown:
        print(f"relic: error[usage]: the pack has no language {unknown[0]!r} "
              f"(languages: {', '.join(model.pack.languages)})", file=sys.stderr)
        return 2
    for lang in langs:
        out_dir = Path(args.out) / model.pack.id / lang
        for path in build_rulebook(model, lang, out_dir, paper=args.paper,
                                   booklet=args.booklet, proof=args.proof):
            print(f"wrote {path}")
    return 0
