"""Golden playthroughs: a few seeded tunnels games, action by action with a state digest.

They run on a snapshot of the pack's model (golden/model.json), so content edits do not move
them; engine changes do. Regenerate snapshot and transcripts with
`RELIC_REGEN_GOLDEN=1 pytest tests/games/tunnels/test_tunnels_golden.py` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tunnels_support import FREEDOM, GLITTER, plain

from engine.core.testing import REGEN, compare_golden, playthrough
from engine.games.tunnels.game import TunnelsGame

GOLDEN = Path(__file__).resolve().parent / "golden"
MODEL = GOLDEN / "model.json"
GAMES = [
    ("glitter-heuristic", GLITTER, 101, "heuristic"),
    ("freedom-heuristic", FREEDOM, 202, "heuristic"),
    ("glitter-random", GLITTER, 303, "random"),
]


def strip_text(value):
    if isinstance(value, dict):
        return {k: strip_text(v) for k, v in value.items() if k != "text"}
    if isinstance(value, list):
        return [strip_text(v) for v in value]
    return value


def snapshot() -> dict:
    if REGEN or not MODEL.exists():
        GOLDEN.mkdir(parents=True, exist_ok=True)
        MODEL.write_text(json.dumps(strip_text(plain()), indent=1, sort_keys=True,
                                    ensure_ascii=False) + "\n", encoding="utf-8")
    return json.loads(MODEL.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "scenario", "seed", "bot"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_playthrough(name, scenario, seed, bot):
    game = TunnelsGame.from_model(snapshot())
    text = playthrough(game, players=2, seed=seed, bot=bot, options={"scenario": scenario})
    compare_golden(GOLDEN / f"{name}.jsonl", text)
