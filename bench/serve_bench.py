"""Edit-to-new-image latency of `relic serve` for a one-card edit on the canonical pack.

    .venv/bin/python bench/serve_bench.py [--edits 5] [--pack catacombs] [--cache DIR]

Copies content/<pack> to a temporary folder, starts `relic serve` on it (shared render cache,
so the start is warm after a first `make pnp`), waits for the first build and its checks, then
edits one entity's name `--edits` times. For each edit it times, from the moment the file is
written:
  - event: the server-sent `built` event that announces the entity's new front picture;
  - fetch: that picture's new URL answered with the new bytes;
  - CPU: the CPU seconds the server's process tree spent from the write to the event (less
    sensitive to other load on the machine than the wall times).
The peer in the same run: the same one-card edit rebuilt by `relic build --lang L --no-rulebook`
in a fresh process (what a designer runs without the live preview). The target is under 1 s.
"""

from __future__ import annotations

import argparse
import hashlib
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

from pipeline.serve.client import ServeProcess  # noqa: E402

NAME = re.compile(r"^(\s*name:\s*\{ru:\s*)([^,}]+)(,)", re.MULTILINE)


def pick(pack: Path, lang: str) -> tuple[Path, str, str]:
    """A file, an entity id printed on a card of its own, and its name line."""
    for path in sorted(pack.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        match = re.search(r"^- id: (\S+)\n  kind: monster\n(?:  .*\n)*?  name: \{ru: ([^,}]+),",
                          text, re.MULTILINE)
        if match:
            return path, match[1], match[2]
    sys.exit(f"no monster with a one-line name in {pack}")


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and everything under it (reaped children included)."""
    import psutil

    total = 0.0
    root = psutil.Process(pid)
    for proc in [root, *root.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f"{{ru: {old},", f"{{ru: {new},", 1), encoding="utf-8")


def measure_serve(content: Path, pack: str, lang: str, cache: Path, edits: int
                  ) -> tuple[list[float], list[float], list[float], float,
                             list[dict[str, float]]]:
    path, entity, name = pick(content / pack, lang)
    front = f"{lang}/png/{entity}-1.png"
    serve = ServeProcess(["--pack", pack, "--content", str(content), "--lang", lang,
                          "--out", str(content.parent / "preview"), "--cache", str(cache)],
                         cwd=ROOT)
    started = time.perf_counter()
    serve.start()
    stream = serve.events()
    try:
        first = stream.wait_for(lambda e: e.name == "built", timeout=1800)
        if not first.data["ok"]:
            sys.exit(f"the first build failed: {serve.state()['diagnostics']}")
        ready = first.at - started
        stream.wait_for(lambda e: e.name == "checked", timeout=600)
        to_event, to_fetch, cpu, steps = [], [], [], []
        current = name
        run = time.time_ns() % 10**6  # a name no earlier run has rendered (the cache is shared)
        for i in range(edits):
            new = f"{name} {run}-{i + 1}"
            written, used = time.perf_counter(), tree_cpu(serve.pid)
            edit(path, current, new)
            current = new
            event = stream.wait_for(lambda e: e.name == "built" and front in e.data["changed"],
                                    timeout=300)
            to_event.append(event.at - written)
            cpu.append(tree_cpu(serve.pid) - used)
            steps.append({**event.data["timings"], "builder total": event.data["seconds"]})
            url = event.data["urls"][front]
            status, body = serve.get(url)
            want = url.rsplit("v=", 1)[1]
            while status != 200 or not hashlib.sha256(body).hexdigest().startswith(want):
                status, body = serve.get(url)
            to_fetch.append(time.perf_counter() - written)
            stream.wait_for(lambda e: e.name == "checked", timeout=600)
        return to_event, to_fetch, cpu, ready, steps
    finally:
        stream.close()
        serve.stop()


def measure_build(content: Path, pack: str, lang: str, cache: Path) -> float | str:
    """The peer: `relic build` of the same pack after the same kind of edit (or why it
    failed)."""
    path, _, name = pick(content / pack, lang)
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--pack", pack, "--content",
           str(content), "--lang", lang, "--out", str(content.parent / "peer"), "--cache",
           str(cache), "--quiet", "--no-rulebook"]
    env = {**os.environ, "CI": "1"}
    warm = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if warm.returncode:
        return f"failed ({warm.returncode}): {warm.stderr.strip().splitlines()[0]}"
    edit(path, name, f"{name} peer {time.time_ns() % 10**6}")
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if done.returncode:
        return f"failed ({done.returncode}): {done.stderr.strip().splitlines()[0]}"
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", default="catacombs")
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / ".cache",
                        help="render cache to share (default build/.cache)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="relic-serve-bench-") as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(ROOT / "content" / args.pack, content / args.pack)
        to_event, to_fetch, cpu, ready, steps = measure_serve(content, args.pack, args.lang,
                                                  args.cache.resolve(), args.edits)
        peer = measure_build(content, args.pack, args.lang, args.cache.resolve())
    print(f"relic serve --pack {args.pack} --lang {args.lang}: first build announced after "
          f"{ready:.2f} s")
    print(f"one-card edit -> 'built' event: median {statistics.median(to_event):.3f} s "
          f"(min {min(to_event):.3f}, max {max(to_event):.3f}, {len(to_event)} edits)")
    print(f"one-card edit -> new picture fetched: median {statistics.median(to_fetch):.3f} s "
          f"(min {min(to_fetch):.3f}, max {max(to_fetch):.3f})")
    print(f"CPU of the server's processes per edit: median {statistics.median(cpu):.3f} s "
          f"(min {min(cpu):.3f}, max {max(cpu):.3f}; load average now "
          f"{os.getloadavg()[0]:.1f})")
    names = list(dict.fromkeys(k for step in steps for k in step))
    print("where the builder spends it (median s): " + ", ".join(
        f"{k} {statistics.median(step.get(k, 0.0) for step in steps):.3f}" for k in names))
    shown = f"{peer:.3f} s" if isinstance(peer, float) else peer
    print(f"peer: relic build --lang {args.lang} --no-rulebook after the same edit: {shown}")
    print("target: under 1 s from the write to the new picture")


if __name__ == "__main__":
    main()
