"""Golden playthroughs: a few seeded games dumped state by state.

The games run on a snapshot of the canonical model (golden/model.json), so content edits do not
move them; engine changes do. Regenerate snapshot and transcripts with
`RELIC_REGEN_GOLDEN=1 pytest tests/engine/test_engine_golden.py` and review the diff.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from engine_support import GOLDEN, REGEN, canonical_plain

from engine.core.bots import RandomBot
from engine.core.rng import derive_seed
from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.bots import HeuristicBot

GAMES = [
    ("two-heuristic", 2, 101, "heuristic", 14),
    ("four-heuristic", 4, 202, "heuristic", 10),
    ("six-random", 6, 303, "random", 6),
]
MODEL = GOLDEN / "model.json"


def strip_text(value):
    """The snapshot keeps what the engine reads: localized texts are dropped."""
    if isinstance(value, dict):
        return {k: strip_text(v) for k, v in value.items() if k not in ("text",)}
    if isinstance(value, list):
        return [strip_text(v) for v in value]
    return value


def snapshot() -> dict:
    if REGEN or not MODEL.exists():
        model = strip_text(canonical_plain())
        MODEL.write_text(json.dumps(model, ensure_ascii=False, sort_keys=True) + "\n",
                         encoding="utf-8")
    return json.loads(MODEL.read_text(encoding="utf-8"))


def digest(state) -> str:
    raw = state.to_dict()
    raw.pop("events")
    return hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()[:16]


def transcript(model: dict, players: int, seed: int, bot: str, rounds: int) -> str:
    state = CatacombsGame.from_model(model).new_initial_state(players, seed, {"max_rounds": rounds})
    kind = HeuristicBot if bot == "heuristic" else RandomBot
    bots = [kind(derive_seed(seed, i)) for i in range(players)]
    lines = [json.dumps({"setup": state.events, "digest": digest(state)})]
    seen = len(state.events)
    step = 0
    while not state.is_terminal:
        player = state.current_player
        action = state.sample_chance() if state.is_chance_node else bots[player].choose(state)
        state.apply(action)
        step += 1
        heroes = [[h.character, h.hp, list(h.pos) if h.pos else None] for h in state.heroes]
        lines.append(json.dumps({
            "step": step, "player": player, "action": str(action),
            "events": state.events[seen:], "heroes": heroes, "digest": digest(state),
        }, ensure_ascii=False))
        seen = len(state.events)
    lines.append(json.dumps({"ended_by": state.ended_by, "winners": state.winners,
                             "rounds": state.round}))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "players", "seed", "bot", "rounds"), GAMES)
def test_golden_playthrough(name, players, seed, bot, rounds):
    path = GOLDEN / f"{name}.jsonl"
    text = transcript(snapshot(), players, seed, bot, rounds)
    if REGEN or not path.exists():
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, f"{name}: first difference at line {i + 1}"
    assert len(got) == len(expected), f"{name}: {len(got)} lines, golden has {len(expected)}"
