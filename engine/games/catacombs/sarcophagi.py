"""Sarcophagi: the check roll (luck reroll, attention seal), treasure, zombie lairs, seals."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.checks_util import passes
from engine.games.catacombs.monsters import spawn
from engine.games.catacombs.registry import actions_of, handles, rule, task
from engine.games.catacombs.search import roll_treasure
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import SarcophagusRoll, SarcophagusSealed

PREFERENCE = ("treasure", "empty", "monster")


def sarcophagus_table(state: CatacombsState):
    for table in state.data.tables.values():
        if any(r.outcome for r in table.rows) and table.modifier("seal") is not None:
            return table
    for table in state.data.tables.values():
        if any(r.outcome == "monster" for r in table.rows):
            return table
    return None


def sarcophagus_here(state: CatacombsState, hero: Hero) -> dict | None:
    for f in state.tile_of(hero.pos).features:
        if f["type"] == "sarcophagus" and f.get("state", "closed") in ("closed", "sealed"):
            return f
    return None


@actions_of
def sarcophagus_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden or sarcophagus_table(state) is None:
        return []
    f = sarcophagus_here(state, hero)
    if f is None:
        return []
    if f.get("state", "closed") == "sealed":
        return [Action.of("sarcophagus", how="open-sealed")]
    return [Action.of("sarcophagus", how="check")]


@handles("sarcophagus")
@rule("sarcophagi.table", "sarcophagi.indestructible")
def do_sarcophagus(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Check a sarcophagus with a die roll, or open a sealed one."""
    f = sarcophagus_here(state, hero)
    assert f is not None
    if action.get("how") == "open-sealed":
        check = _sealed_check(state)
        dice = str(check.dice) if check and check.dice else "d6"
        state.push(SarcophagusSealed(dice=dice, seat=hero.seat, uid=f["uid"]))
        return 1
    dice = str(sarcophagus_table(state).dice)
    state.push(SarcophagusRoll(dice=dice, seat=hero.seat, uid=f["uid"], first=None))
    return 1


def _sealed_check(state: CatacombsState):
    table = sarcophagus_table(state)
    mod = table.modifier("seal") if table else None
    if mod is not None and mod.check in state.data.checks:
        return state.data.checks[mod.check]
    return None


def _feature(state: CatacombsState, hero: Hero, uid: str) -> dict | None:
    for f in state.tile_of(hero.pos).features:
        if f.get("uid") == uid:
            return f
    return None


@task(SarcophagusRoll)
@rule("sarcophagi.luck")
def sarcophagus_roll(state: CatacombsState, t: SarcophagusRoll, value: int) -> None:
    """Luck 4+ rolls again and keeps the better result; attention 3+ seals a monster roll."""
    hero = state.heroes[t.seat]
    table = sarcophagus_table(state)
    reroll = table.modifier("reroll-pick-best")
    outcome = table.row_for(value).outcome
    if (
        t.first is None
        and reroll is not None
        and reroll.step_for(state.stat(hero, reroll.stat))
        and outcome != PREFERENCE[0]
    ):
        state.push(SarcophagusRoll(dice=str(table.dice), seat=t.seat, uid=t.uid, first=value))
        return
    if t.first is not None:
        first = table.row_for(t.first).outcome
        if PREFERENCE.index(first) < PREFERENCE.index(outcome):
            value, outcome = t.first, first
    resolve(state, hero, t.uid, value, sealable=True)


@rule("sarcophagi.seal", "sarcophagi.lair", "sarcophagi.treasure")
def resolve(state: CatacombsState, hero: Hero, uid: str, value: int, sealable: bool) -> None:
    f = _feature(state, hero, uid)
    table = sarcophagus_table(state)
    row = table.row_for(value)
    seal = table.modifier("seal")
    if f is None:
        return
    state.log(f"{hero.character} checks a sarcophagus: {row.outcome} ({value})")
    if row.outcome == "monster":
        if sealable and seal is not None and seal.step_for(state.stat(hero, seal.stat)):
            f["state"] = "sealed"
            state.log(f"{hero.character} senses a monster and seals the sarcophagus")
            return
        f["state"] = "lair-spent"
        monster = row.monster or "zombie"
        if monster in state.data.monsters:
            spawn(state, monster, hero.pos, awake=True, meet=True)
        return
    if row.outcome == "treasure":
        f["state"] = "looted"
        target = state.data.tables.get(row.table or "")
        if target is not None:
            bonus = max(0, target.range.low - target.dice.low)
            roll_treasure(state, hero, target, bonus, "sarcophagus")
        return
    f["state"] = "empty"


@task(SarcophagusSealed)
@rule("sarcophagi.sealed-open")
def sarcophagus_sealed(state: CatacombsState, t: SarcophagusSealed, value: int) -> None:
    """A sealed sarcophagus: treasure on the check's faces (luck 5+: more), else a monster."""
    hero = state.heroes[t.seat]
    check = _sealed_check(state)
    table = sarcophagus_table(state)
    ok = check is not None and passes(state, hero, check, value)
    wanted = "treasure" if ok else "monster"
    for row in table.rows:
        if row.outcome == wanted:
            resolve(state, hero, t.uid, row.roll.low, sealable=False)
            return


@rule("sarcophagi.shelter")
def hide_in_sarcophagus(state: CatacombsState, hero: Hero) -> bool:
    """A checked sarcophagus that held treasure or nothing can hide a hero (as a shelter)."""
    return any(
        f["type"] == "sarcophagus" and f.get("state") in ("empty", "looted")
        for f in state.tile_of(hero.pos).features
    )
