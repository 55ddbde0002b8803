"""`relic export model --pack ID`: the resolved model as stable, sorted JSON on stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.stages import load_model, pack_dir_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export the resolved model for other tools")
    p.add_argument("what", choices=["model"], help="what to export")
    p.add_argument("--pack", required=True, help="the pack id")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    model = load_model(pack_dir_for(Path(args.content), args.pack))
    sys.stdout.write(model.to_json())
    return 0
