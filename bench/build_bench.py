"""Build speed: the canonical pack cold, a one-card edit, and a generated 1,000-card pack.

    .venv/bin/python bench/build_bench.py [--jobs N] [--cards 1000] [--skip-canonical]

Every build runs `relic build` in a fresh process on a temporary copy of the content with an
empty cache (cold), then again after changing one number on one card (incremental). Prints
components per second; the targets are >= 100 cards/s cold on 2 cores and a one-card rebuild
under 10% of the cold time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELIC = [sys.executable, "-m", "pipeline.cli"]


def relic_build(content: Path, pack: str, out: Path, cache: Path, jobs: int) -> float:
    cmd = [*RELIC, "build", "--pack", pack, "--content", str(content), "--out", str(out),
           "--cache", str(cache), "--lang", "all", "--quiet"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "CI": "1"})
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"relic build failed ({done.returncode}):\n{done.stderr}")
    return elapsed


def components(out: Path) -> int:
    return sum(json.loads(m.read_text())["total_components"] for m in out.glob("*/manifest.json"))


def generated_pack(folder: Path, cards: int) -> Path:
    """A pack of `cards` distinct event cards (every card different), two languages."""
    pack = folder / "generated"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: generated\ntitle: {ru: Сгенерированный набор, en: Generated pack}\n"
        "languages: [ru, en]\n"
        "print:\n  components:\n    card: {format: poker, template: card, back: deck, "
        "back_by: deck}\n", encoding="utf-8")
    lines = ["- id: event-deck\n  kind: deck\n  name: {ru: События, en: Events}\n"
             "  cards: card\n  type: event\n"]
    for i in range(cards):
        lines.append(
            f"- id: event-{i}\n  kind: card\n  deck: event-deck\n"
            f"  name: {{ru: Событие {i}, en: Event {i}}}\n"
            f"  text: {{ru: 'Брось :d6:. На {i % 6 + 1}+ получи {i % 5 + 1} сокровища.',"
            f" en: 'Roll :d6:. On {i % 6 + 1}+ take {i % 5 + 1} treasures.'}}\n")
    (pack / "cards.yaml").write_text("\n".join(lines), encoding="utf-8")
    return pack


def edit_one_card(pack: Path) -> str:
    """Change the first integer `count:` or stat on one card: returns what was changed."""
    for path in sorted(pack.glob("*.yaml")):
        if path.name == "pack.yaml":
            continue
        text = path.read_text(encoding="utf-8")
        match = re.search(r"(Событие 0|health: )(\d+)", text)
        if match:
            new = text[:match.start(2)] + str(int(match[2]) + 1) + text[match.end(2):]
            path.write_text(new, encoding="utf-8")
            return f"{path.name}: {match[1]}{match[2]} -> {int(match[2]) + 1}"
    sys.exit("nothing to edit")


def run(label: str, content: Path, pack: str, jobs: int, tmp: Path) -> None:
    out, cache = tmp / f"out-{pack}", tmp / f"cache-{pack}"
    cold = relic_build(content, pack, out, cache, jobs)
    n = components(out)
    print(f"{label}: cold build {n} components in {cold:.2f} s = {n / cold:.0f} cards/s")
    what = edit_one_card(content / pack)
    warm = relic_build(content, pack, out, cache, jobs)
    print(f"{label}: one-card edit ({what}) rebuilt in {warm:.2f} s = "
          f"{100 * warm / cold:.1f}% of cold")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--skip-canonical", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="relic-bench-") as name:
        tmp = Path(name)
        if not args.skip_canonical:
            content = tmp / "content"
            shutil.copytree(ROOT / "content" / "catacombs", content / "catacombs")
            run("catacombs", content, "catacombs", args.jobs, tmp)
        generated_pack(tmp / "gen", args.cards)
        run(f"generated {args.cards}", tmp / "gen", "generated", args.jobs, tmp)


if __name__ == "__main__":
    main()
