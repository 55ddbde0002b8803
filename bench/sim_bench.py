"""Simulation speed and balance: full catacombs games per second with 1 and 2 jobs, then the
balance table of `relic sim --games 1000 --players 4`.

Usage: .venv/bin/python bench/sim_bench.py [--games 100] [--balance-games 1000] [--bot heuristic]
The target is at least 20 full games per second per core (measured, never asserted in tests).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.catacombs.sim import SimConfig, render_text, run  # noqa: E402
from pipeline.stages import load_model  # noqa: E402

TARGET_PER_CORE = 20.0


def measure(plain: dict, games: int, jobs: int, bot: str, players: int) -> tuple[float, dict]:
    config = SimConfig(players=players, games=games, seed=2026, bot=bot, jobs=jobs)
    start = time.perf_counter()
    full = run(plain, config)
    elapsed = time.perf_counter() - start
    return games / elapsed, full


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per speed measurement")
    parser.add_argument("--balance-games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="heuristic", choices=["random", "heuristic"])
    args = parser.parse_args()
    plain = load_model(ROOT / "content" / "catacombs").to_plain()
    print(f"catacombs simulation speed ({args.players} players, bot {args.bot}, "
          f"{args.games} full games per run)")
    results = {}
    for jobs in (1, 2):
        rate, full = measure(plain, args.games, jobs, args.bot, args.players)
        results[jobs] = full["report"]
        verdict = "meets" if rate / jobs >= TARGET_PER_CORE else "below"
        print(f"  jobs {jobs}: {rate:6.1f} games/s  ({rate / jobs:5.1f} per core; {verdict} the "
              f"target of {TARGET_PER_CORE:.0f} per core)")
    same = results[1] == results[2]
    print(f"  same report with 1 and 2 jobs: {same}")
    print()
    rate, full = measure(plain, args.balance_games, 2, args.bot, args.players)
    print(f"balance table: relic sim --games {args.balance_games} --players {args.players} "
          f"--bot {args.bot} --seed 2026 --jobs 2  ({rate:.1f} games/s)")
    print(render_text(full))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
