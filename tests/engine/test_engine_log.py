"""The replay log reads as the game went: rewards name what was given, a blow that does not
kill says so, a lever's passage is not a statue's."""

from __future__ import annotations

from engine_support import arena, canonical_plain

from engine.games.catacombs.data import Reward, from_plain
from engine.games.catacombs.monsters import attack, spawn
from engine.games.catacombs.state import reward_text

DATA = from_plain(canonical_plain())


def test_a_junk_reward_is_named() -> None:
    assert reward_text(Reward(junk=1)) == "1 junk"
    assert reward_text(Reward()) == "nothing"


def test_a_blow_that_does_not_kill_is_no_killing() -> None:
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.hp = hero.max_hp = 10
    hero.spells = []
    zombie = spawn(state, "zombie", hero.pos, awake=True)
    attack(state, zombie, DATA.monsters["zombie"])
    hit = [e for e in state.events if "loses" in e][-1]
    assert "hit by the zombie" in hit and "killed" not in hit
    hero.hp = 1
    attack(state, zombie, DATA.monsters["zombie"])
    assert hero.cause == "killed by zombie"


def test_a_lever_passage_is_logged_as_a_lever_s() -> None:
    from engine.games.catacombs.statues import hidden_passage

    state = arena(DATA, players=1)
    hidden_passage(state, state.heroes[0], "by a lever")
    assert "hidden passage (by a lever)" in state.events[-1]
    assert not any("statue" in e for e in state.events[-2:])
