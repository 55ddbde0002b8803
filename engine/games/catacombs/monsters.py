"""Monsters: spawning, waking, moving towards heroes through the obstacle matrix, attacking,
acid gas."""

from __future__ import annotations

from collections import deque

from engine.games.catacombs.board import (
    DELTA,
    OPPOSITE,
    Placed,
    Pos,
    cached,
    cell_traps,
    obstacle_index,
    slot_key,
    squeeze_sides,
    steps_graph,
)
from engine.games.catacombs.checks_util import apply_outcome, passes, poison, result_band
from engine.games.catacombs.data import MatrixCell, Monster
from engine.games.catacombs.registry import rule, task
from engine.games.catacombs.state import CatacombsState, Hero, Piece
from engine.games.catacombs.traps import run_into

SEARCH_LIMIT = 400


@rule(
    "venomous.species",
    "venomous.health",
    "bandit.health",
    "demon.health",
    "scarab.health",
    "scarab.board",
)
def spawn(
    state: CatacombsState, monster_id: str, pos: Pos, awake: bool, meet: bool = False
) -> Piece | None:
    """Put a monster on the table (face down until a hero steps on its tile)."""
    monster = state.data.monsters.get(monster_id)
    if monster is None:
        return None
    species = ""
    if monster.species:
        taken = sum(1 for p in state.pieces if p.monster == monster_id)
        species = monster.species[taken % len(monster.species)][0]
    piece = Piece(
        uid=state.uid(),
        monster=monster_id,
        pos=tuple(pos),
        hp=monster.health_for(state.players),
        species=species,
        shield=monster.shield,
        awake=awake or state.tile_of(pos).visited,
    )
    state.pieces.append(piece)
    state.log(f"a {species or monster_id} appears at {pos}")
    if not awake and state.monster_players and respawns(monster):
        mark_lair(state, piece)
    if "doom-knowledge" in monster.special and sum(
        state.pools.get("secret-knowledge", {}).values()
    ):
        state.push("draw", "doom-knowledge", pool="secret-knowledge", pos=list(pos))
    if meet or piece.awake:
        for h in state.heroes_on((pos[0], pos[1])):
            state.meet(h, piece)
    return piece


def matrix_cell(state: CatacombsState, piece: Piece, obstacle: str) -> MatrixCell | None:
    cell = state.data.matrix.get((piece.species, obstacle)) if piece.species else None
    if cell is None:
        cell = state.data.matrix.get((piece.monster, obstacle))
    if cell is None:
        return None
    if piece.controlled and cell.controlled is not None:
        return cell.controlled
    if piece.shield and cell.shielded is not None:
        return cell.shielded
    return cell


def _obstacles(state: CatacombsState, pos: Pos, came: Pos, side: str | None) -> list[tuple]:
    """The obstacles met on entering `pos` from `came`: (name, width, feature)."""
    out = []
    doors, crevices = obstacle_index(state)
    door = doors.get(pos)
    if door is not None and not door.get("open"):
        token = state.data.tokens.get(door.get("card") or "")
        locked = bool(token and token.hidden.get("locked"))
        out.append(("locked-door" if locked else "door", 0, door))
    crevice = crevices.get(pos)
    if crevice is not None and not crevice.get("bridged"):
        name = "water" if crevice.get("depth") == "water" else "crevice-horizontal"
        if crevice.get("bridge", 0) > 0:
            name = "bridge"
        out.append((name, int(crevice.get("width") or 1), crevice))
    if side is not None:
        squeezes = squeeze_sides(state)
        if (came[0], came[1], side) in squeezes or (
            pos[0],
            pos[1],
            OPPOSITE[side],
        ) in squeezes:
            out.append(("crevice-vertical", 0, None))
    trap = cell_traps(state).get(pos)
    if trap is not None:
        out.append((trap, 0, None))
    return out


def _effect(state: CatacombsState, piece: Piece, name: str, width: int) -> str:
    cell = matrix_cell(state, piece, name)
    if cell is None:
        return "pass"
    if cell.max_width is not None and width > cell.max_width:
        return "blocked"
    return cell.effect


@rule(
    "monsters.matrix",
    "traps.web-monsters",
    "traps.spikes-monsters",
    "traps.cutter-monsters",
    "traps.darts-monsters",
    "traps.plant-monsters",
    "crevices.zombies",
    "crevices.bandits",
    "crevices.demon",
    "crevices.others",
    "crevices.vertical-monsters",
    "doors.zombie-door",
    "doors.locked-monsters",
    "doors.others",
)
def passable(state: CatacombsState, piece: Piece, pos: Pos, came: Pos, side: str | None) -> bool:
    doors, crevices = obstacle_index(state)
    if (
        pos not in doors
        and pos not in crevices
        and pos not in cell_traps(state)
        and (side is None or not squeeze_sides(state))
    ):
        return True
    return all(
        _effect(state, piece, name, width) != "blocked"
        for name, width, _ in _obstacles(state, pos, came, side)
    )


def targets(state: CatacombsState, piece: Piece) -> list[Hero]:
    monster = state.data.monsters[piece.monster]
    return [  # hidden heroes are never targets (shelters.uncontrolled, shelters.controlled)
        h
        for h in state.heroes
        if h.active
        and not h.hidden
        and h.character not in monster.never_attacks
        and not immune(state, h, piece.monster)
    ]


@rule("venomous.ecologist", "ghost.cultist")
def immune(state: CatacombsState, hero: Hero, monster_id: str) -> bool:
    """A character whose board makes them immune to a monster is never its target."""
    ability = state.data.characters[hero.character].ability("immune-to-monster")
    return ability is not None and monster_id in ability.monsters


def _path(state: CatacombsState, piece: Piece, goals: set[Pos]) -> list[Pos] | None:
    """Shortest path (cells after the start) to a cell next to or on a goal, within the limit."""
    through_walls = "through-walls" in state.data.monsters[piece.monster].special
    graph = crawl_graph(state) if through_walls else steps_graph(state)
    start = piece.pos
    near = _near_cells(state, goals)
    if start in near:
        return []
    doors, crevices = obstacle_index(state)
    hard = doors.keys() | crevices.keys() | cell_traps(state).keys()
    squeezes = bool(squeeze_sides(state))
    parent: dict[Pos, Pos | None] = {start: None}
    queue = deque([start])
    while queue and len(parent) < SEARCH_LIMIT:
        pos = queue.popleft()
        for nxt, side in graph.get(pos, ()):
            if nxt in parent:
                continue
            if (nxt in hard or (squeezes and side is not None)) and not passable(
                state, piece, nxt, pos, side
            ):
                continue
            parent[nxt] = pos
            if nxt in near:
                path = [nxt]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(nxt)
    return None


class CrawlGraph(dict):
    """The crawl graph, filled one tile at a time as paths reach it."""

    def __init__(self, state: CatacombsState):
        super().__init__()
        self.state = state

    def get(self, pos, default=None):  # type: ignore[override]
        if pos not in self:
            if slot_key((pos[0], pos[1])) not in self.state.tiles:
                return default
            self.update(crawl_cells(self.state, (pos[0], pos[1])))
        return dict.get(self, pos, default)

    def forget(self, slots) -> None:
        """Drop the entries of these tiles (they changed)."""
        for pos in [p for p in self if (p[0], p[1]) in slots]:
            del self[pos]

    def materialize(self) -> dict:
        for key in self.state.tiles:
            tx, ty = (int(v) for v in key.split(","))
            self.get((tx, ty, 0, 0))
        return dict(self)


@rule("venomous.walls")
def crawl_graph(state: CatacombsState) -> CrawlGraph:
    """Creatures that crawl through walls step into any cell of a laid tile (a wall costs a
    cell like any other) and across any edge two laid tiles share."""
    return cached(state, "crawl", lambda: CrawlGraph(state))


def crawl_cells(state: CatacombsState, slot: tuple[int, int]) -> dict:
    """The crawl graph's entries for every cell of one tile."""
    board = state.board
    tile = board.tile_at(slot)
    tx, ty = slot
    graph: dict[Pos, list[tuple[Pos, str | None]]] = {}
    for r in range(tile.rows):
        for c in range(tile.cols):
            out: list[tuple[Pos, str | None]] = []
            for dc, dr, side in (
                (0, -1, "north"),
                (1, 0, "east"),
                (0, 1, "south"),
                (-1, 0, "west"),
            ):
                nc, nr = c + dc, r + dr
                if 0 <= nc < tile.cols and 0 <= nr < tile.rows:
                    out.append(((tx, ty, nc, nr), None))
                    continue
                nslot = (tx + dc, ty + dr)
                there = board.tile_at(nslot)
                if there is None:
                    continue
                index = c if side in ("north", "south") else r
                limit = there.cols if side in ("north", "south") else there.rows
                facing = OPPOSITE[side]
                out.append(((*nslot, *there.edge_cell(facing, min(index, limit - 1))), side))
            graph[(tx, ty, c, r)] = out
    return graph


def _near_cells(state: CatacombsState, goals: set[Pos]) -> set[Pos]:
    """The goals and every cell with a step onto one (where `_near` holds): the goals' own
    neighbours and, across tile edges, every exit cell facing them."""
    graph = steps_graph(state)
    board = state.board
    near = set(goals)
    for goal in goals:
        candidates = [cand for cand, _ in graph.get(goal, ())]
        tile = state.tiles.get(slot_key((goal[0], goal[1])))
        for side in OPPOSITE:
            if tile is None or not tile.on_edge(goal[2], goal[3], side):
                continue
            slot = (goal[0] + DELTA[side][0], goal[1] + DELTA[side][1])
            there = board.tile_at(slot)
            if there is not None:
                facing = OPPOSITE[side]
                candidates += [(*slot, *there.edge_cell(facing, i)) for i in there.exits[facing]]
        for cand in candidates:
            if any(nxt in goals for nxt, _ in graph.get(cand, ())):
                near.add(cand)
    return near


def _near(state: CatacombsState, pos: Pos, goals: set[Pos]) -> bool:
    if pos in goals:
        return True
    return any(nxt in goals for nxt, _ in steps_graph(state).get(pos, ()))


@task("monster-phase")
@rule("engine.monster-phase")
def monster_phase(state: CatacombsState, t: dict, _: object) -> None:
    """After every round each awake monster moves and attacks, then acid burns."""
    take_control(state)
    respawn(state)
    last_survivor(state)
    for piece in sorted(state.pieces, key=lambda p: p.uid):
        if piece.alive and piece.awake:
            state.push("do", "monster-act", front=False, uid=piece.uid)
    state.push("do", "acid", front=False)


def _piece(state: CatacombsState, uid: int) -> Piece | None:
    for p in state.pieces:
        if p.uid == uid and p.alive:
            return p
    return None


@task("monster-act")
@rule(
    "engine.monster-move",
    "shelters.uncontrolled",
    "venomous.speed",
    "bandit.speed",
    "ghost.speed",
    "demon.speed",
    "scarab.speed",
)
def monster_act(state: CatacombsState, t: dict, _: object) -> None:
    """The monster walks its speed towards the nearest hero it can reach, then attacks."""
    piece = _piece(state, t["uid"])
    if piece is None:
        return
    if piece.held > 0:
        piece.held -= 1
        return
    monster = state.data.monsters[piece.monster]
    if underground(state, piece, monster):
        return
    heroes = targets(state, piece)
    if not heroes:
        return
    if piece.controlled and (
        surprise(state, piece, monster, heroes) or fight_like_heroes(state, piece, monster, heroes)
    ):
        return
    goals = {h.pos for h in heroes}
    path = _path(state, piece, goals)
    if path is None:
        burrow(state, piece, monster, "burrow-wall")
        return
    came = piece.pos
    for step in path[: monster.stats_for(piece.controlled).speed]:
        side = _side_between(state, came, step)
        if not _enter(state, piece, step, came, side):
            break
        came = step
    if piece.alive:
        loot(state, piece, monster)
        attack(state, piece, monster)


def _side_between(state: CatacombsState, a: Pos, b: Pos) -> str | None:
    for nxt, side in steps_graph(state).get(a, ()):
        if nxt == b:
            return side
    return None


@rule("crevices.bridges-monsters", "venomous.water-bridges")
def _enter(state: CatacombsState, piece: Piece, pos: Pos, came: Pos, side: str | None) -> bool:
    """Step onto `pos`, suffering its obstacles; False when the monster must stop."""
    piece.pos = pos
    for name, width, feature in _obstacles(state, pos, came, side):
        effect = _effect(state, piece, name, width)
        cell = matrix_cell(state, piece, name)
        if effect == "dies":
            kill_piece(state, piece, None, f"the {name}")
            return False
        if effect == "loses-health" and cell is not None and piece.hp is not None:
            piece.hp -= cell.health
            if piece.hp <= 0:
                kill_piece(state, piece, None, f"the {name}")
                return False
        if effect == "held":
            piece.held = cell.turns if cell is not None and cell.turns else 1
            return False
        wears = "water-and-bridges" not in state.data.monsters[piece.monster].special
        if name == "bridge" and effect == "pass" and feature is not None and wears:
            feature["bridge"] -= 1
            state.layout_cache.pop("walk", None)
        if effect == "breaks" and feature is not None:
            feature["open"] = True
            state.touch_layout("passage")
    return True


@rule(
    "zombie.attack",
    "bandit.attack",
    "venomous.attack",
    "demon.ranged",
    "scarab.melee",
    "ghost.attack",
    "engine.monster-attack",
    "venomous.damage",
    "bandit.damage",
    "demon.damage",
    "scarab.damage",
    "vampire.named",
)
def attack(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """Melee next to a hero; ranged at a hero on the same tile; ghosts seize minds."""
    stats = monster.stats_for(piece.controlled)
    heroes = targets(state, piece)
    near = [h for h in heroes if _near(state, piece.pos, {h.pos})]
    same_tile = [h for h in heroes if h.pos[:2] == piece.pos[:2]]
    resist = resist_check(state, monster)
    if resist is not None:
        pool = near or same_tile or [h for h in heroes if _adjacent_tile(h.pos, piece.pos)]
        if pool:
            state.push(
                "roll",
                "ghost-resist",
                dice=str(resist.dice or "d6"),
                seat=pool[0].seat,
                uid=piece.uid,
                check=resist.id,
            )
        return
    if near:
        victim = near[0]
        damage = stats.melee
    elif same_tile and "ranged" in monster.attack and stats.ranged:
        victim = same_tile[0]
        damage = stats.ranged
    else:
        return
    state.meet(victim, piece)
    state.log(f"the {piece.species or piece.monster} attacks {victim.character}")
    for _ in range(stats.poison):
        poison(state, victim, piece.species or piece.monster)
    state.hurt(victim, damage, f"killed by {piece.monster}")
    if monster.removed_after_attack:
        piece.alive = False
        state.log(f"the {piece.species or piece.monster} leaves after its bite")


def resist_check(state: CatacombsState, monster: Monster):
    """The check a hero makes against a mind attack (the ghost's), if the monster has one."""
    for check_id in monster.checks:
        check = state.data.checks.get(check_id)
        if check is not None and check.action == "resist":
            return check
    return None


def _adjacent_tile(a: Pos, b: Pos) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@task("ghost-resist")
@rule("ghost.resist", "ghost.luck")
def ghost_resist(state: CatacombsState, t: dict, value: int) -> None:
    """The hero rolls (luck 3+ adds 1): resists, is held a turn, or is seized."""
    hero = state.heroes[t["seat"]]
    check = state.data.checks[t["check"]]
    add = sum(m.add for m in check.active_modifiers(state.stats(hero), tuple(hero.items)))
    band = result_band(check, min(value + add, 6))
    if band is None or not hero.active:
        return
    state.log(f"{hero.character} faces a ghost: {band.result} ({value}+{add})")
    ghost = _piece(state, t["uid"])
    if ghost is not None:
        state.meet(hero, ghost)
    apply_outcome(state, hero, band.outcome, "a ghost")
    if band.result == "seized":
        seized(state, hero, t["uid"])


@rule("ghost.seize", "ghost.seized-trap", "ghost.possessed", "engine.seized")
def seized(state: CatacombsState, hero: Hero, uid: int) -> None:
    """A seized hero walks into the nearest open trap within their speed and suffers it as one
    who runs into it (a hero it kills is possessed: dead, and the ghost leaves); with no trap in
    reach the hero steps towards the ghost."""
    ghost = _piece(state, uid)
    trap_cell = _nearest_trap(state, hero)
    if trap_cell is not None:
        hero.pos = trap_cell
        state.log(f"the ghost drives {hero.character} into a trap")
        run_into(state, hero, "seized by a ghost")
        if not hero.alive:
            hero.cause = "possessed by a ghost"
            if ghost is not None:
                ghost.alive = False
                state.log("the ghost takes the body and leaves the map")
        return
    if ghost is not None:
        step = _step_towards(state, hero.pos, ghost.pos)
        if step is not None:
            hero.pos = step
            state.log(f"the ghost draws {hero.character} closer")


def _nearest_trap(state: CatacombsState, hero: Hero) -> Pos | None:
    """The closest open-trap cell within the hero's speed (walking, traps count as floor)."""
    traps = cell_traps(state)
    if not traps:
        return None
    graph = steps_graph(state)
    limit = max(1, state.stat(hero, "speed"))
    seen = {hero.pos: 0}
    queue = deque([hero.pos])
    while queue:
        pos = queue.popleft()
        if pos in traps and pos != hero.pos:
            return pos
        if seen[pos] >= limit:
            continue
        for nxt, _ in graph.get(pos, ()):
            if nxt not in seen:
                seen[nxt] = seen[pos] + 1
                queue.append(nxt)
    return None


def _step_towards(state: CatacombsState, start: Pos, goal: Pos) -> Pos | None:
    graph = steps_graph(state)
    parent: dict[Pos, Pos | None] = {goal: None}
    queue = deque([goal])
    while queue and len(parent) < SEARCH_LIMIT:
        pos = queue.popleft()
        for nxt, _ in graph.get(pos, ()):
            if nxt not in parent:
                parent[nxt] = pos
                if nxt == start:
                    step = pos
                    return step if step != goal else None
                queue.append(nxt)
    return None


@rule("scarab.wall", "scarab.retreat", "scarab.regen")
def underground(state: CatacombsState, piece: Piece, monster: Monster) -> bool:
    """A burrowing monster (the scarab): hurt by the heroes it digs in; underground it heals
    and after its turns comes up in the centre of the tile one step nearer the heroes. True
    while it spends the monster phase below."""
    if piece.under > 0:
        heal = monster.special_values.get("regenerate", {}).get("health", 0)
        full = monster.health_for(state.players) or 0
        if heal and piece.hp is not None:
            piece.hp = min(full, piece.hp + heal)
        piece.under -= 1
        if piece.under == 0:
            _emerge(state, piece, monster)
        return True
    return bool(piece.hurt and burrow(state, piece, monster, "burrow-retreat"))


def burrow(state: CatacombsState, piece: Piece, monster: Monster, why: str) -> bool:
    spec = monster.special_values.get(why)
    piece.hurt = False
    if spec is None:
        return False
    piece.under = max(1, spec.get("turns", 1))
    state.log(f"the {piece.monster} burrows into the ground")
    return True


def _emerge(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    heroes = targets(state, piece)
    if heroes:
        here = (piece.pos[0], piece.pos[1])
        goal = min(heroes, key=lambda h: abs(h.pos[0] - here[0]) + abs(h.pos[1] - here[1]))
        options = [here, *state.board.adjacent_slots(here)]
        best = min(options, key=lambda s: (abs(goal.pos[0] - s[0]) + abs(goal.pos[1] - s[1]), s))
        c, r = state.tiles[slot_key(best)].center()
        piece.pos = (best[0], best[1], c, r)
    state.log(f"the {piece.monster} comes up at {piece.pos}")


@rule("ghost.cultist-last")
def last_survivor(state: CatacombsState) -> None:
    """When every hero left is one a monster never attacks and nobody is possessed, monsters
    with that rule (the ghosts) leave the map."""
    living = [h for h in state.heroes if h.active]
    possessed = any(h.cause.startswith("possessed") for h in state.heroes)
    if not living or possessed:
        return
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        if not piece.alive or "cultist-last" not in monster.special:
            continue
        if all(
            h.character in monster.never_attacks or immune(state, h, piece.monster) for h in living
        ):
            piece.alive = False
            state.log(f"the {piece.monster} fades: only those it spares are left")


@task("doom-knowledge")
@rule("demon.doom", "engine.doom-knowledge")
def doom_knowledge(state: CatacombsState, t: dict, card: str) -> None:
    """The secret knowledge that can destroy the demon is drawn and left where it appeared;
    the first hero to end a move there takes it."""
    tx, ty, c, r = t["pos"]
    state.tiles[slot_key((tx, ty))].features.append(
        {"uid": f"f{state.uid()}", "type": "knowledge", "card": card, "cell": [c, r]}
    )
    state.log(f"the secret knowledge {card} lies where the demon appeared")


@task("acid")
@rule("scarab.acid")
def acid(state: CatacombsState, t: dict, _: object) -> None:
    """Acid gas: every hero on a tile with an acid monster loses its acid damage each round."""
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        burn = monster.stats_for(piece.controlled).acid
        if piece.on_map and burn:
            for hero in state.heroes_on(piece.pos[:2]):
                state.hurt(hero, burn, f"acid of the {piece.monster}")


@rule("bandit.loot")
def loot(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """Bandits pick up the belongings of dead heroes on their tile."""
    if "loot-the-dead" not in monster.special:
        return
    tile = state.tile_of(piece.pos)
    for f in list(tile.features):
        if f["type"] == "belongings":
            tile.features.remove(f)
            piece.loot["treasures"] = piece.loot.get("treasures", 0) + f["treasures"]
            piece.loot["items"] = piece.loot.get("items", []) + f["items"]
            state.log(f"the {piece.monster} loots a dead hero's belongings")


def kill_piece(state: CatacombsState, piece: Piece, hero: Hero | None, how: str) -> None:
    piece.alive = False
    state.log(f"the {piece.species or piece.monster} dies ({how})")
    if hero is None:
        return
    state.meet(hero, piece)
    hero.kills.append(piece.monster)
    if piece.loot:
        hero.treasures += piece.loot.get("treasures", 0)
        hero.gathered += piece.loot.get("treasures", 0)
        hero.items.extend(piece.loot.get("items", []))
        piece.loot = {}
        state.log(f"{hero.character} takes back what the {piece.monster} looted")
    monster = state.data.monsters[piece.monster]
    rewards = (
        monster.controlled_rewards
        if piece.controlled and monster.controlled_rewards
        else monster.rewards
    )
    if len(rewards) == 1:
        state.gain(hero, rewards[0], f"killing a {piece.monster}")
    elif rewards:
        state.push(
            "decide", "reward", seat=hero.seat, monster=piece.monster, controlled=piece.controlled
        )
    if piece.controlled and monster.revive:
        state.push("roll", "revive", dice="d6", uid=piece.uid)


def controllers(state: CatacombsState) -> list[Hero]:
    """Players whose heroes are dead control the monsters."""
    return [h for h in state.heroes if not h.alive and h.character]


@rule("zombie.speed", "zombie.health", "zombie.damage", "engine.controllers")
def take_control(state: CatacombsState) -> None:
    """Engine assumption: once a player's hero is dead, that player controls every awake
    monster: it takes its controlled stats (the health it gains included) and obstacle rules."""
    if not state.monster_players or not controllers(state):
        return
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        if not piece.on_map or piece.controlled or monster.controlled is None:
            continue
        control(state, piece, monster)


def control(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """A player takes the monster: its controlled stats, the health it gains included."""
    piece.controlled = True
    gain = (monster.controlled.health or 0) - (monster.stats.health or 0)
    if piece.hp is not None and gain > 0:
        piece.hp += gain
    state.log(f"the {piece.species or piece.monster} is now controlled by a player")


@task("revive")
@rule("zombie.revive")
def revive(state: CatacombsState, t: dict, value: int) -> None:
    """A killed controlled monster with revive faces rises again on them."""
    piece = next((p for p in state.pieces if p.uid == t["uid"]), None)
    if piece is None or piece.alive:
        return
    monster = state.data.monsters[piece.monster]
    if value in monster.revive:
        piece.alive = True
        piece.hp = monster.stats_for(True).health or monster.health_for(state.players)
        state.log(f"the {piece.monster} rises again ({value})")


# ----- controlled monsters: lairs, respawns, surprise, fighting like characters -------------
LAIR = "lair"


def lair_limit(monster: Monster) -> int:
    """`respawn.per_lair`: the most that appear at once from one lair (0: none)."""
    return monster.per_lair


def from_open_areas(monster: Monster) -> bool:
    """`respawn.from_open_areas`: it may also respawn on explored parts of the labyrinth."""
    return monster.from_open_areas


def respawns(monster: Monster) -> bool:
    return lair_limit(monster) > 0 and monster.controlled is not None


def mark_lair(state: CatacombsState, piece: Piece) -> None:
    """The cell where a monster card was laid face down is a lair of that kind."""
    state.tile_of(piece.pos).features.append(
        {
            "uid": f"lair{piece.uid}",
            "type": LAIR,
            "monster": piece.monster,
            "cell": [piece.pos[2], piece.pos[3]],
            "waiting": 0,
        }
    )


def lairs_of(state: CatacombsState, monster_id: str) -> list[tuple[tuple[int, int], dict]]:
    """Every lair of this kind: (tile slot, lair feature), in slot order."""
    out = []
    for key in sorted(state.tiles):
        tile = state.tiles[key]
        for f in tile.features:
            if f["type"] == LAIR and f["monster"] == monster_id:
                out.append(((tile.slot[0], tile.slot[1]), f))
    return out


def respawns_due(state: CatacombsState, monster: Monster) -> int:
    """Killed or removed monsters of this kind that may come back: the count for this many
    players less those on the table, those waiting in lairs and those still in the deck."""
    alive = sum(1 for p in state.pieces if p.alive and p.monster == monster.id)
    waiting = sum(f["waiting"] for _, f in lairs_of(state, monster.id))
    in_deck = state.pools.get("monster", {}).get(monster.id, 0)
    return min(monster.count_for(state.players), monster.kit) - alive - waiting - in_deck


@rule(
    "zombie.respawn",
    "venomous.respawn",
    "bandit.respawn",
    "ghost.respawn",
    "engine.respawn",
)
def respawn(state: CatacombsState) -> None:
    """In the monster phase the controlling player brings killed monsters back: up to the
    kind's lair limit from each of its lairs (in slot order) while the count for this many
    players allows; bandits left over appear on an explored tile near the heroes."""
    if not state.monster_players or not controllers(state):
        return
    for monster_id in sorted(state.data.monsters):
        monster = state.data.monsters[monster_id]
        if not respawns(monster):
            continue
        due = respawns_due(state, monster)
        for slot, lair in lairs_of(state, monster_id):
            if due <= 0:
                break
            n = min(lair_limit(monster), due)
            due -= n
            fill_lair(state, monster, slot, lair, n)
        if due > 0 and from_open_areas(monster):
            open_area_respawn(state, monster, min(lair_limit(monster), due))


def fill_lair(
    state: CatacombsState, monster: Monster, slot: tuple[int, int], lair: dict, n: int
) -> None:
    """On an explored tile they appear at once; otherwise they wait in the lair until a hero
    first steps on the tile."""
    if state.tiles[slot_key(slot)].visited:
        bring(state, monster, (*slot, *lair["cell"]), n)
    else:
        lair["waiting"] += n
        state.log(f"{n} {monster.id} wait in the lair on {slot_key(slot)}")


def bring(state: CatacombsState, monster: Monster, pos: Pos, n: int) -> None:
    """`n` monsters of the kind appear awake at `pos`, under their player's control."""
    for _ in range(n):
        piece = spawn(state, monster.id, pos, awake=True)
        if piece is not None:
            control(state, piece, monster)


def open_area_respawn(state: CatacombsState, monster: Monster, n: int) -> None:
    """Engine assumption: the explored tile nearest a hero with no hero on it, at its centre."""
    heroes = [h.pos[:2] for h in state.heroes if h.active]
    if not heroes or n <= 0:
        return
    best = None
    for key in sorted(state.tiles):
        tile = state.tiles[key]
        slot = (tile.slot[0], tile.slot[1])
        if not tile.visited or slot in heroes:
            continue
        far = min(abs(slot[0] - h[0]) + abs(slot[1] - h[1]) for h in heroes)
        if best is None or far < best[0]:
            best = (far, slot, tile.center())
    if best is not None:
        bring(state, monster, (*best[1], *best[2]), n)


@rule("move.activate-lair", "engine.lairs")
def spring_lairs(state: CatacombsState, hero: Hero, tile: Placed) -> None:
    """The first step on a tile springs its lairs: the monsters their player respawned there
    while the tile was unexplored appear (a sarcophagus lair springs when it is checked)."""
    if not state.monster_players:
        return
    slot = (tile.slot[0], tile.slot[1])
    for f in tile.features:
        if f["type"] == LAIR and f.get("waiting"):
            n, f["waiting"] = f["waiting"], 0
            state.log(f"the lair on {slot_key(slot)} springs")
            bring(state, state.data.monsters[f["monster"]], (*slot, *f["cell"]), n)


@rule("venomous.surprise", "engine.venomous-surprise")
def surprise(state: CatacombsState, piece: Piece, monster: Monster, heroes: list[Hero]) -> bool:
    """A controlled venomous creature with no hero next to it drops from the ceiling onto a
    hero on an adjacent tile of its own labyrinth (its player picks the weakest); the hero
    rolls to shake it off. True when it did."""
    if "surprise" not in monster.special:
        return False
    check = state.data.check(piece.monster, "shake-off")
    if check is None or any(_near(state, piece.pos, {h.pos}) for h in heroes):
        return False
    labyrinth = state.tile_of(piece.pos).labyrinth
    prey = [
        h
        for h in heroes
        if _adjacent_tile(h.pos, piece.pos) and state.tile_of(h.pos).labyrinth == labyrinth
    ]
    if not prey:
        return False
    victim = min(prey, key=lambda h: (h.hp, h.seat))
    piece.pos = victim.pos
    state.meet(victim, piece)
    state.log(f"a {piece.species or piece.monster} drops from the ceiling on {victim.character}")
    state.push(
        "roll",
        "shake-off",
        dice=str(check.dice or "d6"),
        seat=victim.seat,
        uid=piece.uid,
        check=check.id,
    )
    return True


@task("shake-off")
def shake_off(state: CatacombsState, t: dict, value: int) -> None:
    """The hero shakes the creature off on the check's faces (it lands at their feet); else
    it bites as the check says and, like any bite of its kind, leaves."""
    hero = state.heroes[t["seat"]]
    piece = _piece(state, t["uid"])
    check = state.data.checks[t["check"]]
    if piece is None or not hero.active:
        return
    name = piece.species or piece.monster
    if passes(state, hero, check, value):
        state.log(f"{hero.character} shakes off the {name} ({value})")
        return
    apply_outcome(state, hero, check.on_failure, f"a {name} from the ceiling")
    if state.data.monsters[piece.monster].removed_after_attack:
        piece.alive = False
        state.log(f"the {name} leaves after its bite")


@rule("bandit.fight", "engine.bandit-fight")
def fight_like_heroes(
    state: CatacombsState, piece: Piece, monster: Monster, heroes: list[Hero]
) -> bool:
    """A controlled bandit fights by the characters' reach: a blow next to a hero, a shot at a
    hero on its own tile; with someone in reach it fights from where it stands (keeping its
    distance) instead of walking up. True when it fought."""
    if "fight-like-heroes" not in monster.special:
        return False
    ranged = "ranged" in monster.attack and monster.stats_for(True).ranged > 0
    here = piece.pos[:2]
    if not any(_near(state, piece.pos, {h.pos}) or (ranged and h.pos[:2] == here) for h in heroes):
        return False
    loot(state, piece, monster)
    attack(state, piece, monster)
    return True
