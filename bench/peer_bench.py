"""Relic against protograf, the Python card tool a designer would otherwise pick, in one run.

    .venv/bin/python bench/peer_bench.py [--cards 1000 270] [--pairs 5] [--png]

Both build the same N distinct poker cards, each a title and a text wrapped into a box, on A4
sheets. protograf is installed from PyPI into its own venv under build/peer-bench/ (once).
Each measurement is a fresh process with an empty cache (relic: `relic build --no-rulebook`,
which also writes the one-card-per-page shop file and the manifest); the two tools take turns,
alternating which goes first, and the medians over the pairs are compared. Prints the medians,
the ratio relic / protograf (wall time) and the CPU time of each.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "peer-bench"
VENV = WORK / "venv"
WORDS = ["the", "hero", "opens", "the", "tile", "and", "finds", "a", "trap", "while", "the",
         "monster", "waits", "in", "the", "dark", "corridor", "behind", "the", "door", "with",
         "a", "lantern", "and", "a", "rope"]


def texts(n: int) -> list[tuple[str, str]]:
    """N distinct cards: a title and 25-45 words of text (the same data for both tools)."""
    return [(f"Card number {i}", " ".join(WORDS[(i + k) % len(WORDS)] for k in range(25 + i % 20))
             + f" ({i})") for i in range(n)]


def ensure_protograf() -> Path:
    python = VENV / "bin" / "python"
    if not (VENV / ".ready").is_file():
        print("installing protograf into build/peer-bench/venv (once) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "protograf"], check=True)
        (VENV / ".ready").touch()
    return python


PROTOGRAF = '''import json, os
from protograf import *
cards = json.load(open(os.environ["CARDS"], encoding="utf-8"))
Create(filename=os.environ["OUT"], paper="A4", margin=0.5, units="cm")
Data(source=[{"title": t, "body": b} for t, b in cards])
Deck(cards=len(cards), width=6.35, height=8.89)
Card("*",
     text(text=T("{{ title }}"), x=3.175, y=1.0, font_size=14),
     text(text=T("{{ body }}"), x=0.4, y=2.0, width=5.55, height=6.0, wrap=True, font_size=9,
          align="left"))
Save(cards=os.environ.get("PNG") == "1", dpi=300)
'''

SCHEMA = '''{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "relic://schemas/kinds/note.json",
  "description": "A benchmark card: a title and a text.",
  "type": "object",
  "additionalProperties": false,
  "required": ["id", "kind", "name", "text"],
  "properties": {
    "id": {"$ref": "../defs.json#/definitions/id", "description": "Id."},
    "kind": {"const": "note", "description": "Kind."},
    "name": {"$ref": "../defs.json#/definitions/text", "description": "Title."},
    "text": {"$ref": "../defs.json#/definitions/text", "description": "Text."}
  }
}
'''

LAYOUT = '''description: The benchmark card, as the protograf script draws it.
elements:
  - {type: rect, stroke: ink, stroke_width: 0.2mm}
  - type: text
    box: {x: 4mm, right: 4mm, y: 6mm, h: 8mm}
    text: "{{ entity.name }}"
    font_size: 14pt
    align: center
  - type: text
    box: {x: 4mm, right: 4mm, y: 20mm, h: 60mm}
    text: "{{ entity.text }}"
    font_size: 9pt
'''


def relic_pack(folder: Path, n: int) -> Path:
    pack = folder / "peer"
    shutil.rmtree(pack, ignore_errors=True)
    (pack / "schemas" / "kinds").mkdir(parents=True)
    (pack / "print" / "layouts").mkdir(parents=True)
    (pack / "schemas" / "kinds" / "note.json").write_text(SCHEMA, encoding="utf-8")
    (pack / "print" / "layouts" / "note.yaml").write_text(LAYOUT, encoding="utf-8")
    (pack / "pack.yaml").write_text(
        "id: peer\ntitle: {en: Peer bench}\nlanguages: [en]\n"
        "print:\n  paper: a4\n  components:\n    note: {format: poker, template: note}\n",
        encoding="utf-8")
    lines = [f"- id: note-{i}\n  kind: note\n  name: {{en: '{t}'}}\n  text: {{en: '{b}'}}\n"
             for i, (t, b) in enumerate(texts(n))]
    (pack / "notes.yaml").write_text("\n".join(lines), encoding="utf-8")
    return pack


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({done.returncode}):\n{done.stdout[-2000:]}\n"
                 f"{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_relic(n: int, png: bool, run: int) -> tuple[float, float]:
    folder = WORK / f"relic-{n}"
    out, cache = folder / f"out-{run}", folder / f"cache-{run}"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--pack", "peer", "--content",
           str(folder / "content"), "--out", str(out), "--cache", str(cache), "--quiet",
           "--no-rulebook", *(["--png"] if png else [])]
    result = timed(cmd, {**os.environ, "CI": "1"}, ROOT)
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    return result


def run_protograf(python: Path, n: int, png: bool, run: int) -> tuple[float, float]:
    folder = WORK / f"protograf-{n}" / f"run-{run}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    env = {**os.environ, "CARDS": str(WORK / f"cards-{n}.json"), "OUT": "cards.pdf",
           "PNG": "1" if png else "0"}
    result = timed([str(python), str(WORK / "protograf_cards.py")], env, folder)
    shutil.rmtree(folder, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[1000, 270])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--png", action="store_true", help="both tools also write 300 DPI PNGs")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    python = ensure_protograf()
    (WORK / "protograf_cards.py").write_text(PROTOGRAF, encoding="utf-8")
    import json

    print(f"relic vs protograf, {args.pairs} interleaved pairs, PNGs {'on' if args.png else 'off'}"
          f", {len(os.sched_getaffinity(0))} cores, load average {os.getloadavg()[0]:.1f}")
    for n in args.cards:
        (WORK / f"cards-{n}.json").write_text(json.dumps(texts(n)), encoding="utf-8")
        relic_pack(WORK / f"relic-{n}" / "content", n)
        relic, peer = [], []
        for i in range(args.pairs):
            order = [("relic", lambda i=i, n=n: run_relic(n, args.png, i)),
                     ("protograf", lambda i=i, n=n: run_protograf(python, n, args.png, i))]
            if i % 2:
                order.reverse()
            for name, fn in order:
                (relic if name == "relic" else peer).append(fn())
        rw, rc = statistics.median(w for w, _ in relic), statistics.median(c for _, c in relic)
        pw, pc = statistics.median(w for w, _ in peer), statistics.median(c for _, c in peer)
        print(f"{n} cards: relic {rw:.2f} s wall ({rc:.2f} s CPU), protograf {pw:.2f} s wall "
              f"({pc:.2f} s CPU); relic / protograf = {rw / pw:.2f} wall, {rc / pc:.2f} CPU "
              f"(runs: relic {', '.join(f'{w:.2f}' for w, _ in relic)}; protograf "
              f"{', '.join(f'{w:.2f}' for w, _ in peer)})")


if __name__ == "__main__":
    main()
