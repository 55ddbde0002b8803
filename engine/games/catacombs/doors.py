"""Doors: study, open (what lies behind springs at once), force a locked door."""

from __future__ import annotations

from engine.core.api import Action
from engine.core.rules import PARTIAL, rule
from engine.games.catacombs.board import Pos
from engine.games.catacombs.checks_util import may_try
from engine.games.catacombs.movement import closed_door
from engine.games.catacombs.registry import actions_of, handles, task
from engine.games.catacombs.state import CatacombsState, Hero


def doors_next_to(state: CatacombsState, hero: Hero) -> list[tuple[Pos, dict]]:
    out = []
    for nxt, _ in state.board.steps(hero.pos):
        door = closed_door(state, nxt)
        if door is not None:
            out.append((nxt, door))
    return out


def _hidden(state: CatacombsState, door: dict) -> dict:
    token = state.data.tokens.get(door.get("card") or "")
    return dict(token.hidden) if token else {}


@actions_of
def door_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    out = []
    for _pos, door in doors_next_to(state, hero):
        uid = door["uid"]
        known_locked = door.get("known_locked")
        if uid not in hero.studied and may_try(state, hero, state.data.check("door", "study")):
            out.append(Action.of("door", how="study", door=uid))
        if not known_locked:
            out.append(Action.of("door", how="open", door=uid))
        elif may_try(state, hero, state.data.check("locked-door", "force")):
            out.append(Action.of("door", how="force", door=uid))
    return out


@handles("door")
@rule("doors.open", "doors.study", "doors.locked", "doors.force", "doors.behind")
def do_door(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Study with attention; open (a locked door stays shut, a monster or trap behind it
    springs on the hero); force a locked one with strength or a lockpick, dynamite or key."""
    how = action.get("how")
    door = next(d for _, d in doors_next_to(state, hero) if d["uid"] == action.get("door"))
    hidden = _hidden(state, door)
    check = state.data.check("locked-door" if how == "force" else "door", how)
    cost = check.actions if check else 1
    if how == "study":
        hero.studied.append(door["uid"])
        if hidden.get("locked"):
            door["known_locked"] = True
        state.log(f"{hero.character} studies a door: {door.get('card')}")
        return cost
    if how == "open" and hidden.get("locked"):
        door["known_locked"] = True
        state.log(f"{hero.character} finds the door locked")
        return cost
    door["open"] = True
    state.touch_layout("passage")
    state.log(f"{hero.character} {'forces' if how == 'force' else 'opens'} a door")
    behind = hidden.get("behind", "nothing")
    if behind == "monster" and sum(state.pools.get("monster", {}).values()) > 0:
        state.push("draw", "door-monster", pool="monster", seat=hero.seat)
    elif behind == "trap" and sum(state.pools.get("hidden-trap", {}).values()) > 0:
        state.push("draw", "door-trap", pool="hidden-trap", seat=hero.seat)
    return cost


@task("door-monster")
def door_monster(state: CatacombsState, t: dict, card: str) -> None:
    from engine.games.catacombs.monsters import spawn

    hero = state.heroes[t["seat"]]
    piece = spawn(state, card, hero.pos, awake=True, meet=True)
    if piece is not None:
        state.push("do", "monster-act", uid=piece.uid)


@task("door-trap")
def door_trap(state: CatacombsState, t: dict, card: str) -> None:
    from engine.games.catacombs.traps import spring_hidden_trap

    spring_hidden_trap(state, state.heroes[t["seat"]], card)


@rule(
    "doors.levers",
    "levers.study",
    "levers.effects",
    status=PARTIAL,
    note="levers are laid out but cannot be pulled",
)
def levers() -> None:
    """Not implemented: pulling levers."""
