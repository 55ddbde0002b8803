"""Queue steps are typed values that write the state's JSON as it always was."""

from __future__ import annotations

import json

import pytest

from engine.games.catacombs import registry, rules  # noqa: F401 - registers every rules module
from engine.games.catacombs.steps import (
    STEPS,
    Decide,
    DoomKnowledge,
    IconDrawn,
    MonsterAct,
    NewLabyrinth,
    RotateTile,
    SarcophagusRoll,
    TileDrawn,
    TradeOffer,
    TreasureLuck,
    step_from_dict,
)

EXAMPLES = [
    (TileDrawn(pool="tiles", seat=1, slot=(0, -1), side="south"),
     {"t": "draw", "fn": "tile-drawn", "pool": "tiles", "seat": 1, "slot": [0, -1],
      "side": "south"}),
    (TileDrawn(pool="final", seat=0, slot=(100, 0), side=None, arrival=NewLabyrinth(1, "A")),
     {"t": "draw", "fn": "tile-drawn", "pool": "final", "seat": 0, "slot": [100, 0],
      "side": None, "labyrinth": 1, "arrive": True, "mark": "A"}),
    (RotateTile(seat=2, tile="hall", slot=(200, 0), side=None, arrival=NewLabyrinth(2, None)),
     {"t": "decide", "fn": "rotate-tile", "seat": 2, "tile": "hall", "slot": [200, 0],
      "side": None, "labyrinth": 2, "arrive": True, "mark": None}),
    (IconDrawn(pool="token:crevice-horizontal", slot=(1, 0),
               feature={"type": "crevice", "cell": [1, 2], "cells": [[0, 2], [1, 2]]}),
     {"t": "draw", "fn": "icon-drawn", "pool": "token:crevice-horizontal", "slot": [1, 0],
      "feature": {"type": "crevice", "cell": [1, 2], "cells": [[0, 2], [1, 2]]}}),
    (TreasureLuck(dice="d6", faces=(5, 6), seat=0, table="treasure", bonus=2, why="cache"),
     {"t": "roll", "fn": "treasure-luck", "dice": "d6", "faces": [5, 6], "seat": 0,
      "table": "treasure", "bonus": 2, "why": "cache"}),
    (SarcophagusRoll(dice="d12", seat=3, uid="f7", first=None),
     {"t": "roll", "fn": "sarcophagus-roll", "dice": "d12", "seat": 3, "uid": "f7",
      "first": None}),
    (TradeOffer(seat=1, by=0, deal="swap", item="torch", take="rope"),
     {"t": "decide", "fn": "trade-offer", "seat": 1, "by": 0, "deal": "swap", "item": "torch",
      "take": "rope"}),
    (DoomKnowledge(pool="secret-knowledge", pos=(0, 1, 2, 2)),
     {"t": "draw", "fn": "doom-knowledge", "pool": "secret-knowledge", "pos": [0, 1, 2, 2]}),
    (MonsterAct(uid=12), {"t": "do", "fn": "monster-act", "uid": 12}),
]


@pytest.mark.parametrize(("step", "written"), EXAMPLES, ids=[s.fn for s, _ in EXAMPLES])
def test_a_step_writes_the_queue_entry_and_reads_it_back(step, written):
    raw = step.to_dict()
    assert raw == written
    assert list(raw) == list(written)  # the keys keep their order too
    again = step_from_dict(json.loads(json.dumps(raw)))
    assert again == step and type(again) is type(step)


def test_every_step_kind_has_its_task_and_every_decision_its_options():
    never_queued = {"death", "end-turn", "next-phase"}
    assert set(registry.TASKS) == set(STEPS)
    assert never_queued <= set(STEPS)
    decisions = {fn for fn, cls in STEPS.items() if issubclass(cls, Decide)}
    assert decisions == set(registry.OPTIONS)


def test_steps_are_values():
    step = MonsterAct(uid=3)
    assert step == MonsterAct(uid=3) and step != MonsterAct(uid=4)
    with pytest.raises(AttributeError):
        step.uid = 4  # type: ignore[misc]
