"""Peak memory and time of `relic check` and `relic build` on the largest pack the bounds allow.

    .venv/bin/python bench/hostile_bench.py [--faces-langs ru] [--png] [--jobs N] [--check-only]

The bounds (README, "Safety bounds"): a pack prints at most 10,000 components and an entity has
at most 1,000 copies. Two packs sit on the bound, each run in a fresh process with a cold cache:

- copies: 10 cards x 1,000 copies (few faces to render, 10,000 components on the sheets);
- faces: 10,000 distinct cards (10,000 faces to render; by default in one language and without
  PNGs, which is already the longest build; `--faces-langs all --png` for the whole thing).

And, for `relic check` only, the largest single file: a 1 MiB one-line list of wrong values
(the file that once gave 333,000 diagnostics in 17 s; now 100 and a count).

Memory is the peak resident size of the process tree (sampled from /proc every 0.1 s, the sum
of `relic` and its workers) and the largest single process (ru_maxrss). Figures are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_bench import generated_pack  # the sibling bench's generated card pack

ROOT = Path(__file__).resolve().parent.parent
RELIC = [sys.executable, "-m", "pipeline.cli"]
# Runs a command and reports the peak resident size of its largest process (ru_maxrss of the
# waited-for descendants), so that every measurement starts from zero.
WRAP = [sys.executable, "-c", "import resource, subprocess, sys; code = subprocess.call("
        "sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
        "file=sys.stderr); sys.exit(code)"]
MAX_COMPONENTS = 10_000
MAX_COUNT = 1_000


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        here = todo.pop()
        found.append(here)
        try:
            for task in os.listdir(f"/proc/{here}/task"):
                text = Path(f"/proc/{here}/task/{task}/children").read_text()
                todo.extend(int(c) for c in text.split())
        except OSError:
            continue
    return found


def measure(cmd: list[str]) -> dict:
    """Wall seconds, peak resident KiB of the whole process tree and of its largest process."""
    started = time.perf_counter()
    proc = subprocess.Popen([*WRAP, *cmd], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "CI": "1"})
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            tree = _tree(proc.pid)[1:]  # relic and its workers, not the wrapper
            peak[0] = max(peak[0], sum(_rss_kib(p) for p in tree))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    sampler.join()
    seconds = time.perf_counter() - started
    err, _, last = err.rstrip("\n").rpartition("\n")
    single = int(last) if last.strip().isdigit() else 0
    return {"code": proc.returncode, "seconds": seconds, "tree_kib": peak[0],
            "largest_kib": single, "out": out, "err": err}


def copies_pack(folder: Path) -> Path:
    """10 distinct cards of 1,000 copies each: the 10,000 components of the bound."""
    pack = generated_pack(folder, MAX_COMPONENTS // MAX_COUNT)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace(
        "  kind: card\n", f"  kind: card\n  count: {MAX_COUNT}\n"), "utf-8")
    return pack


def split_cards(pack: Path, per_file: int = 1000) -> Path:
    """The generated cards.yaml in files of `per_file` entities (a file holds at most 1 MiB)."""
    entries = (pack / "cards.yaml").read_text("utf-8").split("\n- id: ")
    entries = [entries[0]] + ["- id: " + e for e in entries[1:]]
    (pack / "cards.yaml").unlink()
    for i in range(0, len(entries), per_file):
        (pack / f"cards-{i // per_file:03d}.yaml").write_text(
            "\n".join(entries[i:i + per_file]), "utf-8")
    return pack


def wrong_values_pack(folder: Path) -> Path:
    pack = folder / "wrong"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: wrong\ntitle: {ru: Ошибки}\nlanguages: [ru]\n", "utf-8")
    (pack / "wrong.yaml").write_text("[" + ", ".join(["1"] * 349_000) + "]\n", "utf-8")
    return pack


def report(label: str, result: dict, expected: int = 0) -> None:
    status = f"exit {result['code']}" + ("" if result["code"] == expected else " (UNEXPECTED)")
    print(f"{label:<44} {result['seconds']:8.2f} s   tree {result['tree_kib'] / 1024:7.0f} MiB"
          f"   largest process {result['largest_kib'] / 1024:6.0f} MiB   {status}",
          flush=True)
    if result["code"] != expected:
        print(result["out"][-2000:], result["err"][-2000:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faces-langs", default="ru", help="languages of the 10,000-face build")
    parser.add_argument("--png", action="store_true", help="also write PNGs of the faces pack")
    parser.add_argument("--jobs", type=int, default=0, help="render processes (default: cores)")
    parser.add_argument("--check-only", action="store_true", help="skip the two builds")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory(prefix="relic-hostile-bench-") as tmp:
        folder = Path(tmp)
        copies = copies_pack(folder / "copies")
        faces = split_cards(generated_pack(folder / "faces", MAX_COMPONENTS))
        wrong = wrong_values_pack(folder / "wrong-values")
        size = (wrong / "wrong.yaml").stat().st_size
        print(f"packs: {copies.name} (10 x {MAX_COUNT} copies), {faces.name} "
              f"({MAX_COMPONENTS} cards), wrong.yaml ({size} bytes)\n", flush=True)
        report("check: 1 MiB list of wrong values", measure([*RELIC, "check", str(wrong)]), 1)
        report("check: 10 cards x 1,000 copies", measure([*RELIC, "check", str(copies)]))
        report("check: 10,000 distinct cards", measure([*RELIC, "check", str(faces)]))
        if args.check_only:
            return
        for pack, langs, png, label in (
            (copies, "all", True, "build: 10 cards x 1,000 copies (all, PNG)"),
            (faces, args.faces_langs, args.png,
             f"build: 10,000 distinct cards ({args.faces_langs}{', PNG' if args.png else ''})"),
        ):
            cmd = [*RELIC, "build", "--pack", pack.name, "--content", str(pack.parent),
                   "--out", str(folder / "out" / pack.name), "--cache", str(folder / "cache"),
                   "--lang", langs, "--quiet", "--no-rulebook", *jobs]
            if not png:
                cmd.append("--no-png")
            report(label, measure(cmd))


if __name__ == "__main__":
    main()
