"""`relic odds --pack ID [--format json]`: exact probabilities as fractions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.games import build_game
from pipeline.stages import load_model, pack_dir_for

if TYPE_CHECKING:
    from engine.core.game import OddsTable
    from pipeline.model import Model


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "odds",
        help="exact odds of every roll of a pack's game (as fractions); without a game, of "
        "every roll table and custom die",
        description="Exact chances, as fractions, of every roll the pack's game has, at every "
        "relevant stat level. A pack that names no ruleset gets the chance of every row of its "
        "roll tables and the totals of 1 to 6 of its own dice.",
    )
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    p.set_defaults(run=run)


def odds_tables(model: Model) -> list[OddsTable]:
    """The pack's game's odds, or (without a game) those of its roll tables and dice."""
    from engine.core.table_odds import pack_odds_tables

    game = build_game(model)
    return list(game.odds() if game is not None
                else pack_odds_tables(model.to_plain()["entities"]))


def run(args: argparse.Namespace) -> int:
    from engine.core.odds import as_json, render_text

    model = load_model(pack_dir_for(Path(args.content), args.pack))
    tables = odds_tables(model)
    if args.format == "json":
        out = json.dumps(as_json(tables), indent=2, ensure_ascii=False)
        sys.stdout.write(out + "\n")
    else:
        sys.stdout.write(render_text(tables))
    return 0
