"""`relic odds --pack catacombs [--format json]`: exact probabilities as fractions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="exact odds of every table and check (as fractions)")
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from engine.games.catacombs.data import from_plain
    from engine.games.catacombs.odds import all_odds, render_text
    from pipeline.commands.sim import engine_for

    model = load_model(pack_dir_for(Path(args.content), args.pack))
    engine_for(model)
    odds = all_odds(from_plain(model.to_plain()))
    if args.format == "json":
        sys.stdout.write(json.dumps(odds, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(odds))
    return 0
