"""Benchmark: one rulebook build per language of the catacombs pack, stage by stage.

Stages: parse the Markdown and check every reference; render the HTML; lay the pages out
(WeasyPrint); write the PDF; impose the booklet. Best of N runs.
Usage: python bench/rulebook_bench.py [--runs N] [--lang ru|en|all] [--paper a5|a4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.rulebook import book as bk  # noqa: E402
from pipeline.rulebook import pdf  # noqa: E402
from pipeline.stages import load_model  # noqa: E402


def one_run(lang: str, paper: str) -> dict[str, float]:
    import weasyprint

    times: dict[str, float] = {}
    start = time.perf_counter()
    model = load_model(ROOT / "content" / "catacombs")
    times["load model"] = time.perf_counter() - start

    start = time.perf_counter()
    book = bk.parse_book(model.pack.root, lang)
    problems = [*book.diagnostics, *bk.validate(model, book)]
    times["parse + check references"] = time.perf_counter() - start
    if problems:
        raise SystemExit("\n".join(d.text() for d in problems))

    start = time.perf_counter()
    html = bk.render_html(model, book, paper=paper)
    times["render HTML"] = time.perf_counter() - start

    start = time.perf_counter()
    with pdf.fixed_timestamps():
        doc = weasyprint.HTML(string=html, base_url=str(bk.TEMPLATES) + "/",
                              url_fetcher=pdf.FolderFetcher((bk.TEMPLATES,))).render()
        times["layout"] = time.perf_counter() - start
        start = time.perf_counter()
        data = doc.write_pdf()
    times["write PDF"] = time.perf_counter() - start
    times["pages"] = len(doc.pages)

    start = time.perf_counter()
    pdf.booklet(data)
    times["booklet"] = time.perf_counter() - start
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="all")
    parser.add_argument("--paper", choices=["a5", "a4"], default="a5")
    args = parser.parse_args()
    langs = ["ru", "en"] if args.lang == "all" else [args.lang]
    for lang in langs:
        runs = [one_run(lang, args.paper) for _ in range(args.runs)]
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        pages = int(best.pop("pages"))
        total = sum(v for k, v in best.items() if k != "booklet")
        print(f"{lang} ({args.paper}, {pages} pages), best of {args.runs}:")
        for stage, seconds in best.items():
            print(f"  {stage:<26} {seconds:6.2f} s")
        print(f"  {'total (without booklet)':<26} {total:6.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
