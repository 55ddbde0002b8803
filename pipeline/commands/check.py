"""`relic check [PATH]`: validate every pack and report every problem at once."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.diagnostics import FORMATTERS, Diagnostic, Severity, Span, error, relative
from pipeline.stages import analyze, find_packs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="validate content packs (schemas, references, rules)")
    p.add_argument("path", nargs="?", default="content", help="a pack folder or a folder of packs")
    p.add_argument("--format", choices=sorted(FORMATTERS), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.set_defaults(run=run)


def collect(path: Path) -> list[Diagnostic]:
    if not path.exists():
        return [error("no-such-path", f"{relative(path)} does not exist", Span(str(path)))]
    packs = find_packs(path)
    if not packs:
        return [
            error(
                "no-packs", f"no pack.yaml in {relative(path)} or its sub-folders", Span(str(path))
            )
        ]
    found: list[Diagnostic] = []
    for pack_dir in packs:
        found += analyze(pack_dir).diagnostics
    return found


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    diagnostics = collect(path)
    items = [d.escalated() if args.strict else d for d in diagnostics]
    items = sorted(dict.fromkeys(items), key=Diagnostic.sort_key)
    output = FORMATTERS[args.format](items)
    if output:
        print(output, file=sys.stdout)
    if not path.exists() or any(d.code == "no-packs" for d in items):
        return 2
    return 1 if any(d.severity is Severity.ERROR for d in items) else 0
