"""Simulation speed and balance of any pack's game: full games per second with 1 and 2 jobs,
then the balance table of `relic sim --games 1000`.

Usage: .venv/bin/python bench/sim_bench.py [--pack catacombs] [--players 4] [--games 100]
       [--balance-games 1000] [--bot NAME]
The catacombs' target is at least 20 full games per second per core (measured, never asserted
in tests).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.game import Game  # noqa: E402
from engine.core.sim import SimConfig, SimRun, render_text, run  # noqa: E402
from pipeline.games import require_game  # noqa: E402
from pipeline.stages import load_model  # noqa: E402

TARGET_PER_CORE = 20.0


def measure(game: Game, plain: dict, games: int, jobs: int, bot: str, players: int
            ) -> tuple[float, SimRun]:
    config = SimConfig(players=players, games=games, seed=2026, bot=bot,
                       max_rounds=game.default_max_rounds, jobs=jobs,
                       options=tuple(sorted((o.name, o.default) for o in game.options)))
    start = time.perf_counter()
    result = run(type(game), plain, config)
    return games / (time.perf_counter() - start), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="catacombs")
    parser.add_argument("--games", type=int, default=100, help="games per speed measurement")
    parser.add_argument("--balance-games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default=None, help="default: the game's first bot")
    args = parser.parse_args()
    model = load_model(ROOT / "content" / args.pack)
    game = require_game(model, "sim")
    plain = model.to_plain()
    bot = args.bot or game.bots[0]
    print(f"{game.name} simulation speed ({args.players} players, bot {bot}, "
          f"{args.games} full games per run)")
    reports = {}
    for jobs in (1, 2):
        rate, result = measure(game, plain, args.games, jobs, bot, args.players)
        reports[jobs] = result.report
        verdict = "meets" if rate / jobs >= TARGET_PER_CORE else "below"
        print(f"  jobs {jobs}: {rate:6.1f} games/s  ({rate / jobs:5.1f} per core; {verdict} "
              f"{TARGET_PER_CORE:.0f} per core)")
    same = reports[1] == reports[2]
    print(f"  same report with 1 and 2 jobs: {same}")
    print()
    rate, result = measure(game, plain, args.balance_games, 2, bot, args.players)
    print(f"balance table: relic sim --pack {args.pack} --games {args.balance_games} "
          f"--players {args.players} --bot {bot} --seed 2026 --jobs 2  ({rate:.1f} games/s)")
    print(render_text(game, result))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
