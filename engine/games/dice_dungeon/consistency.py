"""What `relic check` asks of the dice dungeon's content, each finding at an entity and path:

- the exploration table covers every number a die can show, and every number left after the
  rerolls has a shape;
- every adventure's map holds its six rooms once each, every door sits in its room and opens
  onto floor, and a run of legal placements reaches every doorstep from the start;
- every monster can be beaten (its starting health and the top of its track are within reach
  of the best attack the adventure allows); every boss key can be found in every setup;
- chests and traps agree, the bonus threshold is reachable by each adventure's scoring;
- there are classes and sheet rows for every supported party; a seeded smoke game per player
  count ends within the turn bound.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.core.api import EngineError
from engine.core.game import Finding
from engine.games.dice_dungeon.data import Adventure, Cell, Dungeon, cell_name
from engine.games.dice_dungeon.grid import NEIGHBOURS, contact_area, legal_placements
from engine.games.dice_dungeon.registry import rule
from engine.games.dice_dungeon.setup import room_order

if TYPE_CHECKING:
    from engine.games.dice_dungeon.game import DiceDungeonGame

SEARCH_LIMIT = 4000
"""States the doorstep search may visit before it gives up."""


def run_all(game: DiceDungeonGame) -> list[Finding]:
    data = game.data
    out = list(table_coverage(data))
    for adventure in data.adventures:
        out += list(map_findings(data, adventure))
        out += list(monster_findings(data, adventure))
        out += list(key_findings(data, adventure))
        out += list(chest_findings(data, adventure))
        out += list(score_findings(data, adventure))
    out += list(count_findings(game))
    if not out:
        out += list(smoke_games(game))
    return out


@rule("exploration.shape", "exploration.one")
def table_coverage(data: Dungeon) -> Iterator[Finding]:
    sides = data.rules.turn_dice.sides
    for face in range(1, sides + 1):
        if face not in data.shapes and face not in data.rules.reroll_faces:
            yield Finding("table-coverage", f"the exploration number {face} has neither a "
                          "shape nor a reroll", "exploration-table", "rows")
    if not any(f not in data.rules.reroll_faces for f in range(1, sides + 1)):
        yield Finding("table-coverage", "every exploration number is rolled again: the "
                      "reroll never ends", "exploration-table", "rows")


@rule("overview.monster-rooms")
def map_findings(data: Dungeon, adventure: Adventure) -> Iterator[Finding]:
    grid, ident = adventure.grid, adventure.id
    numbers = sorted(room.number for room in grid.rooms)
    if numbers != list(range(1, data.rules.rooms + 1)):
        yield Finding("map-rooms", f"the rooms are {numbers}, not 1 to {data.rules.rooms} once "
                      "each", ident, "rooms")
    if len(grid.start) != 1:
        yield Finding("map-start", f"the map has {len(grid.start)} start squares, not one",
                      ident, "map")
    for room in grid.rooms:
        where = f"rooms.{room.index}"
        if not room.cells:
            yield Finding("map-rooms", f"room {room.number} has no square on the map", ident,
                          where)
            continue
        if room.door not in room.cells:
            yield Finding("map-door", f"the door of room {room.number} at "
                          f"{cell_name(room.door)} is not a square of the room", ident,
                          f"{where}.door")
        elif room.doorstep not in grid.floor:
            onto = cell_name(room.doorstep) if grid.inside(room.doorstep) else "the edge"
            yield Finding("map-door", f"the door of room {room.number} opens onto {onto}, "
                          "which is not floor", ident, f"{where}.side")
        elif not doorstep_reachable(data, adventure, room.doorstep):
            yield Finding("map-unreachable", f"no run of legal placements from the start "
                          f"paints the doorstep {cell_name(room.doorstep)} of room "
                          f"{room.number}", ident, f"{where}.door")


@rule("exploration.start", "exploration.edges")
def doorstep_reachable(data: Dungeon, adventure: Adventure, target: Cell) -> bool:
    """Best-first search over placements of the smallest shape (nearest to the target first):
    True once one paints the target."""
    grid, rules = adventure.grid, data.rules
    shape = data.shapes[min(data.shapes)]
    distance = _distances(adventure, target)
    start: frozenset[Cell] = frozenset()
    todo = [(_gap(grid, start, distance, rules), 0, start)]
    seen = {start}
    counter = itertools.count(1)
    while todo and len(seen) < SEARCH_LIMIT:
        _, _, painted = heapq.heappop(todo)
        for move in legal_placements(grid, painted, shape, rules):
            after = painted | set(move.cells)
            if target in after:
                return True
            if after not in seen:
                seen.add(after)
                heapq.heappush(todo, (_gap(grid, after, distance, rules), next(counter), after))
    return False


def _distances(adventure: Adventure, target: Cell) -> dict[Cell, int]:
    grid = adventure.grid
    found, frontier = {target: 0}, [target]
    while frontier:
        nxt = []
        for x, y in frontier:
            for dx, dy in NEIGHBOURS:
                n = (x + dx, y + dy)
                if n in grid.floor and n not in found:
                    found[n] = found[(x, y)] + 1
                    nxt.append(n)
        frontier = nxt
    return found


def _gap(grid: object, painted: frozenset[Cell], distance: dict[Cell, int], rules: object
         ) -> int:
    area = contact_area(grid, painted, rules)  # type: ignore[arg-type]
    return min((distance.get((x + dx, y + dy), 999) for x, y in area for dx, dy in NEIGHBOURS),
               default=999)


def best_attack(data: Dungeon, adventure: Adventure) -> int:
    """The highest attack result the adventure allows: every die a six, every magic weapon of
    its chests and drops, and the strongest abilities of a full party of different classes."""
    sides = data.rules.fight_die.sides
    weapons = sum(1 for c in adventure.chests for b in c.boxes
                  if b.item and data.items[b.item].type == "magic-weapon")
    weapons += sum(1 for m in adventure.monsters
                   if m.drops and data.items[m.drops].type == "magic-weapon")
    per_class = sorted((sum(a.attack_bonus for a in c.abilities) for c in data.classes),
                       reverse=True)
    party = data.rules.party_size(data.max_players)
    return sides + weapons * data.rules.weapon_bonus + sum(per_class[:party])


@rule("attack.win", "monsters.upgrade")
def monster_findings(data: Dungeon, adventure: Adventure) -> Iterator[Finding]:
    best = best_attack(data, adventure)
    for monster in adventure.monsters:
        if monster.health > best:
            yield Finding("threshold-unreachable", f"the {monster.name} starts with health "
                          f"{monster.health}, above the best attack {best} of "
                          f"{adventure.name}", monster.id, "health")
        elif monster.health_track and monster.health_track[-1] > best:
            yield Finding("threshold-unreachable", f"the {monster.name}'s health can reach "
                          f"{monster.health_track[-1]}, above the best attack {best} of "
                          f"{adventure.name}", monster.id, "health_track")
        for i, ability in enumerate(monster.abilities):
            if ability.effect in ("upgrade", "upgrade-others") and not (
                    ability.track and ability.boxes):
                yield Finding("monster-ability", f"the {monster.name}'s upgrade names no track "
                              "or boxes", monster.id, f"abilities.{i}")
    if sum(m.boss for m in adventure.monsters) > 1:
        yield Finding("boss", "more than one monster is marked as the boss", adventure.id,
                      "monsters")
    if len(adventure.monsters) != data.rules.rooms:
        yield Finding("counts", f"{len(adventure.monsters)} monsters for "
                      f"{data.rules.rooms} rooms", adventure.id, "monsters")


@rule("monsters.boss", "setup.order")
def key_findings(data: Dungeon, adventure: Adventure) -> Iterator[Finding]:
    """Every key of the boss must be findable in every setup: in a chest outside the boss's
    room, or carried by another monster."""
    rooms, boss = data.rules.rooms, adventure.boss
    for k, key in enumerate(adventure.boss_keys):
        if key not in data.items or data.items[key].type != "key":
            yield Finding("boss-key", f"'{key}' is no key item", adventure.id, f"boss_keys.{k}")
            continue
        dropped = any(m.drops == key for i, m in enumerate(adventure.monsters) if i != boss)
        chests = [j for j, c in enumerate(adventure.chests)
                  if any(b.item == key for b in c.boxes)]
        if dropped:
            continue
        for first_monster, first_chest in itertools.permutations(range(1, rooms + 1), 2):
            boss_room = room_order(first_monster, rooms)[boss]
            chest_rooms = room_order(first_chest, rooms)
            if all(chest_rooms[j] == boss_room for j in chests):
                yield Finding("boss-key", f"with monster room {first_monster} and treasure room "
                              f"{first_chest} the {key} lies only in the boss's own room (or "
                              "nowhere)", adventure.id, f"boss_keys.{k}")
                break


@rule("treasure.trap", "treasure.locked")
def chest_findings(data: Dungeon, adventure: Adventure) -> Iterator[Finding]:
    if len(adventure.chests) != data.rules.rooms:
        yield Finding("counts", f"{len(adventure.chests)} chests for {data.rules.rooms} rooms",
                      adventure.id, "chests")
    for j, chest in enumerate(adventure.chests):
        where = f"chests.{j}"
        if chest.trapped and not (chest.trap_damage or chest.trap_gold):
            yield Finding("chest-trap", "a trapped chest without a trap", adventure.id, where)
        if not chest.trapped and (chest.trap_damage or chest.trap_gold):
            yield Finding("chest-trap", "a trap on a chest that is not trapped", adventure.id,
                          f"{where}.trap")
        if len(chest.boxes) > data.rules.chest_boxes:
            yield Finding("chest-boxes", f"{len(chest.boxes)} boxes, the sheet prints "
                          f"{data.rules.chest_boxes}", adventure.id, f"{where}.boxes")
        for b, box in enumerate(chest.boxes):
            if box.item and box.item not in data.items:
                yield Finding("chest-reward", f"no item '{box.item}'", adventure.id,
                              f"{where}.boxes.{b}")


@rule("level-end.score")
def best_score(data: Dungeon, adventure: Adventure) -> int:
    """The most a level could score: every monster, every star, all the gold, every hero."""
    s, r = adventure.scoring, data.rules
    stars = sum(b.points for c in adventure.chests for b in c.boxes)
    gold = r.setup_dice.sides + sum(b.gold for c in adventure.chests for b in c.boxes)
    unique = data.items[adventure.unique_treasure].points if adventure.unique_treasure else 0
    party = r.party_size(data.max_players)
    tombs = len(adventure.grid.tombs)
    quickest = len(adventure.monsters)
    return (s.monster * len(adventure.monsters) + s.boss + s.chest_points * stars
            + s.gold * gold + s.hero_alive * party + s.tomb * tombs
            + s.turns_left * (adventure.max_turns - quickest) + unique)


def score_findings(data: Dungeon, adventure: Adventure) -> Iterator[Finding]:
    best = best_score(data, adventure)
    if best <= data.rules.bonus_above:
        yield Finding("threshold-unreachable", f"{adventure.name} scores at most {best}, never "
                      f"more than the bonus threshold {data.rules.bonus_above}", adventure.id,
                      "scoring")
    if adventure.max_turns < data.rules.default_max_turns:
        yield Finding("turn-limit", f"{adventure.max_turns} turns, fewer than the usual "
                      f"{data.rules.default_max_turns}", adventure.id, "max_turns",
                      severity="warning")


def count_findings(game: DiceDungeonGame) -> Iterator[Finding]:
    data = game.data
    for players in game.player_counts:
        party = data.rules.party_size(players)
        if party > len(data.classes):
            yield Finding("counts", f"{players} players need {party} heroes of different "
                          f"classes; there are {len(data.classes)}", "levels", "classes")


def smoke_games(game: DiceDungeonGame) -> Iterator[Finding]:
    """One seeded heuristic game per player count (each on another adventure) must end within
    the turn bound without an engine error."""
    adventures = [a.id for a in game.data.adventures]
    for players in game.player_counts:
        adventure = adventures[(players - 1) % len(adventures)]
        state = game.new_initial_state(players, 7 + players, {"adventure": adventure})
        bots = [game.make_bot("heuristic", seat, 7 + players) for seat in range(players)]
        steps = 0
        try:
            while not state.is_terminal and steps < 20_000:
                action = state.sample_chance() if state.is_chance_node else \
                    bots[state.current_player].choose(state)
                state.apply(action)
                steps += 1
        except EngineError as exc:
            yield Finding("smoke-game", f"a {players}-player game of {adventure} stopped with an "
                          f"engine error: {exc}", adventure, "")
            continue
        if not state.is_terminal or state.ended_by == "turn-bound":
            yield Finding("smoke-game", f"a {players}-player game of {adventure} did not end "
                          f"within the turn bound ({steps} actions)", adventure, "max_turns")
