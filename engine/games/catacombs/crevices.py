"""Crevices: squeezing through vertical ones; jumping, helping hands, falling, swimming and
diving at horizontal ones, by depth."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import (
    Pos,
    arrive,
    blocked_at,
    laid,
    parse_pos,
    pos_key,
    slot_key,
    steps_graph,
)
from engine.games.catacombs.checks_util import apply_outcome, may_try, passes
from engine.games.catacombs.data import Check
from engine.games.catacombs.registry import actions_of, handles, rule, task
from engine.games.catacombs.relationships import friendly_level
from engine.games.catacombs.state import JUNK, JUNK_POOL, CatacombsState, Hero
from engine.games.catacombs.steps import BridgeRoll, HelpingHand, JumpLuck


@rule("crevices.vertical-stuck", "crevices.boy")
def squeeze_through(state: CatacombsState, hero: Hero) -> None:
    """Speed and dexterity high enough pass for the action; others are stuck a turn. The boy
    always passes freely."""
    if state.data.characters[hero.character].has("pass-vertical-crevice-free"):
        return
    check = state.data.check("crevice-vertical", "pass")
    if check is None or check.allowed(state.stats(hero)):
        return
    apply_outcome(state, hero, check.on_failure, "stuck in a vertical crevice")


def jumps(state: CatacombsState, hero: Hero) -> list[tuple[dict, Pos]]:
    """Horizontal crevices next to the hero, with each landing cell over them."""
    return state.memo(("jumps", hero.seat, hero.pos), lambda: _jumps(state, hero))


STEPS4 = ((0, 1), (0, -1), (1, 0), (-1, 0))


def landings(tile, cells: list[list[int]], c: int, r: int) -> list[tuple[int, int]]:
    """Where a jump from (c, r) over the crevice's cell next to it lands: a floor cell next to
    that cell, not in the crevice and not the starting cell — straight across a crevice that
    runs wall to wall, or round the corner of one that fills a crossing."""
    out = []
    for dc, dr in STEPS4:
        over = [c + dc, r + dr]
        if over not in cells:
            continue
        for ec, er in STEPS4:
            lc, lr = over[0] + ec, over[1] + er
            if (lc, lr) != (c, r) and [lc, lr] not in cells and tile.floor(lc, lr):
                out.append((lc, lr))
    return sorted(set(out))


def _jumps(state: CatacombsState, hero: Hero) -> list[tuple[dict, Pos]]:
    out = []
    tile = state.tile_of(hero.pos)
    tx, ty, c, r = hero.pos
    for f in tile.features:
        if f["type"] != "crevice" or f.get("orientation") != "horizontal" or f.get("bridged"):
            continue
        for lc, lr in landings(tile, f.get("cells", []), c, r):
            land = (tx, ty, lc, lr)
            if not blocked_at(state, land):
                out.append((f, land))
    return out


def jump_length(state: CatacombsState, hero: Hero, check: Check) -> int:
    extra = sum(m.cells for m in check.active_modifiers(state.stats(hero), tuple(hero.items)))
    return state.stat(hero, "speed") + extra


def jump_needed(check: Check, feature: dict) -> int:
    return int(feature.get("width") or 1) + int(check.cells_add or 0)


def jump_faces(state: CatacombsState, hero: Hero, check: Check) -> frozenset[int]:
    faces = check.success
    for m in check.active_modifiers(state.stats(hero), tuple(hero.items)):
        if m.success is not None:
            faces = m.success
    return faces


@actions_of
def crevice_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    out = []
    jump = state.data.check("crevice-horizontal", "jump")
    swim = state.data.check("water", "swim")
    for f, land in jumps(state, hero):
        if jump is not None:
            sure = jump_length(state, hero, jump) >= jump_needed(jump, f)
            if sure or jump_faces(state, hero, jump):
                out.append(Action.of("jump", crevice=f["uid"], to=pos_key(land)))
        if f.get("depth") == "water" and may_try(state, hero, swim):
            out.append(Action.of("swim", crevice=f["uid"], to=pos_key(land)))
    return out


@handles("jump")
@rule(
    "crevices.jump",
    "crevices.jump-dexterity",
    "crevices.jump-luck",
    "crevices.professor-example",
    "engine.crevice-geometry",
)
def do_jump(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Width + 2 cells in one action (dexterity adds a cell); short of that, luck may roll."""
    check = state.data.check("crevice-horizontal", "jump")
    f = crevice_feature(state, hero, action.get("crevice"))
    if jump_length(state, hero, check) >= jump_needed(check, f):
        land(state, hero, action.get("to"))
        return 1
    dice = str(check.dice or "d6")
    state.push(JumpLuck(dice=dice, seat=hero.seat, crevice=f["uid"], to=action.get("to")))
    return 1


@handles("swim")
@rule("depth.swim")
def do_swim(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Swim across a water crevice (the swim check's action cost)."""
    land(state, hero, action.get("to"))
    swim = state.data.check("water", "swim")
    return swim.actions if swim is not None else 1


def crevice_feature(state: CatacombsState, hero: Hero, uid: str) -> dict:
    return next(f for f in state.tile_of(hero.pos).features if f.get("uid") == uid)


def land(state: CatacombsState, hero: Hero, to: str) -> None:
    hero.pos = parse_pos(to)
    state.log(f"{hero.character} gets across to {to}")
    arrive(state, hero)


@task(JumpLuck)
def jump_luck(state: CatacombsState, t: JumpLuck, value: int) -> None:
    hero = state.heroes[t.seat]
    check = state.data.check("crevice-horizontal", "jump")
    if value in jump_faces(state, hero, check):
        land(state, hero, t.to)
        return
    catch_or_fall(state, hero, t.crevice, t.to)


@rule("crevices.helping-hand", "crevices.helping-hand-sure")
def catch_or_fall(state: CatacombsState, hero: Hero, crevice: str, to: str) -> None:
    """A friend on the far side may try the helping hand; otherwise the hero falls."""
    helper = helping_hand(state, hero, parse_pos(to))
    if helper is None:
        fall(state, hero, crevice, to)
        return
    state.push(HelpingHand(dice="d6", helper=helper.seat, seat=hero.seat, crevice=crevice, to=to))


def helping_hand(state: CatacombsState, hero: Hero, far: Pos) -> Hero | None:
    """A friend on the far side with strength 3+ may catch a falling jumper."""
    check = state.data.check("crevice-horizontal", "catch")
    friendly = friendly_level(state)
    for other in state.heroes:
        if other.seat == hero.seat or not other.active or other.pos[:2] != far[:2]:
            continue
        if state.relation(hero.seat, other.seat) >= friendly and may_try(state, other, check):
            return other
    return None


@task(HelpingHand)
def helping_roll(state: CatacombsState, t: HelpingHand, value: int) -> None:
    hero = state.heroes[t.seat]
    helper = state.heroes[t.helper]
    check = state.data.check("crevice-horizontal", "catch")
    if passes(state, helper, check, value):
        state.log(f"{helper.character} catches {hero.character}")
        land(state, hero, t.to)
        return
    fall(state, hero, t.crevice, t.to)


@rule("depth.shallow", "depth.water", "depth.deadly")
def fall(state: CatacombsState, hero: Hero, crevice: str, to: str) -> None:
    """Shallow: broken leg; water: out on the far side next turn; deep and spiked: death."""
    f = crevice_feature(state, hero, crevice)
    depth = f.get("depth") or "deep"
    check = state.data.check(depth, "fall")
    state.log(f"{hero.character} falls into a {depth} crevice")
    if check is not None:
        apply_outcome(state, hero, check.on_success, f"fell into a {depth} crevice")
    if hero.alive:
        hero.pos = parse_pos(to)
        if depth == "water":
            state.actions_left = 0


def bridge_limit(state: CatacombsState) -> int:
    """The bridge token's strength: the most a bridge can hold."""
    tokens = state.data.tokens_of("bridge")
    return max((t.strength for t in tokens), default=0)


@actions_of
def bridge_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    found = jumps(state, hero)
    if not found:
        return []
    out = []
    limit = bridge_limit(state)
    for f, land in found:
        if hero.junk > 0 and f.get("bridge", 0) < limit:
            out.append(Action.of("build-bridge", crevice=f["uid"]))
        if f.get("bridge", 0) > 0:
            out.append(Action.of("cross-bridge", crevice=f["uid"], to=pos_key(land)))
    return out


@actions_of
def scrape_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """At a horizontal crevice, with no junk in hand, a whole turn breaks stones off its edge
    while the supply has junk (table.cut-off)."""
    if not hero.active or state.round == 1 or hero.hidden or hero.junk > 0:
        return []
    check = state.data.check("crevice-horizontal", "scrape")
    supply = state.pools.get(JUNK_POOL, {}).get(JUNK, 0)
    if check is None or state.actions_left < check.actions or not supply:
        return []
    return [Action.of("scrape")] if jumps(state, hero) else []


@handles("scrape")
@rule("table.cut-off")
def do_scrape(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Provisional: a hero cut off by a crevice they cannot jump spends the whole turn at its
    edge and takes 1 junk token from the supply, for a bridge."""
    check = state.data.check("crevice-horizontal", "scrape")
    hero.junk += state.take_junk(1)
    state.log(f"{hero.character} breaks stones off the crevice's edge ({hero.junk} junk held)")
    return check.actions


def return_junk(state: CatacombsState, n: int) -> None:
    """Junk spent on a bridge goes back to the supply (table.junk)."""
    pool = state.pools.setdefault(JUNK_POOL, {})
    pool[JUNK] = pool.get(JUNK, 0) + n


@handles("build-bridge")
@rule("crevices.bridge", "engine.bridges", "table.junk")
def do_build_bridge(state: CatacombsState, hero: Hero, action: Action) -> int:
    """One action and one junk token add a point of strength to a bridge over the crevice,
    up to the bridge token's strength."""
    f = crevice_feature(state, hero, action.get("crevice"))
    hero.junk -= 1
    return_junk(state, 1)
    f["bridge"] = f.get("bridge", 0) + 1
    state.layout_cache.pop("walk", None)
    state.log(f"{hero.character} builds the bridge up to {f['bridge']}")
    return bridge_cost(state)


def bridge_cost(state: CatacombsState) -> int:
    """Actions per point of bridge strength (the rule that uses the bridge token)."""
    entry = state.data.bridge_rule
    return entry.actions if entry is not None and entry.actions is not None else 1


@handles("cross-bridge")
@rule("crevices.bridge-last", "crevices.helping-hand")
def do_cross_bridge(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Each crossing takes a point of strength; on the last point the crosser rolls the
    bridge check (a friend may still catch a fall)."""
    f = crevice_feature(state, hero, action.get("crevice"))
    f["bridge"] -= 1
    if f["bridge"] > 0:
        land(state, hero, action.get("to"))
        return 1
    check = state.data.check("bridge", "cross")
    dice = str(check.dice if check and check.dice else "d6")
    state.push(BridgeRoll(dice=dice, seat=hero.seat, crevice=f["uid"], to=action.get("to")))
    return 1


@task(BridgeRoll)
def bridge_roll(state: CatacombsState, t: BridgeRoll, value: int) -> None:
    hero = state.heroes[t.seat]
    check = state.data.check("bridge", "cross")
    state.log(f"the bridge gives way under {hero.character}")
    if check is None or passes(state, hero, check, value):
        land(state, hero, t.to)
        return
    catch_or_fall(state, hero, t.crevice, t.to)


def dive_targets(state: CatacombsState, hero: Hero, here: dict) -> list[tuple[dict, Pos]]:
    """Other water crevices on the table and a free cell beside each."""
    out = []
    graph = steps_graph(state)
    for tx, ty, tile in sorted(laid(state.tiles), key=lambda t: slot_key((t[0], t[1]))):
        for f in tile.features:
            if f is here or f["type"] != "crevice" or f.get("depth") != "water":
                continue
            if f.get("orientation") != "horizontal" or not f.get("cells"):
                continue
            c, r = f["cells"][0]
            for nxt, _ in graph.get((tx, ty, c, r), ()):
                if not blocked_at(state, nxt):
                    out.append((f, nxt))
                    break
    return out


@actions_of
@rule("depth.dive-near", "depth.dive-far")
def dive_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """A dive surfaces in another water crevice: of the hero's own separate labyrinth with the
    `dive` check, of another separate labyrinth with the `dive-far` check."""
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    water = {f["uid"]: f for f, _ in jumps(state, hero) if f.get("depth") == "water"}
    if not water:
        return []
    near = may_try(state, hero, state.data.check("water", "dive"))
    far = may_try(state, hero, state.data.check("water", "dive-far"))
    if not near and not far:
        return []
    mine = state.tile_of(hero.pos).labyrinth
    out = []
    for f in water.values():
        for target, land in dive_targets(state, hero, f):
            if near if state.tile_of(land).labyrinth == mine else far:
                out.append(Action.of("dive", crevice=target["uid"], to=pos_key(land)))
    return out


@handles("dive")
@rule("depth.dive-near", "engine.dive")
def do_dive(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Strength 5+ dives into a water crevice and comes up at another one of the labyrinth
    (one action)."""
    land(state, hero, action.get("to"))
    return 1
