"""Card builds (no rulebook): honest figures for the drawing stage.

    .venv/bin/python bench/card_bench.py [--curve 100 300 1000 3000] [--jobs N] [--skip-canonical]

- the canonical pack, both languages, cold (empty cache): wall and CPU time, components per
  second *and distinct faces per second* (most components are copies of a face);
- a one-card edit (one number on one monster): the whole `relic build` in a fresh process, and
  the drawing of the changed face alone (measured in this process, median of 20);
- generated packs of N distinct cards for each N of `--curve`: wall, CPU and the peak memory of
  the whole process tree (every process `relic build` starts, sampled every 10 ms from /proc),
  and the share of the time spent writing files (the imposition tail), with its CPU time per
  card (this process's and its writers': the tail's own cost, whatever else the cores did).
Every build is `relic build` in a fresh process; the machine's load average is printed with
each figure (other work on a shared machine inflates wall times, less so CPU times).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RELIC = [sys.executable, "-m", "pipeline.cli"]
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Resident bytes of a process and all its descendants (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/statm", "rb") as handle:
                rss[int(entry)] = int(handle.read().split()[1]) * PAGE
            parents[int(entry)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        kids = [p for p, parent in parents.items() if parent == pid and p not in tree]
        tree.update(kids)
        frontier.extend(kids)
    return sum(rss.get(p, 0) for p in tree)


def relic_build(content: Path, pack: str, out: Path, cache: Path, jobs: int,
                extra: tuple[str, ...] = ()) -> dict[str, float]:
    cmd = [*RELIC, "build", "--pack", pack, "--content", str(content), "--out", str(out),
           "--cache", str(cache), "--lang", "all", "--no-rulebook", *extra]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    before = os.times()
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "CI": "1"})
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.01)
    _out_text, err = proc.communicate()
    wall = time.perf_counter() - started
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"relic build failed ({proc.returncode}):\n{err[-3000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system -
                                                          before.children_system)
    return {"wall": wall, "cpu": cpu, "peak": peak, **_stages(err)}


def _stages(err: str) -> dict[str, float]:
    """Stage seconds from `relic build`'s summary line (`...; drawing 1.23 s, writing 0.45 s`)."""
    out = {}
    for match in re.finditer(r"(drawing|writing) ([0-9.]+) s \(([0-9.]+) s CPU\)", err):
        out[match[1]] = float(match[2])
        out[f"{match[1]} cpu"] = float(match[3])
    return out


def counts(out: Path) -> tuple[int, int]:
    """(components, distinct faces) of a built folder, from its manifests."""
    comps = faces = 0
    for manifest in out.glob("*/manifest.json"):
        data = json.loads(manifest.read_text())
        comps += data["total_components"]
        faces += data["distinct_faces"]
    return comps, faces


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}"


def canonical(tmp: Path, jobs: int) -> None:
    content = tmp / "content"
    shutil.copytree(ROOT / "content" / "catacombs", content / "catacombs")
    out, cache = tmp / "out", tmp / "cache"
    cold = relic_build(content, "catacombs", out, cache, jobs)
    comps, faces = counts(out)
    print(f"catacombs cold (ru + en): {cold['wall']:.2f} s wall, {cold['cpu']:.2f} s CPU, "
          f"peak {cold['peak'] / 2**20:.0f} MiB; {comps} components, {faces} distinct faces: "
          f"{comps / cold['wall']:.0f} components/s, {faces / cold['wall']:.0f} faces/s "
          f"({load()})")
    monsters = content / "catacombs" / "monsters.yaml"
    text = monsters.read_text(encoding="utf-8")
    match = re.search(r"(\n- id: zombie\n(?:  .*\n)*?  stats:\n    speed: \d+\n    health: )(\d+)",
                      text)
    monsters.write_text(text[:match.start(2)] + str(int(match[2]) + 1) + text[match.end(2):],
                        encoding="utf-8")
    warm = relic_build(content, "catacombs", out, cache, jobs)
    print(f"catacombs one-card edit (zombie health): {warm['wall']:.2f} s wall, "
          f"{warm['cpu']:.2f} s CPU = {100 * warm['wall'] / cold['wall']:.0f} % of the cold "
          f"build ({load()})")
    print(f"drawing the changed face alone: {face_ms(content / 'catacombs', 'zombie'):.1f} ms "
          "(median of 20, in-process, fonts and layouts loaded)")
    shutil.rmtree(cache)
    with_png = relic_build(content, "catacombs", tmp / "out-png", tmp / "cache-png", jobs,
                           ("--png",))
    print(f"catacombs cold with --png: {with_png['wall']:.2f} s wall, {with_png['cpu']:.2f} s "
          f"CPU: PNGs are {100 * (1 - cold['cpu'] / with_png['cpu']):.0f} % of the CPU time of "
          f"a build that writes them (they stay in the default build only under 15 %) "
          f"({load()})")


def face_ms(pack: Path, entity_id: str) -> float:
    """Median milliseconds to measure and draw one face (what an edit re-renders)."""
    import tempfile
    from dataclasses import replace

    from pipeline.cards import BuildOptions, prepare, render
    from pipeline.stages import load_model

    model = load_model(pack)
    folder = Path(tempfile.mkdtemp(prefix="face-"))  # (the build's charset and components)
    print_set = prepare(model, BuildOptions(folder / "out", folder / "cache", langs=("ru",)))
    profile, comps = print_set.profile, print_set.expanded
    settings = render.RenderSettings.of(profile, comps["ru"], "ru", charset=print_set.charset,
                                        pack_root=str(pack), cache_dir="")
    settings = replace(settings, salt=settings.key())
    face = next(f for f in comps["ru"].faces.values()
                if f.entity_id == entity_id and f.side == "front")
    times = []
    for _ in range(21):
        started = time.perf_counter()
        measured = render.measure_face(face, settings)
        sizes = {k: v for k, v in measured.best.items() if v is not None}
        render.draw_face(face, settings, sizes, "bench")
        times.append(time.perf_counter() - started)
    return statistics.median(times[1:]) * 1000


def generated(folder: Path, n: int) -> Path:
    from bench.peer_bench import relic_pack

    return relic_pack(folder, n)


def curve(tmp: Path, sizes: list[int], jobs: int) -> None:
    print("cards  wall s  CPU s  peak MiB  ms/card wall  ms/card CPU  writing files (share)"
          "  writing CPU (ms/card)")
    for n in sizes:
        pack = generated(tmp / f"gen-{n}", n)
        result = relic_build(pack.parent, "peer", tmp / f"out-{n}", tmp / f"cache-{n}", jobs)
        tail = result.get("writing", float("nan"))
        print(f"{n:5d}  {result['wall']:6.2f}  {result['cpu']:5.2f}  {result['peak'] / 2**20:8.0f}"
              f"  {1000 * result['wall'] / n:12.2f}  {1000 * result['cpu'] / n:11.2f}  "
              f"{tail:.2f} s ({100 * tail / result['wall']:.0f} %)  "
              f"{result.get('writing cpu', float('nan')):.2f} s "
              f"({1000 * result.get('writing cpu', float('nan')) / n:.2f})  ({load()})")
        shutil.rmtree(tmp / f"out-{n}", ignore_errors=True)
        shutil.rmtree(tmp / f"cache-{n}", ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curve", type=int, nargs="*", default=[100, 300, 1000, 3000])
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--skip-canonical", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="relic-card-bench-") as name:
        tmp = Path(name)
        if not args.skip_canonical:
            canonical(tmp, args.jobs)
        if args.curve:
            curve(tmp, args.curve, args.jobs)


if __name__ == "__main__":
    main()
