"""The heuristic bot: it explores, loots, avoids certain death and heads for the artifact."""

from __future__ import annotations

from collections import deque

from engine.core.api import Action
from engine.core.rng import Rng
from engine.games.catacombs.board import (
    Pos,
    frontier,
    laid,
    neighbour_slot,
    parse_pos,
    place,
    steps_graph,
)
from engine.games.catacombs.checks_util import may_try
from engine.games.catacombs.crevices import crevice_feature, jump_length, jump_needed
from engine.games.catacombs.labyrinths import ceiling_for, floor_for, tiles_left
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import Decide, RewardChoice, RotateTile, Shop, TeamChoice
from engine.games.catacombs.turn import flooding

LOOT_FEATURES = ("cache", "statue", "sarcophagus")


class HeuristicBot:
    """Scores every legal action with simple, readable priorities; ties break by a seeded die."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)
        self._distances: dict[tuple, dict[Pos, int]] = {}

    def choose(self, state: CatacombsState) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.queue and isinstance(state.queue[0], Decide):
            return self._decide(state, actions)
        hero = state.heroes[state.current_player]
        dist = self._goal_distances(state, hero)
        threats = threats_by_slot(state)
        score = self._score
        scored = [(score(state, hero, a, dist, threats), i) for i, a in enumerate(actions)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s == best]
        return actions[top[self.rng.below(len(top))]]

    def _goal_distances(self, state: CatacombsState, hero: Hero) -> dict[Pos, int]:
        key = goal_signature(state, hero)
        margin = state.stat(hero, "speed") + 3
        found = self._distances.get(key)
        if found is not None:
            dist, cutoff = found
            here = dist.get(hero.pos)
            if cutoff is None or (here is not None and here + margin <= cutoff):
                return dist
        if len(self._distances) > 64:
            self._distances.clear()
        dist, cutoff = _goal_distances(state, hero, margin)
        self._distances[key] = (dist, cutoff)
        return dist

    # ----- decisions ------------------------------------------------------------------------
    def _decide(self, state: CatacombsState, actions: list[Action]) -> Action:
        head = state.queue[0]
        if isinstance(head, RotateTile):
            return max(actions, key=lambda a: (_open_exits(state, head, a), -a.get("turns")))
        if isinstance(head, RewardChoice):
            monster = state.data.monsters[head.monster]
            rewards = monster.controlled_rewards if head.controlled else monster.rewards
            return max(actions, key=lambda a: rewards[a.get("option")].value())
        if isinstance(head, Shop):
            return _shop_pick(state, head, actions)
        if isinstance(head, TeamChoice):
            return actions[0]
        return actions[0]

    # ----- turn actions ---------------------------------------------------------------------
    def _score(
        self, state: CatacombsState, hero: Hero, a: Action, dist: dict[Pos, int], threats: dict
    ) -> float:
        kind = a.kind
        fixed = FIXED_SCORES.get(kind)
        if fixed is not None:
            return fixed
        if kind in STEPS:
            return _step_score(state, hero, a, dist, threats)
        danger = threats.get(hero.pos[:2], 0)
        if kind == "pass":
            return 1 if dist.get(hero.pos) is None else -5
        if kind == "attack":
            return 60 if hero.hp > danger else 20
        if kind == "bargain":
            return 55 if a.get("how") == "buy-off" else 50
        if kind == "statue":
            return _statue_score(state, hero, a)
        if kind == "sarcophagus":
            return 40 if hero.hp > 3 else -10
        if kind == "door":
            return {"study": 45, "open": 35, "force": 38, "batter": 30}[a.get("how")]
        if kind == "shelter":
            return (
                30
                if a.get("how") == "hide" and hero.hp <= danger
                else (25 if a.get("how") == "leave" else -20)
            )
        if kind == "lever":
            return 33 if a.get("how") == "pull" else 34
        if kind == "cast":
            card = state.data.cards[a.get("card")]
            wanted = card.outcome.health > 0 and hero.hp <= hero.max_hp - card.outcome.health
            return 70 if wanted else -10
        if kind == "use":
            return 75 if hero.hp < hero.max_hp - 1 or hero.speed_set is not None else -5
        if kind == "descend":
            return _descend_score(state, hero, a, dist)
        if kind in ("explore", "far-explore"):
            return 50 if not hero.artifact else -1
        if kind == "build-bridge":
            return _bridge_score(state, hero, a)
        return 0


FIXED_SCORES: dict[str, float] = {
    "leave": 1000,
    "banish": 80,
    "weaken": 80,
    "search": 70,
    "befriend": 10,
    "forgive": -20,
    "run-jump": -40,
    "defect": -30,
    "lock": -30,
    "force-out": -30,
    "push": -30,
    "intrigue": -30,
    "pack": -30,
    "wear": -30,
    "offer": -30,
}
"""Actions the bot always scores the same, whatever the position."""

STEPS = frozenset(("jump", "swim", "jump-trap", "move", "dive", "climb", "cross-bridge"))
"""Actions that take the hero to another cell (scored by the distance they gain)."""


def _step_score(
    state: CatacombsState, hero: Hero, a: Action, dist: dict[Pos, int], threats: dict
) -> float:
    target = parse_pos(a.get("to"))
    if a.kind == "climb" and flooding(state, hero):
        return 90  # out through the ceiling hatch before the water rises
    if a.kind == "jump" and not _sure_jump(state, hero, a):
        return -50
    base = 0.0
    if a.get("explore") is not None and not hero.artifact:
        base += 52
    base += (dist.get(hero.pos, 99) - dist.get(target, 99)) * 3
    if threats.get(target[:2], 0) >= hero.hp:
        base -= 100
    return base


def _descend_score(state: CatacombsState, hero: Hero, a: Action, dist: dict[Pos, int]) -> float:
    via = next(f for f in state.tile_of(hero.pos).features if f["uid"] == a.get("via"))
    below = ceiling_for(state, via.get("mark")) if via.get("mark") else None
    if below is not None:
        return (dist.get(hero.pos, 99) - dist.get(below, 99)) * 3
    return 49 if dist.get(hero.pos, 99) == 0 and not hero.artifact else -5


def _bridge_score(state: CatacombsState, hero: Hero, a: Action) -> float:
    return -5 if _sure_jump(state, hero, a) else 36


def _sure_jump(state: CatacombsState, hero: Hero, a: Action) -> bool:
    check = state.data.check("crevice-horizontal", "jump")
    feature = crevice_feature(state, hero, a.get("crevice"))
    if feature.get("depth") == "water":
        return True
    return check is not None and jump_length(state, hero, check) >= jump_needed(check, feature)


def _statue_score(state: CatacombsState, hero: Hero, a: Action) -> float:
    how = a.get("how")
    if how == "study":
        return 46
    if how == "mechanism":
        return 65
    if how == "move":
        return 30
    return 44 if hero.hp > 2 else 10


def _shop_pick(state: CatacombsState, head: Shop, actions: list[Action]) -> Action:
    actions = [a for a in actions if a.kind != "borrow"]

    def worth(a: Action) -> tuple:
        if a.kind == "done":
            return (0, 0)
        card = state.data.cards.get(a.get("item"))
        if card is not None:
            return (card.damage * 3, -card.price)
        item = state.data.items[a.get("item")]
        useful = item.melee * 3 + item.ranged * 2 + 4 * item.far_seeing + sum(item.stats.values())
        useful += 2 if item.cures else 0
        useful += item.heal
        return (useful, -item.price)

    best = max(actions, key=worth)
    return best if worth(best)[0] > 0 else Action.of("done")


def _open_exits(state: CatacombsState, head: RotateTile, a: Action) -> int:
    tile = state.data.tiles[head.tile]
    placed = place(tile, head.slot, a.get("turns"))
    slot = head.slot
    return sum(
        1
        for side, cells in placed.exits.items()
        if cells and state.board.tile_at(neighbour_slot(slot, side)) is None
    )


def threats_by_slot(state: CatacombsState) -> dict[tuple[int, int], int]:
    """Damage awake monsters on each tile could deal next round (a rough bound)."""
    return state.memo("threats", lambda: _threats(state))


def _threats(state: CatacombsState) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for piece in state.pieces:
        if piece.on_map:
            m = state.data.monsters[piece.monster]
            hit = max(m.stats.melee, m.stats.ranged, m.stats.poison, m.stats.acid)
            out[piece.pos[:2]] = out.get(piece.pos[:2], 0) + hit
    return out


def goal_signature(state: CatacombsState, hero: Hero) -> tuple:
    """What the goals depend on: the layout, the loot and artifact left, the hero's burden."""
    layout = state.layout_cache.get("layout-signature")
    if layout is None:
        layout = tuple(
            (key, state.tiles[key].tile, state.tiles[key].rotation) for key in sorted(state.tiles)
        )
        state.layout_cache["layout-signature"] = layout
    live = []
    for key, _, _ in layout:
        for f in state.tiles[key].features:
            if f["type"] in LOOT_FEATURES or f["type"] in ("artifact", "door"):
                live.append(
                    (
                        key,
                        f.get("uid"),
                        f.get("state", ""),
                        f.get("moved"),
                        f.get("known_locked"),
                        f.get("open"),
                    )
                )
    return (
        layout,
        tuple(live),
        hero.artifact,
        hero.hp > 3,
        tuple(state.hatch),
        tiles_left(state, hero),
        tuple(hero.studied),
    )


def goal_distances(state: CatacombsState, hero: Hero) -> dict[Pos, int]:
    """Walking distance from every cell to the hero's current goal (multi-source BFS)."""
    return state.memo(("goals", hero.seat), lambda: _goal_distances(state, hero)[0])


def _goals(state: CatacombsState, hero: Hero) -> list[Pos]:
    if hero.artifact:
        return [tuple(state.hatch)]
    goals: list[Pos] = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            if f["type"] == "artifact" and f.get("cell"):
                return [(tx, ty, f["cell"][0], f["cell"][1])]
    descents: list[Pos] = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            if _worth_visiting(state, hero, f):
                goals.append((tx, ty, *tile.center()))
            elif f["type"] in ("cliff", "floor-hatch") and f.get("cell"):
                descents.append((tx, ty, f["cell"][0], f["cell"][1]))

    if tiles_left(state, hero):
        goals += list(frontier(state))
    if tiles_left(state, hero) and not _reachable_goal(state, hero, goals):
        goals += descents
    return goals or [tuple(state.hatch)]


def _reachable_goal(state: CatacombsState, hero: Hero, goals: list[Pos]) -> bool:
    """Some goal lies in the hero's own labyrinth."""
    mine = state.tile_of(hero.pos).labyrinth
    return any(state.tile_of(g).labyrinth == mine for g in goals)


def _links(state: CatacombsState) -> list[tuple[Pos, Pos]]:
    """Known one-way passages between labyrinths: (from, to) for climbs and known descents."""
    out = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            mark, cell = f.get("mark"), f.get("cell")
            if not mark or not cell:
                continue
            here = (tx, ty, cell[0], cell[1])
            if f["type"] == "ceiling-hatch" and floor_for(state, mark) is not None:
                out.append((here, floor_for(state, mark)))
            if f["type"] == "floor-hatch" and ceiling_for(state, mark) is not None:
                out.append((here, ceiling_for(state, mark)))
    return out


def _worth_visiting(state: CatacombsState, hero: Hero, f: dict) -> bool:
    """Loot the hero can still do something with."""
    kind = f["type"]
    if kind == "cache":
        return True
    if kind == "sarcophagus":
        return f.get("state", "closed") in ("closed", "sealed") and hero.hp > 3
    if kind == "statue":
        if f.get("moved"):
            return False
        keeper = state.data.characters[hero.character].relic_keeper
        study = state.data.check("statue", "study")
        return not keeper or (f["uid"] not in hero.studied and may_try(state, hero, study))
    return False


def _stuck_cells(state: CatacombsState, hero: Hero) -> tuple[set[Pos], list[tuple[Pos, Pos]]]:
    """Cells this hero cannot walk onto (locked doors it cannot force, crevices, jump-only
    traps) and the jumps or swims over them it can surely make: (from, to) pairs."""
    force = may_try(state, hero, state.data.check("locked-door", "force"))
    jump = state.data.check("crevice-horizontal", "jump")
    speed = state.stat(hero, "speed")
    reach = jump_length(state, hero, jump) if jump is not None else 0
    out: set[Pos] = set()
    hops: list[tuple[Pos, Pos]] = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            if f["type"] == "door" and f.get("known_locked") and not f.get("open") and not force:
                out.add((tx, ty, f["cell"][0], f["cell"][1]))
            if f["type"] == "crevice" and f.get("orientation") == "horizontal":
                cells = {(c, r) for c, r in f.get("cells", [])}
                out |= {(tx, ty, c, r) for c, r in cells}
                sure = jump is not None and reach >= jump_needed(jump, f)
                if sure or f.get("depth") == "water" or f.get("bridge", 0) > 1:
                    hops += _hops(tile, tx, ty, cells)
        for trap_id, c, r in tile.traps:
            trap = state.data.traps.get(trap_id)
            if trap is not None and trap.jumpable:
                out.add((tx, ty, c, r))
                if trap.jump and speed >= min(n for _, n in trap.jump):
                    hops += _hops(tile, tx, ty, {(c, r)})
    return out, hops


def _hops(tile, tx: int, ty: int, cells: set[tuple[int, int]]) -> list[tuple[Pos, Pos]]:
    """Straight hops over single cells of `cells`, from floor to floor."""
    out = []
    for c, r in cells:
        for dc, dr in ((1, 0), (0, 1)):
            a, b = (c - dc, r - dr), (c + dc, r + dr)
            if tile.floor(*a) and tile.floor(*b) and a not in cells and b not in cells:
                out += [((tx, ty, *a), (tx, ty, *b)), ((tx, ty, *b), (tx, ty, *a))]
    return out


def _goal_distances(
    state: CatacombsState, hero: Hero, margin: int | None = None
) -> tuple[dict[Pos, int], int | None]:
    """Doors count as passable here (the bot walks up to them and opens them), except locked
    ones the hero cannot force. With a margin the search stops once every cell within
    `margin` of the hero's own distance is settled; returns the map and that cutoff."""
    graph = steps_graph(state)
    stuck, hops = _stuck_cells(state, hero)
    back: dict[Pos, list[Pos]] = {}
    for a, b in _links(state) + hops:
        back.setdefault(b, []).append(a)
    dist: dict[Pos, int] = {}
    queue: deque[Pos] = deque()
    for g in _goals(state, hero):
        if g not in dist:
            dist[g] = 0
            queue.append(g)
    popleft, append, empty = queue.popleft, queue.append, ()
    anchor, cutoff = hero.pos, None
    while queue:
        pos = popleft()
        step = dist[pos] + 1
        if cutoff is None and margin is not None and pos == anchor:
            cutoff = dist[pos] + margin
        if cutoff is not None and step > cutoff:
            return dist, cutoff
        for nxt, _ in graph.get(pos, empty):
            if nxt not in dist and nxt not in stuck:
                dist[nxt] = step
                append(nxt)
        for nxt in back.get(pos, empty):
            if nxt not in dist:
                dist[nxt] = step
                append(nxt)
    return dist, None
