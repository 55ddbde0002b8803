"""Doors: study, open (what lies behind springs at once), force a locked door."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import (
    Pos,
    closed_door,
    obstacle_index,
    parse_pos,
    pos_key,
    steps_graph,
)
from engine.games.catacombs.checks_util import may_try, passes
from engine.games.catacombs.monsters import spawn
from engine.games.catacombs.registry import actions_of, handles, rule, task
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.statues import hidden_passage
from engine.games.catacombs.steps import (
    DoorBatter,
    DoorMonster,
    DoorTrap,
    IntrigueDoorMonster,
    MonsterAct,
)
from engine.games.catacombs.traps import spring_hidden_trap


def doors_next_to(state: CatacombsState, hero: Hero) -> list[tuple[Pos, dict]]:
    out = []
    for nxt, _ in steps_graph(state).get(hero.pos, ()):
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
        elif state.data.check("locked-door", "batter") is not None:
            out.append(Action.of("door", how="batter", door=uid))
    return out


@handles("door")
@rule("doors.open", "doors.study", "doors.locked", "doors.force", "doors.behind")
def do_door(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Study with attention; open (a locked door stays shut, a monster or trap behind it
    springs on the hero); force a locked one with strength or a lockpick, dynamite or key."""
    how = action.get("how")
    door = next(d for _, d in doors_next_to(state, hero) if d["uid"] == action.get("door"))
    hidden = _hidden(state, door)
    check = state.data.check("locked-door" if how in ("force", "batter") else "door", how)
    cost = check.actions if check else 1
    if how == "batter":
        state.push(DoorBatter(dice=str(check.dice or "d6"), seat=hero.seat, door=door["uid"],
                              check=check.id))
        return cost
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
    if how == "force":
        force_means(state, hero, door, check)
    behind(state, hero, door)
    return cost


def behind(state: CatacombsState, hero: Hero, door: dict) -> None:
    """What lies behind a door just opened springs on the hero (once)."""
    what = _hidden(state, door).get("behind", "nothing")
    if door.get("sprung"):
        return
    door["sprung"] = True
    if what == "monster" and sum(state.pools.get("monster", {}).values()) > 0:
        state.push(DoorMonster(pool="monster", seat=hero.seat))
    elif what == "trap" and state.stocked("hidden-trap"):
        state.push(DoorTrap(pool="hidden-trap", seat=hero.seat))


@task(DoorBatter)
@rule("table.locked-in")
def door_batter(state: CatacombsState, t: DoorBatter, value: int) -> None:
    """Battering a locked door: on the check's faces it gives way, its token is removed and
    what lies behind springs; otherwise it holds."""
    hero = state.heroes[t.seat]
    check = state.data.checks[t.check]
    door = next((d for _, d in doors_next_to(state, hero) if d["uid"] == t.door), None)
    if door is None or not hero.active:
        return
    if not passes(state, hero, check, value):
        state.log(f"{hero.character} batters the locked door; it holds ({value})")
        return
    state.log(f"{hero.character} batters the locked door down ({value})")
    door["open"], door["by"] = True, "batter"
    for tile in state.tiles.values():
        if door in tile.features:
            tile.features.remove(door)
    state.touch_layout("passage")
    behind(state, hero, door)


RELOCKING = ("key", "lockpick")


@rule("doors.relock", "doors.force")
def force_means(state: CatacombsState, hero: Hero, door: dict, check) -> None:
    """Strength first, else the first of the check's items the hero holds (dynamite is used
    up). Forced by strength or dynamite the door token leaves the map; opened with a key or a
    lockpick it stays and may be locked again."""
    if check is not None and check.requires and check.allowed(state.stats(hero)):
        means = "strength"
    else:
        means = next((i for i in (check.items if check else ()) if i in hero.items), "strength")
    door["by"] = means
    item = state.data.items.get(means)
    if item is not None and item.single_use:
        hero.items.remove(means)
    if means not in RELOCKING:
        for tile in state.tiles.values():
            if door in tile.features:
                tile.features.remove(door)
                state.touch_layout("passage")


@actions_of
def lock_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    if not set(RELOCKING) & set(hero.items):
        return []
    out = []
    for nxt, _ in steps_graph(state).get(hero.pos, ()):
        for f in state.tile_of(nxt).features:
            opened = f["type"] == "door" and f.get("open") and f.get("by") in RELOCKING
            if (
                opened
                and f.get("cell") == [nxt[2], nxt[3]]
                and not any(h.active and h.pos == nxt for h in state.heroes)
            ):
                out.append(Action.of("lock", door=f["uid"]))
    return out


@handles("lock")
def do_lock(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Lock a door again with a key or a lockpick (one action)."""
    for nxt, _ in steps_graph(state).get(hero.pos, ()):
        for f in state.tile_of(nxt).features:
            if f.get("uid") == action.get("door"):
                f["open"] = False
                f["known_locked"] = True
                state.touch_layout("passage")
                state.log(f"{hero.character} locks a door again")
    return 1


@task(DoorMonster)
def door_monster(state: CatacombsState, t: DoorMonster, card: str) -> None:
    hero = state.heroes[t.seat]
    piece = spawn(state, card, hero.pos, awake=True, meet=True)
    if piece is not None:
        state.push(MonsterAct(uid=piece.uid))


def monster_doors(state: CatacombsState) -> list[tuple[Pos, dict]]:
    """Shut doors on the table whose token hides a monster that has not come out yet."""
    return [
        (pos, door)
        for pos, door in sorted(obstacle_index(state)[0].items())
        if not door.get("open")
        and not door.get("sprung")
        and _hidden(state, door).get("behind") == "monster"
    ]


@rule("doors.intrigue", "engine.intrigue-door")
def open_monster_door(state: CatacombsState, uid: str, hero: Hero) -> None:
    """The door opens by itself (locked or not) and its monster comes out awake on the door's
    cell, then acts at once."""
    pos, door = next((p, d) for p, d in monster_doors(state) if d["uid"] == uid)
    door["open"] = True
    door["sprung"] = True
    state.touch_layout("passage")
    state.log(f"a door opens by itself at {pos}")
    if sum(state.pools.get("monster", {}).values()) > 0:
        state.push(IntrigueDoorMonster(pool="monster", seat=hero.seat, pos=pos_key(pos)))


@task(IntrigueDoorMonster)
def intrigue_door_monster(state: CatacombsState, t: IntrigueDoorMonster, card: str) -> None:
    piece = spawn(state, card, parse_pos(t.pos), awake=True)
    if piece is not None:
        state.push(MonsterAct(uid=piece.uid))


@task(DoorTrap)
def door_trap(state: CatacombsState, t: DoorTrap, card: str) -> None:
    spring_hidden_trap(state, state.heroes[t.seat], card)


def lever_here(state: CatacombsState, hero: Hero) -> dict | None:
    for f in state.tile_of(hero.pos).features:
        if f["type"] == "lever" and f.get("card"):
            return f
    return None


@actions_of
def lever_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    lever = lever_here(state, hero)
    if lever is None:
        return []
    out = [Action.of("lever", how="pull")]
    study = state.data.check("lever", "study")
    if lever["uid"] not in hero.studied and may_try(state, hero, study):
        out.insert(0, Action.of("lever", how="study"))
    return out


@handles("lever")
@rule(
    "doors.levers",
    "levers.study",
    "levers.effects",
    "levers.door-choice",
    "levers.passage",
    "levers.effect-door",
    "levers.effect-floor-spikes",
    "levers.effect-cutter",
    "levers.effect-hidden-passage",
)
def do_lever(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Study a lever (attention 5+) or pull it: it opens the nearest locked door, blocks every
    floor spike or cutter of the labyrinth, or opens a hidden passage; then it is removed."""
    lever = lever_here(state, hero)
    effect = _hidden(state, lever).get("effect")
    if action.get("how") == "study":
        hero.studied.append(lever["uid"])
        state.log(f"{hero.character} studies a lever: it works the {effect}")
        study = state.data.check("lever", "study")
        return study.actions if study is not None else 1
    state.tile_of(hero.pos).features.remove(lever)
    if effect == "door":
        door = _nearest_locked_door(state, hero)
        state.log(f"{hero.character} pulls a lever: "
                  + ("a locked door opens from afar" if door else "no locked door to open"))
        if door is not None:
            door["open"] = True
            state.touch_layout("passage")
    elif effect in state.data.traps:
        state.log(f"{hero.character} pulls a lever: every {effect} trap is blocked")
        for tile in state.tiles.values():
            tile.traps = [t for t in tile.traps if t[0] != effect]
        state.touch_layout("tiles")
    elif effect == "hidden-passage":
        state.log(f"{hero.character} pulls a lever")
        hidden_passage(state, hero, "by a lever")
    return 1


def _nearest_locked_door(state: CatacombsState, hero: Hero) -> dict | None:
    """Engine assumption for the player's choice: the closed locked door nearest in tiles."""
    best = None
    for key in sorted(state.tiles):
        tx, ty = (int(v) for v in key.split(","))
        for f in state.tiles[key].features:
            if f["type"] != "door" or f.get("open") or not _hidden(state, f).get("locked"):
                continue
            d = abs(tx - hero.pos[0]) + abs(ty - hero.pos[1])
            if best is None or d < best[0]:
                best = (d, f)
    return best[1] if best else None
