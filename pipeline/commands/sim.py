"""`relic sim --pack catacombs --players N --games G --seed S`: seeded games played by bots."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.diagnostics import RelicError, Span, error
from pipeline.fsutil import atomic_write
from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="play many seeded games with bots and report balance")
    p.add_argument("--pack", required=True, help="the pack id (its ruleset must have an engine)")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--players", type=int, required=True, help="number of players (1-8)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="run seed; game i uses a seed derived from it and i (default 0)",
    )
    p.add_argument(
        "--jobs", type=int, default=1, help="worker processes (results never depend on it)"
    )
    p.add_argument(
        "--bot",
        choices=["random", "heuristic", "mcts"],
        default="heuristic",
        help="who plays every seat (default heuristic)",
    )
    p.add_argument("--max-rounds", type=int, default=None, help="turn bound in rounds")
    p.add_argument(
        "--monster-players",
        action="store_true",
        help="players whose heroes died control the monsters (controlled stats)",
    )
    p.add_argument(
        "--teams",
        action="store_true",
        help="let every seat take a team marker (two teams are possible)",
    )
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    p.add_argument("--html", type=Path, help="also write an HTML report with plots here")
    p.add_argument(
        "--save-replay",
        type=Path,
        metavar="DIR",
        help="save replay logs (game-<index>.json) of the first games here",
    )
    p.add_argument(
        "--replays", type=int, default=10, help="how many games --save-replay keeps (default 10)"
    )
    p.set_defaults(run=run)


def engine_for(model) -> None:
    if model.pack.ruleset != "catacombs":
        raise RelicError(
            [
                error(
                    "no-engine",
                    f"no rules engine for ruleset '{model.pack.ruleset}'",
                    model.pack.manifest.span(("ruleset",)),
                )
            ]
        )


def run(args: argparse.Namespace) -> int:
    from engine.games.catacombs.game import DEFAULT_MAX_ROUNDS
    from engine.games.catacombs.sim import SimConfig, render_html, render_text
    from engine.games.catacombs.sim import run as simulate

    if not 1 <= args.players <= 8 or args.games < 1 or args.jobs < 1:
        raise RelicError(
            [error("usage", "need 1-8 players, at least 1 game and 1 job", Span("<command line>"))]
        )
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    engine_for(model)
    config = SimConfig(
        players=args.players,
        games=args.games,
        seed=args.seed,
        bot=args.bot,
        max_rounds=args.max_rounds or DEFAULT_MAX_ROUNDS,
        jobs=args.jobs,
        keep_replays=args.replays if args.save_replay else 0,
        teams=args.teams,
        monster_players=args.monster_players,
    )
    full = simulate(model.to_plain(), config)
    for game in full["games"]:
        replay = game.pop("replay", None)
        if replay is not None:
            atomic_write(args.save_replay / f"game-{game['index']:05d}.json", replay)
    if args.html:
        atomic_write(args.html, render_html(full))
    if args.format == "json":
        sys.stdout.write(json.dumps(full, indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write(render_text(full))
    return 0
