"""Benchmark: the catacombs rulebook per language, stage by stage, cold and from the cache.

Stages: load the model; parse the Markdown and check every reference (and composing the
units' HTML); lay the units out (WeasyPrint, on N worker processes, cold: one round on guessed
page numbers and one on the real ones) and assemble the book; the same again from the cache
(nothing changed); one chapter edited in place, and then three paragraphs longer (in the ru
book it then takes a page more, and every later page number moves). Pictures are left out
(they come from the card renderer, measured by bench/build_bench.py). Best of N runs.

Usage: python bench/rulebook_bench.py [--runs N] [--lang ru|en|all] [--paper a5|a4] [--jobs J]
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.rulebook import make_book, prepare  # noqa: E402
from pipeline.stages import load_model  # noqa: E402


def one_run(lang: str, paper: str, jobs: int) -> dict[str, float]:
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="relic-rulebook-bench-") as tmp, \
            ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        # a copy of the pack, edited in place later: the book's pages name the pack's own
        # files (its icons), so a copy elsewhere would be a different book
        pack = Path(tmp) / "content" / "catacombs"  # a pack's folder is named by its id
        shutil.copytree(ROOT / "content" / "catacombs", pack)
        cache = Path(tmp) / "cache"
        start = time.perf_counter()
        model = load_model(pack)
        times["load model"] = time.perf_counter() - start

        start = time.perf_counter()
        composed = prepare(model, lang, paper=paper)
        times["check references + compose"] = time.perf_counter() - start

        start = time.perf_counter()
        finished = make_book(composed, model, cache, executor=pool)
        times["lay out + assemble, cold"] = time.perf_counter() - start
        times["units laid out, cold"] = finished.laid_out
        start = time.perf_counter()
        again = make_book(prepare(model, lang, paper=paper), model, cache, executor=pool)
        times["the same, from the cache"] = time.perf_counter() - start
        times["units laid out, cached"] = again.laid_out
        chapter = pack / "rules" / lang / "06-traps.md"
        text = chapter.read_text(encoding="utf-8")
        for label, edit in EDITS:
            text = edit(text)
            chapter.write_text(text, encoding="utf-8")
            edited = load_model(pack)
            start = time.perf_counter()
            changed = make_book(prepare(edited, lang, paper=paper), edited, cache,
                                executor=pool)
            times[label] = time.perf_counter() - start
            times[f"units laid out, {label}"] = changed.laid_out
    times["units"] = finished.units
    return times


EDITS = (
    # a word's worth: the chapter's pages stay as they were (the first full stop of a
    # sentence becomes an exclamation mark)
    ("one chapter edited", lambda text: text.replace(". ", "! ", 1)),
    # three short paragraphs more: where they take the chapter onto a page more (the ru
    # book), every later page number moves, and the parts that print one are laid out again
    ("three paragraphs more", lambda text: text + "\n\n" + "—\n\n" * 3),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="all")
    parser.add_argument("--paper", choices=["a5", "a4"], default="a5")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    langs = ["ru", "en"] if args.lang == "all" else [args.lang]
    for lang in langs:
        runs = [one_run(lang, args.paper, args.jobs) for _ in range(args.runs)]
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        print(f"{lang} ({args.paper}, {int(best.pop('units'))} units, {args.jobs} workers), "
              f"best of {args.runs}:")
        width = max(map(len, best))
        for stage, value in best.items():
            shown = f"{int(value):6d}" if stage.startswith("units") else f"{value:6.2f} s"
            print(f"  {stage:<{width}} {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
