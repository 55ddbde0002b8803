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
    """The first sarcophagus on the hero's tile the hero may check or open (one they sealed
    themselves is not theirs to open)."""
    for f in state.tile_of(hero.pos).features:
        if f["type"] != "sarcophagus" or f.get("state", "closed") not in ("closed", "sealed"):
            continue
        if f.get("state") == "sealed" and f.get("sealed_by") == hero.seat:
            continue
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
        if state.actions_left < cost(_sealed_check(state)):
            return []
        return [Action.of("sarcophagus", how="open-sealed")]
    if state.actions_left < cost(state.data.check("sarcophagus", "study")):
        return []
    return [Action.of("sarcophagus", how="check")]


def cost(check) -> int:
    """A sarcophagus check's actions (one when the content gives no check)."""
    return check.actions if check is not None and check.actions else 1


@handles("sarcophagus")
@rule("sarcophagi.table", "sarcophagi.indestructible", "table.sarcophagus")
def do_sarcophagus(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Check a sarcophagus with a die roll (its check's actions), or open a sealed one."""
    f = sarcophagus_here(state, hero)
    assert f is not None
    if action.get("how") == "open-sealed":
        check = _sealed_check(state)
        dice = str(check.dice) if check and check.dice else "d6"
        state.push(SarcophagusSealed(dice=dice, seat=hero.seat, uid=f["uid"]))
        return cost(check)
    dice = str(sarcophagus_table(state).dice)
    state.push(SarcophagusRoll(dice=dice, seat=hero.seat, uid=f["uid"], first=None))
    return cost(state.data.check("sarcophagus", "study"))


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


SEALS = "token:seal"
"""The supply of seal tokens (`setup.token_pools`)."""


@rule("sarcophagi.seal", "sarcophagi.lair", "sarcophagi.treasure", "table.seal")
def resolve(state: CatacombsState, hero: Hero, uid: str, value: int, sealable: bool) -> None:
    """The roll's row: a monster (kept in under a seal by an attentive hero while a seal token
    is left), treasure by the cache rules, or nothing. Opening a sealed one frees its seal."""
    f = _feature(state, hero, uid)
    table = sarcophagus_table(state)
    row = table.row_for(value)
    seal = table.modifier("seal")
    if f is None:
        return
    state.log(f"{hero.character} checks a sarcophagus: {row.outcome} ({value})")
    if f.pop("sealed_by", None) is not None:
        _give_back_seal(state)
    if row.outcome == "monster":
        if sealable and seal is not None and seal.step_for(state.stat(hero, seal.stat)) \
                and _take_seal(state):
            f["state"] = "sealed"
            f["sealed_by"] = hero.seat
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


def _take_seal(state: CatacombsState) -> bool:
    """A seal token from the supply (always granted when the content has no seal token)."""
    pool = state.pools.get(SEALS)
    if not pool:
        return True
    token = next((t for t in sorted(pool) if pool[t] > 0), None)
    if token is None:
        state.log("no seal token is left")
        return False
    pool[token] -= 1
    return True


def _give_back_seal(state: CatacombsState) -> None:
    pool = state.pools.get(SEALS)
    if pool:
        token = sorted(pool)[0]
        pool[token] += 1


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
