"""`relic odds --pack catacombs [--format json]`: exact probabilities as fractions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "odds",
        help="exact odds of every table and check (as fractions); without a rules engine, of "
        "every roll table and custom die",
    )
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    if model.pack.ruleset == "catacombs":
        from engine.games.catacombs.data import from_plain
        from engine.games.catacombs.odds import all_odds, render_text

        odds = all_odds(from_plain(model.to_plain()))
    else:  # no rules engine: the pack's own roll tables and dice
        from engine.core.table_odds import as_json, pack_odds, render_text

        found = pack_odds(model.to_plain()["entities"])
        odds = as_json(found) if args.format == "json" else found
    if args.format == "json":
        sys.stdout.write(json.dumps(odds, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(odds))
    return 0
