"""`relic rulebook --pack ID --lang ru|en|all`: build the rulebook PDF(s) on their own."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pipeline.commands.output import FolderError, build_lock, usable_folder


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
    p.add_argument("--cache", default=None,
                   help="render cache, shared with relic build (default: OUT/.cache)")
    p.add_argument("--jobs", type=int, default=0, help="layout processes (default: all cores)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.processes import default_workers
    from pipeline.rulebook import FacePictures, install, make_book, prepare
    from pipeline.stages import load_model, pack_dir_for

    out, cache = Path(args.out), Path(args.cache or Path(args.out) / ".cache")
    try:
        usable_folder(out, "output folder")
        usable_folder(cache, "cache folder")
    except FolderError as exc:
        print(f"relic: error[usage]: {exc}", file=sys.stderr)
        return 2
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    langs = list(model.pack.languages) if args.lang == "all" else [args.lang]
    unknown = [lang for lang in langs if lang not in model.pack.languages]
    if unknown:
        print(f"relic: error[usage]: the pack has no language {unknown[0]!r} "
              f"(languages: {', '.join(model.pack.languages)})", file=sys.stderr)
        return 2
    jobs = args.jobs or default_workers()
    books = []
    for lang in langs:  # every book is checked before any is laid out
        pictures = FacePictures(model, lang, cache, proof=args.proof, workers=jobs)
        books.append((lang, pictures, prepare(model, lang, paper=args.paper, proof=args.proof,
                                              pictures=pictures)))
    try:
        with build_lock(out / model.pack.id, model.pack.id), ProcessPoolExecutor(
                jobs, mp_context=multiprocessing.get_context("fork")) as executor:
            for lang, pictures, composed in books:
                finished = make_book(composed, model, cache, pictures=pictures,
                                     booklet=args.booklet, executor=executor)
                for path in install(finished.pdf, out / model.pack.id / lang, args.booklet):
                    print(f"wrote {path}")
    except FolderError as exc:
        print(f"relic: error[usage]: {exc}", file=sys.stderr)
        return 2
    return 0
