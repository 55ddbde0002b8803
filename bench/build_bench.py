"""Build speed: this tree against the previous release, the one-card edit, a generated pack.

    .venv/bin/python bench/build_bench.py [--runs 3] [--baseline 5c6d838] [--skip-baseline]
                                          [--skip-edit] [--edit-peer COMMIT] [--cards 1000]
                                          [--jobs N]

1. Before and after, in one run. The canonical pack, both languages, cards and rulebook, cold
   (empty cache, fresh output folder), built by this tree and by the previous release: a
   `git worktree` of the baseline commit under build/bench-baseline/ with its own venv (made
   once, then reused). Each version builds its own content/catacombs. The runs take turns
   (new, old, old, new, ...) and the medians are compared: the ratio new / old (target <= 0.4).
   Throughput is given as components per second and as distinct faces per second (a face is
   rendered once however many copies print it).
2. The one-card edit, with the plain `relic build --pack catacombs --lang ru` (rulebook
   included): a cold build, then one number changed on a card the book does not print (the
   rockfall event's health loss), then on a card the book shows as a picture but does not
   quote (the lantern's action cost, in its text), then on one the book prints (the zombie's
   health, in its stat block). Each edit's wall time as a share of the cold build (target
   <= 10%). With `--edit-peer COMMIT` the edits of that commit (a worktree with its own venv,
   as the baseline's) are timed too, the two trees taking turns run by run.
3. A generated pack of N distinct cards (no rulebook), cold and after a one-card edit.

Both trees are byte-compiled first, as their installs do. Every build is a fresh `relic`
process; wall time and CPU time (of the whole process tree: this script is the child
subreaper of its builds, so that the layout workers a build's book process leaves behind are
counted too) are measured here. Figures taken on a busy machine vary: the load average is
printed with them.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "5c6d838"
BUILT = re.compile(r"relic: built \S+ \((\d+) components, (\d+) faces, (\d+) rendered\)")


@dataclass(frozen=True)
class Version:
    """A tree that can run `relic`: this one, or the baseline's worktree."""

    name: str
    root: Path
    python: Path

    def relic(self) -> list[str]:
        return [str(self.python), "-m", "pipeline.cli"]


@dataclass(frozen=True)
class Timed:
    wall: float
    cpu: float
    components: int
    faces: int
    rendered: int


def adopt_orphans() -> None:
    """Become the child subreaper (Linux): a build's grandchildren whose parent ended before
    them are reparented to this process, so their CPU time reaches RUSAGE_CHILDREN."""
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def reap() -> None:
    """Wait for every orphan adopted so far."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def byte_compile(version: Version) -> None:
    """Byte-compile the version's own packages, as its install does (`pipeline/bootstrap.py`,
    or pip for a regular install): with PYTHONDONTWRITEBYTECODE set, as on this machine, a
    tree edited since would otherwise compile its modules again in every process."""
    packages = [p for p in ("pipeline", "engine") if (version.root / p).is_dir()]
    subprocess.run([str(version.python), "-m", "compileall", "-q", *packages], cwd=version.root,
                   check=True, stdout=subprocess.DEVNULL)


def this_tree() -> Version:
    return Version("this tree", ROOT, Path(sys.executable))


def baseline(commit: str) -> Version:
    """The worktree of `commit` under build/bench-baseline/, with its venv (made once)."""
    folder = ROOT / "build" / "bench-baseline" / commit
    if not (folder / "pyproject.toml").is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        print(f"making a worktree of {commit} in {folder.relative_to(ROOT)} ...", flush=True)
        subprocess.run(["git", "worktree", "add", "--detach", str(folder), commit], cwd=ROOT,
                       check=True, capture_output=True)
    python = folder / ".venv" / "bin" / "python"
    stamp = folder / ".venv" / ".installed"
    if not stamp.is_file():
        print(f"installing {commit} into its own venv (first run only, about a minute) ...",
              flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(folder / ".venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-e", str(folder)],
                       check=True)
        stamp.touch()
    return Version(f"release {commit}", folder, python)


def build(version: Version, content: Path, pack: str, out: Path, cache: Path, lang: str,
          jobs: int, *extra: str) -> Timed:
    """One `relic build` in a fresh process: wall and CPU seconds, what it built."""
    cmd = [*version.relic(), "build", "--pack", pack, "--content", str(content), "--out",
           str(out), "--cache", str(cache), "--lang", lang, *extra]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=version.root, capture_output=True, text=True,
                          env={**os.environ, "CI": "1"})
    wall = time.perf_counter() - started
    reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{version.name}: relic build failed ({done.returncode}):\n{done.stderr}")
    counts = [tuple(map(int, m)) for m in BUILT.findall(done.stderr)]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu, sum(c[0] for c in counts), sum(c[1] for c in counts),
                 sum(c[2] for c in counts))


def cold(version: Version, tmp: Path, lang: str, jobs: int, *extra: str) -> tuple[Timed, Path]:
    """A cold build of the version's own canonical pack (copied, so edits stay private)."""
    run = Path(tempfile.mkdtemp(prefix="run-", dir=tmp))
    content = run / "content"
    shutil.copytree(version.root / "content" / "catacombs", content / "catacombs")
    timed = build(version, content, "catacombs", run / "out", run / "cache", lang, jobs, *extra)
    return timed, run


def edit(path: Path, pattern: str) -> str:
    """Add 1 to the number that `pattern`'s second group matches; what changed."""
    text = path.read_text(encoding="utf-8")
    match = re.search(pattern, text, flags=re.S)
    if match is None:
        sys.exit(f"nothing to edit in {path}")
    old = int(match[2])
    path.write_text(text[:match.start(2)] + str(old + 1) + text[match.end(2):], encoding="utf-8")
    return f"{old} -> {old + 1}"


EDITS = {
    # on the card only: the rockfall event's health loss, in both texts and in its outcome
    "an event card the book does not print (rockfall: health lost)": [
        ("cards.yaml", r"(- id: rockfall\n.*?ru: \"Все герои на этой площадке теряют )(\d+)"),
        ("cards.yaml", r"(- id: rockfall\n.*?en: \"Every hero on this tile loses )(\d+)"),
        ("cards.yaml", r"(- id: rockfall\n.*?outcome: \{health: -)(\d+)")],
    # pictured in the book, not quoted: the lantern's action cost, in the text of its card
    # (the book's table of items shows other fields, and its chapter on setup a picture of
    # every item card)
    "an item card the book pictures, not quotes (lantern: its text)": [
        ("items.yaml", r"(- id: lantern\n.*?ru: \"Дальнозоркость — за )(\d+)"),
        ("items.yaml", r"(- id: lantern\n.*?en: \"Far-seeing — for )(\d+)")],
    # printed in the book: the zombie's health, in its stat block (and on its card, pictured)
    "a monster the book prints (zombie: health)": [
        ("monsters.yaml", r"(\n- id: zombie\n(?:  .*\n)*?  stats:\n    speed: \d+\n"
                          r"    health: )(\d+)")],
}


def median(values: list[float]) -> float:
    return statistics.median(values)


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}"


def before_and_after(new: Version, old: Version, runs: int, jobs: int, tmp: Path) -> None:
    print(f"\n1. The canonical pack, both languages, cards and rulebook, cold: {new.name} "
          f"against {old.name}, {runs} runs each, taking turns", flush=True)
    times: dict[str, list[Timed]] = {new.name: [], old.name: []}
    for i in range(runs):
        order = (new, old) if i % 2 == 0 else (old, new)
        for version in order:
            timed, run = cold(version, tmp, "all", jobs)
            shutil.rmtree(run, ignore_errors=True)
            times[version.name].append(timed)
            print(f"   run {i + 1}: {version.name}: {timed.wall:.2f} s wall, {timed.cpu:.2f} s "
                  f"CPU ({load()})", flush=True)
    for name, timed in times.items():
        wall = median([t.wall for t in timed])
        t = timed[0]
        print(f"   {name}: median {wall:.2f} s wall, {median([t.cpu for t in timed]):.2f} s CPU;"
              f" {t.components} components ({t.components / wall:.0f}/s), {t.faces} distinct "
              f"faces ({t.faces / wall:.0f}/s)")
    ratio = median([t.wall for t in times[new.name]]) / median([t.wall for t in times[old.name]])
    print(f"   ratio {new.name} / {old.name}: {ratio:.2f} of the wall time (target <= 0.4)")


@dataclass
class EditTimes:
    """One version's cold builds and edits, run after run."""

    colds: list[Timed]
    edits: dict[str, list[Timed]]


def one_card_edit(versions: list[Version], runs: int, jobs: int, tmp: Path) -> None:
    """The edits of every version (this tree, and a peer if asked), taking turns run by run."""
    names = " and ".join(v.name for v in versions)
    print(f"\n2. The one-card edit with `relic build --pack catacombs --lang ru` (rulebook "
          f"included), {names}, {runs} runs" + (", taking turns" if len(versions) > 1 else ""),
          flush=True)
    times = {v.name: EditTimes([], {label: [] for label in EDITS}) for v in versions}
    for i in range(runs):
        for version in versions if i % 2 == 0 else versions[::-1]:
            line = _edit_run(version, times[version.name], jobs, tmp)
            who = f"{version.name}: " if len(versions) > 1 else ""
            print(f"   run {i + 1}: {who}" + "; ".join(line) + f" ({load()})", flush=True)
    for version in versions:
        done = times[version.name]
        base = median([t.wall for t in done.colds])
        base_cpu = median([t.cpu for t in done.colds])
        who = f"{version.name}: " if len(versions) > 1 else ""
        print(f"   {who}cold: median {base:.2f} s wall, {base_cpu:.2f} s CPU")
        for label, timed in done.edits.items():
            wall, cpu = median([t.wall for t in timed]), median([t.cpu for t in timed])
            print(f"   {who}{label}: median {wall:.2f} s = {100 * wall / base:.1f}% of the cold "
                  f"build's wall time (target <= 10%); {cpu:.2f} s CPU = "
                  f"{100 * cpu / base_cpu:.1f}% of its CPU time")


def _edit_run(version: Version, times: EditTimes, jobs: int, tmp: Path) -> list[str]:
    """One cold build of the version, then each edit in turn: what it printed."""
    timed, run = cold(version, tmp, "ru", jobs)
    times.colds.append(timed)
    line = [f"cold {timed.wall:.2f} s, {timed.cpu:.2f} s CPU"]
    for label, changes in EDITS.items():
        for file, pattern in changes:
            edit(run / "content" / "catacombs" / file, pattern)
        warm = build(version, run / "content", "catacombs", run / "out", run / "cache", "ru",
                     jobs)
        times.edits[label].append(warm)
        line.append(f"{label.split(' (')[0]} {warm.wall:.2f} s, {warm.cpu:.2f} s CPU "
                    f"({warm.rendered} faces)")
    shutil.rmtree(run, ignore_errors=True)
    return line


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


def generated(cards: int, jobs: int, tmp: Path) -> None:
    print(f"\n3. A generated pack of {cards} distinct cards (both languages, no rulebook)",
          flush=True)
    folder = tmp / "gen"
    generated_pack(folder, cards)
    version = this_tree()
    first = build(version, folder, "generated", tmp / "gen-out", tmp / "gen-cache", "all", jobs)
    print(f"   cold: {first.wall:.2f} s wall, {first.cpu:.2f} s CPU; {first.components} "
          f"components ({first.components / first.wall:.0f}/s), {first.faces} distinct faces "
          f"({first.faces / first.wall:.0f}/s) ({load()})")
    change = edit(folder / "generated" / "cards.yaml",
                  r"(\n- id: event-0\n(?:  .*\n)*?  text: \{ru: 'Брось :d6:\. На )(\d+)")
    warm = build(version, folder, "generated", tmp / "gen-out", tmp / "gen-cache", "all", jobs)
    print(f"   one-card edit (event-0 roll {change}): {warm.wall:.2f} s = "
          f"{100 * warm.wall / first.wall:.1f}% of the cold build")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--baseline", default=BASELINE, help="the previous release's commit")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--skip-edit", action="store_true")
    parser.add_argument("--edit-peer", default=None, metavar="COMMIT",
                        help="also time the one-card edit of COMMIT (a worktree with its own "
                             "venv, as the baseline), taking turns with this tree")
    parser.add_argument("--cards", type=int, default=1000, help="0: no generated pack")
    args = parser.parse_args()
    adopt_orphans()
    print(f"{len(os.sched_getaffinity(0))} cores, {load()}")
    with tempfile.TemporaryDirectory(prefix="relic-bench-") as name:
        tmp = Path(name)
        byte_compile(this_tree())
        if not args.skip_baseline:
            old = baseline(args.baseline)
            byte_compile(old)
            before_and_after(this_tree(), old, args.runs, args.jobs, tmp)
        if not args.skip_edit:
            peers = [baseline(args.edit_peer)] if args.edit_peer else []
            for peer in peers:
                byte_compile(peer)
            one_card_edit([this_tree(), *peers], args.runs, args.jobs, tmp)
        if args.cards:
            generated(args.cards, args.jobs, tmp)


if __name__ == "__main__":
    main()
