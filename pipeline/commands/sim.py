"""`relic sim --pack ID --players N --games G --seed S`: seeded games played by bots.

The pack's game (found through the registry by the manifest's `ruleset`) declares its own
options; `relic sim --pack ID --help` lists them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.core.game import Game
from pipeline.diagnostics import RelicError, Span, error
from pipeline.fsutil import atomic_write
from pipeline.games import game_class, require_game
from pipeline.schemas import catalogue_for
from pipeline.stages import load_manifest, load_model, pack_dir_for

_PARSER: argparse.ArgumentParser | None = None


def register(sub: argparse._SubParsersAction) -> None:
    global _PARSER
    p = sub.add_parser(
        "sim",
        help="play many seeded games with bots and report balance",
        description="Play seeded games of a pack's game with bots and report results by seat "
        "and by role, game length, endings, turn-bound games, Ludii-style metrics and the "
        "game's own figures. Results depend on the seed only, never on --jobs. Options "
        "below the standard ones are the game's own (give --pack to see them).",
    )
    p.add_argument("--pack", required=True, help="the pack id (its manifest must name a ruleset)")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--players", type=player_counts, metavar="N|A..B",
                   help="number of players, or a span A..B: a report for each count in turn "
                   "(may be left out for a game played by one number of players only)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0,
                   help="run seed; game i uses a seed derived from it and i (default 0)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (results never depend on it)")
    p.add_argument("--bot", default=None,
                   help="who plays every seat: one of the game's bots (default: its first)")
    p.add_argument("--max-rounds", type=int, default=None,
                   help="turn bound in rounds (default: the game's)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    p.add_argument("--html", type=Path, help="also write an HTML report with plots here")
    p.add_argument("--save-replay", type=Path, metavar="DIR",
                   help="save replay logs (game-00000.json, game-00001.json, ...) of the first "
                        "games here")
    p.add_argument("--replays", type=int, default=10,
                   help="how many games --save-replay keeps (default 10)")
    p.set_defaults(run=run)
    _PARSER = p


def extend(argv: Sequence[str]) -> None:
    """Add the options of the game of `--pack` (when the command line names one)."""
    if _PARSER is None or not argv or argv[0] != "sim":
        return
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--pack")
    early.add_argument("--content", default="content")
    known, _ = early.parse_known_args(list(argv[1:]))
    if not known.pack:
        return
    try:
        cls = _game_class(Path(known.content), known.pack)
    except RelicError:
        return  # `run` reports it with its location
    if cls is None:
        return
    group = _PARSER.add_argument_group(f"options of the game '{cls.name}'")
    for option in cls.options:
        if isinstance(option.default, bool):
            group.add_argument(option.flag, dest=f"game_{option.name}", action="store_true",
                               help=option.help)
        else:
            group.add_argument(option.flag, dest=f"game_{option.name}",
                               type=type(option.default), default=option.default,
                               help=f"{option.help} (default {option.default})")
    _PARSER.epilog = (f"bots of '{cls.name}': {', '.join(cls.bots)}; default turn bound "
                      f"{cls.default_max_rounds} rounds")


def _game_class(content: Path, pack_id: str) -> type[Game] | None:
    pack_dir = pack_dir_for(content, pack_id)
    pack, problems = load_manifest(pack_dir, catalogue_for(pack_dir))
    if pack is None or problems:
        raise RelicError(problems)
    return game_class(pack)


def player_counts(text: str) -> tuple[int, ...]:
    """`4` or `3..6` (every count from 3 to 6)."""
    low, sep, high = text.partition("..")
    try:
        counts = tuple(range(int(low), int(high) + 1)) if sep else (int(low),)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of players: {text!r} (write 4 or 3..6)"
                                         ) from None
    if not counts:
        raise argparse.ArgumentTypeError(f"empty span of players: {text!r}")
    return counts


def _usage(message: str) -> RelicError:
    return RelicError([error("usage", message, Span("<command line>"))])


def run(args: argparse.Namespace) -> int:
    from engine.core.sim import render_html, render_text

    model = load_model(pack_dir_for(Path(args.content), args.pack))
    game = require_game(model, "sim")
    counts = game.player_counts
    if args.players is None:
        if len(counts) != 1:
            raise _usage(f"give --players: {game.name} is played by {counts.start} to "
                         f"{counts.stop - 1} players")
        args.players = (counts.start,)
    wrong = [n for n in args.players if n not in counts]
    if wrong:
        raise _usage(f"{game.name} is played by {counts.start} to {counts.stop - 1} players, "
                     f"not {wrong[0]}")
    if args.games < 1 or args.jobs < 1:
        raise _usage("need at least 1 game and 1 job")
    bot = args.bot or game.bots[0]
    if bot not in game.bots:
        raise _usage(f"{game.name} has no bot '{bot}' (it has {', '.join(game.bots)})")
    several = len(args.players) > 1
    results = [_simulate(game, model.to_plain(), args, players, bot, several)
               for players in args.players]
    if args.html:
        pages = [render_html(game, r) for r in results]
        atomic_write(args.html, pages[0] if not several else _join_html(pages))
    if args.format == "json":
        payload = (results[0].to_json() if not several else
                   {"by_players": {str(r.config.players): r.to_json() for r in results}})
        sys.stdout.write(json.dumps(payload, indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write("\n".join(render_text(game, r) for r in results))
    return 0


def _simulate(game: Game, plain: dict, args: argparse.Namespace, players: int, bot: str,
              several: bool):
    from engine.core.sim import SimConfig
    from engine.core.sim import run as simulate

    options = tuple(sorted((o.name, getattr(args, f"game_{o.name}", o.default))
                           for o in game.options))
    config = SimConfig(players=players, games=args.games, seed=args.seed, bot=bot,
                       max_rounds=args.max_rounds or game.default_max_rounds, jobs=args.jobs,
                       keep_replays=args.replays if args.save_replay else 0, options=options)
    result = simulate(type(game), plain, config)
    folder = (args.save_replay / f"players-{players}") if several and args.save_replay else (
        args.save_replay)
    for record in result.records:
        if record.replay is not None:
            atomic_write(folder / f"game-{record.index:05d}.json", record.replay)
    return result


def _join_html(pages: list[str]) -> str:
    """One page holding every player count's report, one after another."""
    head, _, _ = pages[0].partition("<body>")
    bodies = [p.partition("<body>")[2].rpartition("</body>")[0] for p in pages]
    return head + "<body>" + "<hr>".join(bodies) + "</body></html>\n"
