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
from engine.games.catacombs.crevices import (
    STEPS4,
    crevice_feature,
    jump_length,
    jump_needed,
    landings,
)
from engine.games.catacombs.labyrinths import (
    CLIFF_FOOT,
    ceiling_for,
    floor_for,
    landing,
    tiles_left,
)
from engine.games.catacombs.search import RUMMAGED, may_take
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import Decide, RewardChoice, RotateTile, Shop, TeamChoice
from engine.games.catacombs.turn import flooding

PATIENCE = 3
"""Turns without getting nearer after which the heuristic bot braves threatened tiles."""

BLOCKED_TURNS = 2 * PATIENCE
"""Turns without getting nearer after which the bot takes the monsters standing on the table
for walls (a ghost in a crossing nobody can banish) and looks for a way round them."""

AVOID_ROUNDS = 12
"""How many rounds the bot keeps going round the monsters it found in its way."""

LOOT_FEATURES = ("cache", "statue", "sarcophagus")
GOAL_FEATURES = (*LOOT_FEATURES, "artifact", "door", "lever", "stash", "cliff", "floor-hatch",
                 "cliff-foot", "rummaged")
"""Features whose presence or state the bot's goals depend on."""


class HeuristicBot:
    """Scores every legal action with simple, readable priorities; ties break by a seeded die."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)
        self._distances: dict[tuple, tuple] = {}
        self.level = CAREFUL
        """The level of the goals the last choice was made for (CAREFUL, BOLD, ANYTHING)."""
        self.stuck_turns = 0
        """Turns in a row begun no nearer the goal: after PATIENCE of them the bot stops
        keeping out of the monsters' way (a person would not wait for ever)."""
        self._turn_round = -1
        self._turn_dist: int | None = None
        self.avoid: frozenset[Pos] = frozenset()
        """Cells of monsters that stood in the way for BLOCKED_TURNS turns, avoided until
        `avoid_until` (the round)."""
        self.avoid_until = -1
        self.spent: frozenset[Pos] = frozenset()
        """Goals the hero stood on for BLOCKED_TURNS turns with nothing to do there (a cliff
        it cannot climb down, an edge it cannot explore): no goals until `avoid_until`."""

    def choose(self, state: CatacombsState) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.queue and isinstance(state.queue[0], Decide):
            return self._decide(state, actions)
        hero = state.heroes[state.current_player]
        dist = self._goal_distances(state, hero)
        self._count_stuck_turns(state, hero, dist)
        if self._route_around(state, hero, dist):
            dist = self._goal_distances(state, hero)
            self._turn_dist = dist.get(hero.pos)
        threats = threats_by_slot(state) if self.stuck_turns < PATIENCE else {}
        score = self._score
        scored = [(score(state, hero, a, dist, threats), i) for i, a in enumerate(actions)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s == best]
        return actions[top[self.rng.below(len(top))]]

    def _count_stuck_turns(self, state: CatacombsState, hero: Hero, dist: dict[Pos, int]) -> None:
        """At the start of each turn: turns in a row that began no nearer the goal."""
        if state.round == self._turn_round:
            return
        here = dist.get(hero.pos)
        before = self._turn_dist
        stuck = here is not None and before is not None and here >= before
        self.stuck_turns = self.stuck_turns + 1 if stuck else 0
        self._turn_round, self._turn_dist = state.round, here

    def _route_around(self, state: CatacombsState, hero: Hero, dist: dict[Pos, int]) -> bool:
        """After BLOCKED_TURNS turns no nearer, for AVOID_ROUNDS rounds avoid the cells the
        monsters stand on now and drop the goal the hero stands on (a person would go another
        way or try something else); true when it starts doing so."""
        if self.stuck_turns < BLOCKED_TURNS or state.round < self.avoid_until:
            return False
        cells = frozenset(p.pos for p in state.pieces if p.on_map and p.pos != hero.pos)
        spent = frozenset((hero.pos,)) if dist.get(hero.pos) == 0 else frozenset()
        if not cells and not spent:
            return False
        self.avoid, self.spent = cells, spent
        self.avoid_until, self.stuck_turns = state.round + AVOID_ROUNDS, 0
        return True

    def _goal_distances(self, state: CatacombsState, hero: Hero) -> dict[Pos, int]:
        now = state.round < self.avoid_until
        avoid, spent = (self.avoid, self.spent) if now else (frozenset(), frozenset())
        if avoid:  # a monster that died or walked off no longer stands in the way
            avoid = avoid & frozenset(p.pos for p in state.pieces if p.on_map)
        dist = self._distances_avoiding(state, hero, avoid, spent)
        if not (avoid or spent):
            return dist
        level = self.level
        plain = self._distances_avoiding(state, hero, frozenset(), frozenset())
        if hero.pos not in dist or self.level < level:  # no way round: back to the old way
            self.avoid, self.spent, self.avoid_until = frozenset(), frozenset(), -1
            return plain
        self.level = level
        return dist

    def _distances_avoiding(
        self, state: CatacombsState, hero: Hero, avoid: frozenset[Pos], spent: frozenset[Pos]
    ) -> dict[Pos, int]:
        key = (goal_signature(state, hero), avoid, spent)
        margin = state.stat(hero, "speed") + 3
        found = self._distances.get(key)
        if found is not None:
            dist, cutoff, level = found
            here = dist.get(hero.pos)
            if cutoff is None or (here is not None and here + margin <= cutoff):
                self.level = level
                return dist
        if len(self._distances) > 64:
            self._distances.clear()
        dist, cutoff, level = _goal_distances(state, hero, margin, avoid, spent)
        self._distances[key] = (dist, cutoff, level)
        self.level = level
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
            return _step_score(state, hero, a, dist, threats, self.stuck_turns < PATIENCE)
        danger = threats.get(hero.pos[:2], 0)
        if kind == "pass":
            return 1 if dist.get(hero.pos) is None else -2
        if kind == "attack":
            return 60 if hero.hp > danger else 20
        if kind == "bargain":
            return 55 if a.get("how") == "buy-off" else 50
        if kind == "statue":
            return _statue_score(state, hero, a)
        if kind == "sarcophagus":
            return 40 if hero.hp > 3 else -10
        if kind == "door":
            return _door_score(state, hero, a, dist, self.level)
        if kind == "rummage":
            return 38 if needs_junk(state, hero) else -2
        if kind == "scrape":  # only when no goal is in reach, not even a tile to rummage
            return 37 if needs_junk(state, hero) and dist.get(hero.pos) in (None, 0) else -3
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
            if hero.artifact:
                return -1
            return 50 if hero.hp > worst_of(state, "event") else 5
        if kind == "build-bridge":
            return _bridge_score(state, hero, a)
        return 0


FIXED_SCORES: dict[str, float] = {
    "leave": 1000,
    "pick-up": 90,
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
    "fight": -30,
    "intrigue": -30,
    "pack": -30,
    "wear": -30,
    "offer": -30,
}
"""Actions the bot always scores the same, whatever the position."""

STEPS = frozenset(("jump", "swim", "jump-trap", "move", "dive", "climb", "cross-bridge"))
"""Actions that take the hero to another cell (scored by the distance they gain)."""


def _step_score(
    state: CatacombsState,
    hero: Hero,
    a: Action,
    dist: dict[Pos, int],
    threats: dict,
    patient: bool = True,
) -> float:
    target = parse_pos(a.get("to"))
    if a.kind == "climb" and flooding(state, hero):
        return 90  # out through the ceiling hatch before the water rises
    if a.kind == "jump" and not _sure_jump(state, hero, a):
        return -50
    base = 0.0
    if a.get("explore") is not None and not hero.artifact:
        base += 52 if hero.hp > worst_of(state, "event") else 7
    base += (dist.get(hero.pos, 99) - dist.get(target, 99)) * 3
    if threats.get(target[:2], 0) >= hero.hp:
        base -= 100
    if patient and _deadly_unknown(state, hero, target[:2]):
        base -= 20  # let someone sturdier go first, for a few turns (PATIENCE)
    return base


def _door_score(
    state: CatacombsState, hero: Hero, a: Action, dist: dict[Pos, int], level: int
) -> float:
    """Study first; do not open (or force) a door the hero knows hides a trap or a monster
    unless no other way is left; batter a locked door only when it stands in the way."""
    how = a.get("how")
    if how == "study":
        return 45
    door, cell = next(
        (f, (tx, ty, f["cell"][0], f["cell"][1]))
        for tx, ty, tile in laid(state.tiles)
        for f in tile.features
        if f.get("uid") == a.get("door")
    )
    if door["uid"] in hero.studied and _hides_harm(state, door):
        ahead = dist.get(cell, 99) < dist.get(hero.pos, 99)
        return 12 if level > CAREFUL and ahead else -15
    if how == "batter":
        return 30 if dist.get(cell, 99) < dist.get(hero.pos, 99) else -3
    return {"open": 35, "force": 38}[how]


def _descend_score(state: CatacombsState, hero: Hero, a: Action, dist: dict[Pos, int]) -> float:
    via = next(f for f in state.tile_of(hero.pos).features if f["uid"] == a.get("via"))
    below = landing(state, hero.pos[:2], via)
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
            if card.ability is not None and card.ability.effect == "upkeep":
                return (0, 0)  # no treasure yet to pay it with
            return (card.damage * 3 + (6 if card.ability else 0), -card.price)
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
            if f["type"] in GOAL_FEATURES:
                live.append(
                    (
                        key,
                        f.get("uid"),
                        f.get("state", ""),
                        f.get("moved"),
                        f.get("known_locked"),
                        f.get("open"),
                        f.get("sealed_by"),
                        f.get("revealed"),
                        f.get("bridge"),
                    )
                )
    return (
        layout,
        tuple(live),
        hero.artifact,
        min(hero.hp, 10),
        hero.junk > 0,
        tuple(state.hatch),
        tiles_left(state, hero),
        tuple(hero.studied),
        tuple(sorted(hero.items)),
        bool(state.pools.get("token:junk", {}).get("junk")),
        sum(1 for t in state.tiles.values() if t.visited),
    )


def goal_distances(state: CatacombsState, hero: Hero) -> dict[Pos, int]:
    """Walking distance from every cell to the hero's current goal (multi-source BFS)."""
    return state.memo(("goals", hero.seat), lambda: _goal_distances(state, hero)[0])


CAREFUL, BOLD, ANYTHING = 0, 1, 2
"""How far the bot looks for a way on: the goals by safe ways only (around tiles that may
hold a deadly trap, doors it knows hide one, locked doors it cannot force), then by any way,
then with every other kind of progress as a goal too (descents, levers, junk for a bridge).
The first level that reaches the hero is the one it plays; it passes only when none does."""


def _goals(state: CatacombsState, hero: Hero, level: int) -> list[Pos]:
    goals = _main_goals(state, hero)
    if level < ANYTHING:
        return goals
    return goals + _fallback_goals(state, hero) or [tuple(state.hatch)]


def _main_goals(state: CatacombsState, hero: Hero) -> list[Pos]:
    if hero.artifact:
        return [tuple(state.hatch)]
    goals: list[Pos] = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            if f["type"] == "artifact" and f.get("cell"):
                return [(tx, ty, f["cell"][0], f["cell"][1])]
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            if _worth_visiting(state, hero, f):
                goals.append((tx, ty, *tile.center()))
    if tiles_left(state, hero):
        goals += list(frontier(state))
    return goals


def _fallback_goals(state: CatacombsState, hero: Hero) -> list[Pos]:
    """Progress of every other kind: a descent that leads somewhere, a lever, and (with no
    junk in hand and a crevice in the way) a tile to rummage through."""
    out: list[Pos] = []
    wants_junk = hero.junk == 0 and _unsure_crevices(state, hero)
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            cell = f.get("cell")
            if f["type"] in ("cliff", "floor-hatch") and cell:
                if tiles_left(state, hero) or landing(state, (tx, ty), f) is not None:
                    out.append((tx, ty, cell[0], cell[1]))
            elif f["type"] == "lever" and f.get("card"):
                out.append((tx, ty, *tile.center()))
        if wants_junk and tile.visited and _rummageable(state, tile):
            out.append((tx, ty, *tile.center()))
        if wants_junk and state.pools.get("token:junk", {}).get("junk"):
            out += _crevice_edges(state, hero, tx, ty, tile)
    return out


def _crevice_edges(state: CatacombsState, hero: Hero, tx: int, ty: int, tile) -> list[Pos]:
    """Cells beside the tile's horizontal crevices the hero cannot surely cross: where a whole
    turn breaks junk off the edge for a bridge (table.cut-off)."""
    jump = state.data.check("crevice-horizontal", "jump")
    reach = jump_length(state, hero, jump) if jump is not None else 0
    out = []
    for f in tile.features:
        if f["type"] != "crevice" or f.get("orientation") != "horizontal":
            continue
        if f.get("depth") == "water" or f.get("bridge", 0) > 1:
            continue
        if jump is not None and reach >= jump_needed(jump, f):
            continue
        cells = {(c, r) for c, r in f.get("cells", [])}
        out += sorted({start for start, _ in _hops(tile, tx, ty, cells)})
    return out


def _rummageable(state: CatacombsState, tile) -> bool:
    return bool(state.pools.get("token:junk", {}).get("junk")) and not any(
        f["type"] in ("cache", "looted", RUMMAGED) for f in tile.features
    )


def _unsure_crevices(state: CatacombsState, hero: Hero) -> bool:
    """Some horizontal crevice on the table the hero cannot surely get over."""
    jump = state.data.check("crevice-horizontal", "jump")
    reach = jump_length(state, hero, jump) if jump is not None else 0
    for _, _, tile in laid(state.tiles):
        for f in tile.features:
            if f["type"] == "crevice" and f.get("orientation") == "horizontal":
                sure = jump is not None and reach >= jump_needed(jump, f)
                if not (sure or f.get("depth") == "water" or f.get("bridge", 0) > 1):
                    return True
    return False


def needs_junk(state: CatacombsState, hero: Hero) -> bool:
    """A junk token would help: none held and a crevice the hero cannot surely cross."""
    return hero.junk == 0 and _unsure_crevices(state, hero)


def _links(state: CatacombsState) -> list[tuple[Pos, Pos]]:
    """Known one-way passages between labyrinths: (from, to) for climbs and known descents."""
    out = []
    for tx, ty, tile in laid(state.tiles):
        for f in tile.features:
            mark, cell = f.get("mark"), f.get("cell")
            if not cell:
                continue
            here = (tx, ty, cell[0], cell[1])
            if f["type"] == CLIFF_FOOT:
                out.append((here, parse_pos(f["to"])))
            elif f["type"] == "cliff" and landing(state, (tx, ty), f) is not None:
                out.append((here, landing(state, (tx, ty), f)))
            if not mark:
                continue
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
        mine = f.get("sealed_by") == hero.seat
        return f.get("state", "closed") in ("closed", "sealed") and hero.hp > 3 and not mine
    if kind == "stash":
        card = state.data.cards.get(f.get("card", ""))
        return bool(f.get("revealed")) and card is not None and may_take(state, hero, card)
    if kind == "statue":
        if f.get("moved"):
            return False
        keeper = state.data.characters[hero.character].relic_keeper
        study = state.data.check("statue", "study")
        return not keeper or (f["uid"] not in hero.studied and may_try(state, hero, study))
    return False


def _stuck_cells(
    state: CatacombsState, hero: Hero, level: int
) -> tuple[set[Pos], list[tuple[Pos, Pos]]]:
    """Cells this hero does not plan to walk onto (crevices, jump-only traps; when careful
    also locked doors it cannot force, doors it knows hide a trap or a monster, and tiles whose
    face-down trap card could kill it) and the jumps or swims over them it can surely make:
    (from, to) pairs. Bold, with junk in hand, it plans to bridge any crevice."""
    force = may_try(state, hero, state.data.check("locked-door", "force"))
    jump = state.data.check("crevice-horizontal", "jump")
    speed = state.stat(hero, "speed")
    reach = jump_length(state, hero, jump) if jump is not None else 0
    careful = level == CAREFUL
    out: set[Pos] = set()
    hops: list[tuple[Pos, Pos]] = []
    for tx, ty, tile in laid(state.tiles):
        if careful and _deadly_unknown(state, hero, (tx, ty)):
            out |= {(tx, ty, c, r) for c, r in tile.floor_cells()}
        for f in tile.features:
            if f["type"] == "door" and not f.get("open") and careful:
                locked = f.get("known_locked") and not force
                if locked or (f.get("uid") in hero.studied and _hides_harm(state, f)):
                    out.add((tx, ty, f["cell"][0], f["cell"][1]))
            if f["type"] == "crevice" and f.get("orientation") == "horizontal":
                cells = {(c, r) for c, r in f.get("cells", [])}
                sure = jump is not None and reach >= jump_needed(jump, f)
                bridge = not careful and hero.junk > 0  # bold: a bridge to build
                out |= {(tx, ty, c, r) for c, r in cells}
                if sure or bridge or f.get("depth") == "water" or f.get("bridge", 0) > 1:
                    hops += _hops(tile, tx, ty, cells)
        for trap_id, c, r in tile.traps:
            trap = state.data.traps.get(trap_id)
            if trap is not None and trap.jumpable:
                out.add((tx, ty, c, r))
                if trap.jump and speed >= min(n for _, n in trap.jump):
                    hops += _hops(tile, tx, ty, {(c, r)})
    return out, hops


def _hops(tile, tx: int, ty: int, cells: set[tuple[int, int]]) -> list[tuple[Pos, Pos]]:
    """Hops over a cell of `cells`, from floor to floor, as `crevices.landings` allows."""
    listed = [list(cell) for cell in cells]
    out = []
    for c, r in cells:
        for dc, dr in STEPS4:
            start = (c + dc, r + dr)
            if start in cells or not tile.floor(*start):
                continue
            for land in landings(tile, listed, *start):
                out.append(((tx, ty, *start), (tx, ty, *land)))
    return sorted(set(out))


def _goal_distances(
    state: CatacombsState,
    hero: Hero,
    margin: int | None = None,
    avoid: frozenset[Pos] = frozenset(),
    spent: frozenset[Pos] = frozenset(),
) -> tuple[dict[Pos, int], int | None, int]:
    """The distances of the first level (CAREFUL, BOLD, ANYTHING) whose goals (but those in
    `spent`) the hero can reach, never through the cells in `avoid`; the last level's when
    none can."""
    for level in (CAREFUL, BOLD, ANYTHING):
        dist, cutoff = _level_distances(state, hero, level, margin, avoid, spent)
        if hero.pos in dist:
            break
    return dist, cutoff, level


def _level_distances(
    state: CatacombsState,
    hero: Hero,
    level: int,
    margin: int | None,
    avoid: frozenset[Pos] = frozenset(),
    spent: frozenset[Pos] = frozenset(),
) -> tuple[dict[Pos, int], int | None]:
    """Doors count as passable here (the bot walks up to them and opens them, or batters a
    locked one). With a margin the search stops once every cell within `margin` of the hero's
    own distance is settled; returns the map and that cutoff."""
    graph = steps_graph(state)
    stuck, hops = _stuck_cells(state, hero, level)
    stuck |= avoid
    back: dict[Pos, list[Pos]] = {}
    for a, b in _links(state) + hops:
        back.setdefault(b, []).append(a)
    dist: dict[Pos, int] = {}
    queue: deque[Pos] = deque()
    for g in _goals(state, hero, level):
        if g not in dist and g not in stuck and g not in spent:
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


def _hides_harm(state: CatacombsState, door: dict) -> bool:
    """The door's token hides a trap or a monster (the hero knows it once studied)."""
    token = state.data.tokens.get(door.get("card") or "")
    return token is not None and token.hidden.get("behind") in ("trap", "monster")


def worst_of(state: CatacombsState, deck_type: str) -> int:
    """The most health a card of that deck (`hidden-trap`, `event`) could take at once; a
    deadly one counts as any."""

    def build() -> int:
        worst = 0
        for card in state.data.cards.values():
            deck = state.data.decks.get(card.deck)
            if deck is None or deck.type != deck_type:
                continue
            trap = state.data.traps.get(card.trap or "")
            if card.outcome.dies or (trap is not None and trap.deadly):
                return 10**6
            loss = max(-card.outcome.health + card.outcome.poison, -(trap.health if trap else 0))
            worst = max(worst, loss)
        return worst

    key = (id(state.data), deck_type)
    found = _WORST.get(key)
    if found is None or found[0] is not state.data:
        found = _WORST[key] = (state.data, build())
    return found[1]


def worst_hidden_trap(state: CatacombsState) -> int:
    return worst_of(state, "hidden-trap")


_WORST: dict[tuple, tuple] = {}


def _deadly_unknown(state: CatacombsState, hero: Hero, slot: tuple[int, int]) -> bool:
    """A tile nobody has stepped on yet whose face-down trap card or sleeping monster could
    kill the hero on the first step."""
    tile = state.board.tile_at(slot)
    if tile is None or tile.visited:
        return False
    if hero.hp <= worst_hidden_trap(state) and any(
        f["type"] == "trap" and f.get("card") for f in tile.features
    ):
        return True
    for piece in state.pieces_on(slot):
        if not piece.awake:
            m = state.data.monsters[piece.monster].stats
            if hero.hp <= max(m.melee, m.ranged, m.poison):
                return True
    return False
