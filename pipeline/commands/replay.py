"""`relic replay FILE`: print a saved game turn by turn."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pipeline.diagnostics import RelicError, Span, error

_ROUND_SEAT = re.compile(r"^r\d+ s-?\d+: ")
"""The round-and-seat prefix an event line may carry ("r3 s1: "): the printer groups by round."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="print a saved game (from relic sim --save-replay)")
    p.add_argument("file", type=Path, help="a replay log")
    p.add_argument("--actions", action="store_true", help="also print every action taken")
    p.add_argument(
        "--verify",
        metavar="PACK",
        help="replay the actions with the game the log names, on this pack's content, and "
        "check that every step gives the same events",
    )
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from engine.core.replay import ReplayLog

    try:
        log = ReplayLog.from_json(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError) as exc:
        diag = error("bad-replay", f"cannot read replay: {exc}", Span(str(args.file)))
        raise RelicError([diag]) from exc
    engine = f" ({log.engine})" if log.engine else ""
    out = [
        f"{log.game}{engine}: {log.players} players, seed {log.seed}, "
        f"bot {log.setup.get('bot')}, turn bound {log.setup.get('max_rounds')}"
    ]
    turn = None
    for step in log.steps:
        if step["turn"] != turn:
            turn = step["turn"]
            out.append(f"--- round {turn} ---" if turn else "--- setup ---")
        if args.actions and step.get("action"):
            kind, params = step["action"]
            who = "chance" if step["player"] < 0 else f"seat {step['player']}"
            inner = ",".join(f"{k}={v}" for k, v in params.items())
            out.append(f"  [{who}] {kind}({inner})" if inner else f"  [{who}] {kind}")
        for event in step.get("events", []):
            out.append(f"  {_ROUND_SEAT.sub('', event, count=1)}")
    if args.verify:
        problems = _verify(log, Path(args.content), args.verify)
        out.append(
            "verify: " + ("the replay is faithful" if not problems else "; ".join(problems[:5]))
        )
        if problems:
            sys.stdout.write("\n".join(out) + "\n")
            return 1
    result = log.result
    if result:
        out.append(
            f"=== ended by {result.get('ended_by')} after {result.get('rounds')} rounds; "
            f"winners {result.get('winners')}"
        )
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _verify(log, content: Path, pack_id: str) -> list[str]:
    """Replay the log with the game it names, on the content of `pack_id`."""
    from engine.core.registry import UnknownGameError, load
    from engine.core.sim import verify_replay
    from pipeline.stages import load_model, pack_dir_for

    model = load_model(pack_dir_for(content, pack_id))
    try:
        cls = load(log.game)
    except UnknownGameError as exc:
        raise RelicError([error("bad-replay", str(exc), Span(pack_id))]) from exc
    if model.pack.ruleset != log.game:
        raise RelicError([error(
            "replay-pack-mismatch",
            f"the log is a game of '{log.game}', but pack '{pack_id}' plays "
            f"'{model.pack.ruleset}'", model.pack.manifest.span(("ruleset",)))])
    return verify_replay(cls.from_model(model.to_plain()), log)
