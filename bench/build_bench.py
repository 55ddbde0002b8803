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
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELIC = [sys.executable, "-m", "pipeline.cli"]


def relic_build(content: Path, pack: str, out: Path, cache: Path, jobs: int) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process's children) of one `relic build` of the cards
    (the rulebook is measured by bench/rulebook_bench.py)."""
    cmd = [*RELIC, "build", "--pack", pack, "--content", str(content), "--out", str(out),
           "--cache", str(cache), "--lang", "all", "--quiet", "--no-rulebook"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "CI": "1"})
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"relic build failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


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


EDITS = [
    (r"(\n- id: zombie\n(?:  .*\n)*?  stats:\n    speed: \d+\n    health: )(\d+)", "zombie health"),
    (r"(\n- id: event-0\n(?:  .*\n)*?  text: \{ru: 'Брось :d6:\. На )(\d+)", "event-0 roll"),
]


def edit_one_card(pack: Path) -> str:
    """Change one number on one card (a copy of the content): returns what was changed."""
    for path in sorted(pack.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        for pattern, label in EDITS:
            match = re.search(pattern, text)
            if match:
                value = int(match[2])
                path.write_text(text[:match.start(2)] + str(value + 1) + text[match.end(2):],
                                encoding="utf-8")
                return f"{label} {value} -> {value + 1} in {path.name}"
    sys.exit("nothing to edit")


def run(label: str, content: Path, pack: str, jobs: int, tmp: Path) -> None:
    out, cache = tmp / f"out-{pack}", tmp / f"cache-{pack}"
    cold, cold_cpu = relic_build(content, pack, out, cache, jobs)
    n = components(out)
    cores = len(os.sched_getaffinity(0))
    print(f"{label}: cold build of {n} components (all languages): {cold:.2f} s wall, "
          f"{cold_cpu:.2f} s CPU -> {n / cold:.0f} cards/s wall; {n / cold_cpu * cores:.0f} "
          f"cards/s if the CPU time spread evenly over {cores} idle cores "
          f"(load average now {os.getloadavg()[0]:.1f})")
    what = edit_one_card(content / pack)
    warm, warm_cpu = relic_build(content, pack, out, cache, jobs)
    print(f"{label}: one-card edit ({what}): {warm:.2f} s wall, {warm_cpu:.2f} s CPU = "
          f"{100 * warm / cold:.1f}% of the cold wall time, {100 * warm_cpu / cold_cpu:.1f}% "
          f"of its CPU time")


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
