"""The dice dungeon's content as frozen typed data, built from the plain model.

This module is the only place that knows the content's field names. Values that checks point
at keep their source (entity id and dotted path) so `relic check` can name the content line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.api import ContentError
from engine.core.dice import Dice
from engine.games.dice_dungeon.registry import rule

Cell = tuple[int, int]
SIDES = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
FLOOR, OBSTACLE, TOMB, START = ".", "#", "T", "S"
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_name(cell: Cell) -> str:
    """A square as printed on the sheet: column letter, row number (A1 is the top left)."""
    x, y = cell
    return f"{COLUMNS[x]}{y + 1}"


@dataclass(frozen=True)
class Shape:
    id: str
    face: int
    """The exploration number that paints it."""
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Room:
    number: int
    cells: frozenset[Cell]
    door: Cell
    side: str
    locked: bool
    index: int
    """The room's place in the adventure's `rooms` list (for located findings)."""

    @property
    def doorstep(self) -> Cell:
        dx, dy = SIDES[self.side]
        return (self.door[0] + dx, self.door[1] + dy)


@dataclass(frozen=True)
class Grid:
    """An adventure's map: which squares are floor, obstacles, tombs, start and rooms."""

    cols: int
    rows: int
    floor: frozenset[Cell]
    start: frozenset[Cell]
    obstacles: frozenset[Cell]
    tombs: frozenset[Cell]
    rooms: tuple[Room, ...]

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def room(self, number: int) -> Room:
        for room in self.rooms:
            if room.number == number:
                return room
        raise KeyError(number)


@dataclass(frozen=True)
class MonsterAbility:
    when: str
    effect: str
    track: str = ""
    boxes: int = 0
    amount: int = 0


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    health: int
    health_track: tuple[int, ...]
    attack: int
    attack_track: tuple[int, ...]
    boss: bool
    abilities: tuple[MonsterAbility, ...]
    drops: str | None

    def has(self, effect: str) -> bool:
        return any(a.effect == effect for a in self.abilities)

    def amount(self, effect: str) -> int:
        return sum(a.amount for a in self.abilities if a.effect == effect)

    def track(self, which: str) -> tuple[int, ...]:
        return self.health_track if which == "health" else self.attack_track

    def value(self, which: str, filled: int) -> int:
        """The health or attack with `filled` boxes of that track filled."""
        start = self.health if which == "health" else self.attack
        return self.track(which)[filled - 1] if filled else start


@dataclass(frozen=True)
class Reward:
    gold: int = 0
    points: int = 0
    item: str | None = None


@dataclass(frozen=True)
class Chest:
    type: str
    locked: bool
    trapped: bool
    boxes: tuple[Reward, ...]
    trap_damage: int
    trap_gold: int


@dataclass(frozen=True)
class Scoring:
    monster: int = 0
    boss: int = 0
    chest_points: int = 0
    gold: int = 0
    hero_alive: int = 0
    tomb: int = 0
    turns_left: int = 0


@dataclass(frozen=True)
class Adventure:
    id: str
    name: str
    number: int
    max_turns: int
    grid: Grid
    monsters: tuple[Monster, ...]
    chests: tuple[Chest, ...]
    boss: int
    """The boss's index in `monsters`."""
    boss_keys: tuple[str, ...]
    unique_treasure: str | None
    scoring: Scoring
    bonus_gold: int
    bonus_item: str | None
    bonus_points: int

    @property
    def locked_doors(self) -> bool:
        return any(room.locked for room in self.grid.rooms)


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    use: str
    cost: int
    attack_bonus: int = 0
    damage_reduction: int = 0
    reroll: str = ""
    adjust: int = 0
    heal: int = 0
    opens: tuple[str, ...] = ()
    disarms: bool = False


@dataclass(frozen=True)
class HeroClass:
    id: str
    name: str
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    type: str
    heal: int = 0
    points: int = 0


@dataclass(frozen=True)
class Rules:
    """The numbers and switches of `rules.yaml` the engine plays by."""

    rooms: int
    setup_dice: Dice
    turn_dice: Dice
    fight_die: Dice
    reroll_faces: frozenset[int]
    """Exploration numbers the master rolls again (the table's `reroll` rows)."""
    turns: tuple[int, ...]
    """The allowed turns of a shape in degrees, 0 included."""
    mirror: bool
    start_counts_as_painted: bool
    max_shared_edges: int
    min_shared_edges: int
    max_track_gap: int
    weapon_bonus: int
    shield_reduction: int
    shields_per_hero: int
    max_shield_reduction: int
    reroll_cost: int
    start_health: int
    start_ability_points: int
    extra_levels: int
    level_health: int
    level_ability_points: int
    level_cost_base: int
    uses_per_fight: int
    chest_boxes: int
    bonus_above: int
    default_max_turns: int
    new_hero_except_levels: tuple[int, ...]
    heroes_per_player: int
    min_party: int

    def party_size(self, players: int) -> int:
        return max(players * self.heroes_per_player, self.min_party)


@dataclass(frozen=True)
class Dungeon:
    rules: Rules
    shapes: Mapping[int, Shape]
    adventures: tuple[Adventure, ...]
    classes: tuple[HeroClass, ...]
    items: Mapping[str, Item]
    max_players: int

    def adventure(self, ident: str) -> Adventure:
        found = _ADVENTURES.get((id(self), ident))
        if found is not None and found[0] is self:
            return found[1]
        for adventure in self.adventures:
            if adventure.id == ident:
                _ADVENTURES[(id(self), ident)] = (self, adventure)
                return adventure
        known = ", ".join(a.id for a in self.adventures)
        raise ValueError(f"no adventure '{ident}' (the adventures are {known})")

    def hero_class(self, ident: str) -> HeroClass:
        for cls in self.classes:
            if cls.id == ident:
                return cls
        raise KeyError(ident)


_ADVENTURES: dict[tuple[int, str], tuple[Dungeon, Adventure]] = {}


# ----- building it from the plain model ---------------------------------------------------------


def _localized(raw: Any) -> str:
    if isinstance(raw, Mapping):
        return str(raw.get("en") or next(iter(raw.values()), ""))
    return str(raw or "")


class _Entities:
    def __init__(self, plain: Mapping[str, Any]):
        self.by_id = {e["id"]: e for e in plain.get("entities", [])}

    def of_kind(self, kind: str) -> list[Mapping[str, Any]]:
        return [e for e in self.by_id.values() if e.get("kind") == kind]

    def need(self, ident: str, kind: str | None = None) -> Mapping[str, Any]:
        found = self.by_id.get(ident)
        if found is None or (kind and found.get("kind") != kind):
            what = f"a `{kind}` entity" if kind else "an entity"
            raise ContentError(f"the dice dungeon needs {what} '{ident}'")
        return found

    def rule(self, ident: str) -> Mapping[str, Any]:
        return self.need(ident, "dungeon-rule")

    def field(self, ident: str, path: str) -> Any:
        value: Any = self.need(ident)
        for part in path.split("."):
            if not isinstance(value, Mapping) or part not in value:
                raise ContentError(f"the dice dungeon needs '{ident}.{path}'")
            value = value[part]
        return value


@rule("overview.level-map")
def _grid(raw: Mapping[str, Any]) -> Grid:
    """An adventure's map from its rows of squares and its rooms' doors."""
    rows = [str(r) for r in raw["map"]]
    cols = max(len(r) for r in rows)
    floor, start, obstacles, tombs = set(), set(), set(), set()
    room_cells: dict[int, set[Cell]] = {}
    for y, row in enumerate(rows):
        for x, mark in enumerate(row.ljust(cols, OBSTACLE)):
            cell = (x, y)
            if mark == FLOOR:
                floor.add(cell)
            elif mark == START:
                start.add(cell)
            elif mark == TOMB:
                tombs.add(cell)
            elif mark.isdigit():
                room_cells.setdefault(int(mark), set()).add(cell)
            else:
                obstacles.add(cell)
    rooms = tuple(
        Room(int(r["room"]), frozenset(room_cells.get(int(r["room"]), ())),
             (int(r["door"][0]), int(r["door"][1])), str(r["side"]), bool(r.get("locked", False)),
             index)
        for index, r in enumerate(raw.get("rooms", ())))
    return Grid(cols, len(rows), frozenset(floor), frozenset(start), frozenset(obstacles),
                frozenset(tombs), rooms)


def _monster(raw: Mapping[str, Any]) -> Monster:
    abilities = tuple(MonsterAbility(str(a["when"]), str(a["effect"]), str(a.get("track", "")),
                                     int(a.get("boxes", 0)), int(a.get("amount", 0)))
                      for a in raw.get("abilities", ()))
    return Monster(str(raw["id"]), _localized(raw["name"]), int(raw["health"]),
                   tuple(int(v) for v in raw["health_track"]), int(raw["attack"]),
                   tuple(int(v) for v in raw["attack_track"]), bool(raw.get("boss", False)),
                   abilities, raw.get("drops"))


def _chest(raw: Mapping[str, Any], kinds: _Entities) -> Chest:
    kind = kinds.need(str(raw["chest"]), "chest")
    boxes = tuple(Reward(int(b.get("gold", 0)), int(b.get("points", 0)), b.get("item"))
                  for b in raw["boxes"])
    trap = raw.get("trap") or {}
    return Chest(str(raw["chest"]), bool(kind.get("locked", False)),
                 bool(kind.get("trapped", False)), boxes, int(trap.get("damage", 0)),
                 int(trap.get("gold", 0)))


def _adventure(raw: Mapping[str, Any], es: _Entities) -> Adventure:
    monsters = tuple(_monster(es.need(m, "dungeon-monster")) for m in raw["monsters"])
    boss_id = raw.get("boss")
    boss = next((i for i, m in enumerate(monsters) if m.id == boss_id or (not boss_id and m.boss)),
                len(monsters) - 1)
    bonus = raw.get("bonus") or {}
    return Adventure(
        str(raw["id"]), _localized(raw["name"]), int(raw["number"]), int(raw["max_turns"]),
        _grid(raw), monsters, tuple(_chest(c, es) for c in raw["chests"]), boss,
        tuple(raw.get("boss_keys", ())), raw.get("unique_treasure"),
        Scoring(**{k: int(v) for k, v in (raw.get("scoring") or {}).items()}),
        int(bonus.get("gold", 0)), bonus.get("item"), int(bonus.get("points", 0)))


def _ability(raw: Mapping[str, Any]) -> Ability:
    return Ability(str(raw["id"]), _localized(raw["name"]), str(raw["use"]), int(raw["cost"]),
                   int(raw.get("attack_bonus", 0)), int(raw.get("damage_reduction", 0)),
                   str(raw.get("reroll", "")), int(raw.get("adjust", 0)), int(raw.get("heal", 0)),
                   tuple(raw.get("opens", ())), bool(raw.get("disarms", False)))


def _shapes(es: _Entities) -> dict[int, Shape]:
    table = es.need(str(es.field("exploration", "table")), "table")
    shapes = {}
    for row in table.get("rows", ()):
        if row.get("result"):
            raw = es.need(str(row["result"]), "shape")
            shapes[int(row["roll"])] = Shape(str(raw["id"]), int(row["roll"]),
                                             tuple((int(c[0]), int(c[1])) for c in raw["cells"]))
    return shapes


def _rules(es: _Entities) -> Rules:
    table = es.need(str(es.field("exploration", "table")), "table")
    explore = es.rule("exploration")
    turns = {0, *(int(t) for t in explore.get("rotations", ()))}
    if explore.get("turn_either_way"):
        turns |= {(360 - t) % 360 for t in turns}
    heroes, attack, level_end = es.rule("heroes"), es.rule("attack"), es.rule("level-end")
    return Rules(
        rooms=int(es.field("level-setup", "rooms")),
        setup_dice=Dice.parse(str(es.field("level-setup", "dice"))),
        turn_dice=Dice.parse(str(es.field("turn", "dice"))),
        fight_die=Dice.parse(str(attack["dice_per_hero"])),
        reroll_faces=frozenset(int(r["roll"]) for r in table["rows"] if r.get("reroll")),
        turns=tuple(sorted(turns)),
        mirror=bool(explore.get("mirror", False)),
        start_counts_as_painted=bool(explore.get("start_counts_as_painted", True)),
        max_shared_edges=int(explore["max_shared_edges"]),
        min_shared_edges=int(explore["min_shared_edges"]),
        max_track_gap=int(es.field("monster-upgrades", "max_track_gap")),
        weapon_bonus=int(attack["magic_weapon_bonus"]),
        shield_reduction=int(attack["shield_reduction"]),
        shields_per_hero=int(attack["shields_per_hero"]),
        max_shield_reduction=int(attack["max_shield_reduction"]),
        reroll_cost=int(attack["reroll_cost"]),
        start_health=int(heroes["start"]["health"]),
        start_ability_points=int(heroes["start"]["ability_points"]),
        extra_levels=int(heroes["extra_levels"]),
        level_health=int(heroes["per_level"]["health"]),
        level_ability_points=int(heroes["per_level"]["ability_points"]),
        level_cost_base=int(heroes["level_cost_base"]),
        uses_per_fight=int(heroes["uses_per_fight"]),
        chest_boxes=int(es.field("treasure", "box_count")),
        bonus_above=int(level_end["bonus_above"]),
        default_max_turns=int(level_end["max_turns"]),
        new_hero_except_levels=tuple(int(v) for v in es.field("levels",
                                                              "new_hero_except_levels")),
        heroes_per_player=int(es.rule("levels").get("heroes_per_player", 1)),
        min_party=int(es.rule("levels").get("min_party", 1)),
    )


def from_plain(plain: Mapping[str, Any]) -> Dungeon:
    """The dungeon from the plain model (`relic export model`); ContentError names what lacks."""
    es = _Entities(plain)
    levels = es.rule("levels")
    adventure_ids = list(levels.get("adventures") or [a["id"] for a in sorted(
        es.of_kind("adventure"), key=lambda a: a.get("number", 0))])
    if not adventure_ids:
        raise ContentError("the dice dungeon has no `adventure` entities: nothing to play")
    class_ids = list(levels.get("classes") or [c["id"] for c in es.of_kind("hero-class")])
    classes = tuple(
        HeroClass(str(c["id"]), _localized(c["name"]),
                  tuple(_ability(es.need(a, "ability")) for a in c.get("abilities", ())))
        for c in (es.need(i, "hero-class") for i in class_ids))
    items = {str(i["id"]): Item(str(i["id"]), _localized(i["name"]), str(i["type"]),
                                int(i.get("heal", 0)), int(i.get("points", 0)))
             for i in es.of_kind("dungeon-item")}
    most = int(plain.get("pack", {}).get("players", {}).get("max", 4))
    return Dungeon(_rules(es), _shapes(es),
                   tuple(_adventure(es.need(a, "adventure"), es) for a in adventure_ids),
                   classes, items, most)
