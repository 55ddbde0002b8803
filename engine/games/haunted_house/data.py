"""The haunted house's content as frozen, typed data, read once from the plain model.

This is the one module that knows the content's field names; the rules read these types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.api import ContentError

TRAITS = ("might", "speed", "knowledge", "sanity")
FLOORS = ("ground", "upper", "basement")
DIRS = ("n", "e", "s", "w")


@dataclass(frozen=True)
class Effect:
    """One thing that happens to an explorer (see the `effect` definition of event.json)."""

    type: str
    trait: str = ""
    steps: int = 0
    damage_type: str = ""
    dice: int = 0
    cards: int = 0

    def to_json(self) -> list[Any]:
        return [self.type, self.trait, self.steps, self.damage_type, self.dice, self.cards]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Effect:
        return cls(*raw)


@dataclass(frozen=True)
class Check:
    """A trait roll: as many dice as the trait's value; the total must reach `target`."""

    trait: str
    target: int


@dataclass(frozen=True)
class Band:
    """Totals `low`..`high` (None: and above) of an event's roll, and their effects."""

    low: int
    high: int | None
    effects: tuple[Effect, ...]

    def holds(self, total: int) -> bool:
        return total >= self.low and (self.high is None or total <= self.high)


@dataclass(frozen=True)
class Track:
    """A trait track: `values[0]` is the lowest mark (step 1); step 0 is the death mark."""

    values: tuple[int, ...]
    start: int

    @property
    def top(self) -> int:
        return len(self.values)

    def value(self, step: int) -> int:
        """The value at a step (0 at the death mark)."""
        return self.values[step - 1] if step > 0 else 0


@dataclass(frozen=True)
class Explorer:
    id: str
    name: str
    tracks: Mapping[str, Track]


@dataclass(frozen=True)
class RoomEffect:
    when: str
    check: Check | None
    success: tuple[Effect, ...]
    failure: tuple[Effect, ...]
    effects: tuple[Effect, ...]
    after_success: str


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    floors: tuple[str, ...]
    doorways: tuple[str, ...]
    symbol: str
    features: tuple[str, ...]
    start: str | None
    stairs: tuple[str, ...]
    effect: RoomEffect | None


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    trait: str | None
    bands: tuple[Band, ...]
    effects: tuple[Effect, ...]

    def band(self, total: int) -> Band | None:
        return next((b for b in self.bands if b.holds(total)), None)


@dataclass(frozen=True)
class Omen:
    id: str
    name: str
    scenario: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Attack:
    trait: str
    dice: int
    ranged: bool
    cost: tuple[str, int] | None


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    category: str
    transferable: bool
    attack: Attack | None
    bonus: tuple[str, int] | None
    movement: int
    use: tuple[Effect, ...]
    up_to_start: bool

    @property
    def weapon(self) -> bool:
        return self.attack is not None


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    traits: Mapping[str, int]
    attack_trait: str
    ranged: bool
    movement: int
    by_players: tuple[tuple[int, int | None, Mapping[str, int]], ...] = ()
    """(fewest players, most or None, traits that replace the base values)."""

    def traits_at(self, players: int) -> Mapping[str, int]:
        """Its traits in a game of this many players."""
        traits = dict(self.traits)
        for low, high, changes in self.by_players:
            if players >= low and (high is None or players <= high):
                traits.update(changes)
        return traits


@dataclass(frozen=True)
class Task:
    id: str
    name: str
    traits: tuple[str, ...]
    target: tuple[tuple[int, int | None, int], ...]
    """(fewest players, most players or None, the least total that succeeds)."""
    successes: tuple[tuple[int, int | None, int], ...]
    """(fewest players, most players or None, successes needed), by the number of players."""
    where: str
    feature: str
    token: str
    result: str
    makes: str

    def needed(self, players: int) -> int:
        """The successes the side needs in a game of this many players."""
        return _at(self.successes, players)

    def target_at(self, players: int) -> int:
        """The least total that succeeds in a game of this many players."""
        return _at(self.target, players)

    @property
    def targets(self) -> list[int]:
        return sorted({n for _, _, n in self.target})


def _at(by_players: tuple[tuple[int, int | None, int], ...], players: int) -> int:
    for low, high, n in by_players:
        if players >= low and (high is None or players <= high):
            return n
    return by_players[-1][2]


@dataclass(frozen=True)
class Special:
    id: str
    name: str
    type: str
    token: str
    traits: tuple[str, ...]
    check: Check | None
    failure: tuple[Effect, ...]
    feature: str


@dataclass(frozen=True)
class Side:
    wins: tuple[str, ...]
    task: Task
    specials: tuple[Special, ...]

    def special(self, type_: str) -> Special | None:
        return next((s for s in self.specials if s.type == type_), None)


@dataclass(frozen=True)
class TokenSpec:
    role: str
    name: str
    item: str
    count: int
    place: str


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    traitor_rule: str
    traitor_trait: str
    monster: str
    monster_place: str
    monster_room: str
    tokens: tuple[TokenSpec, ...]
    heroes: Side
    traitor: Side

    def side(self, name: str) -> Side:
        return self.heroes if name == "hero" else self.traitor

    def token(self, role: str) -> TokenSpec | None:
        return next((t for t in self.tokens if t.role == role), None)


@dataclass(frozen=True)
class Rules:
    """The numbers and switches of the rules (house-rule entities and the die)."""

    faces: tuple[int, ...]
    dice_in_box: int
    start_room: str
    landings: tuple[str, ...]
    move_cost: int
    movement_trait: str
    groups: Mapping[str, tuple[str, ...]]
    """Damage type -> the traits it lowers, in the order the content lists them."""
    trait_group: Mapping[str, str]
    same_check_per_turn: int
    task_rolls_per_turn: int
    attacks_per_turn: int
    attack_trait: str
    weapons_per_attack: int
    steal_min: int
    steal_type: str
    dread_target: int
    dread_certain_at: int
    death_before_scenario: bool
    stunned_turns: int
    gives_per_turn: int


@dataclass(frozen=True)
class House:
    """Everything the rules read."""

    rules: Rules
    explorers: Mapping[str, Explorer]
    rooms: Mapping[str, Room]
    events: Mapping[str, Event]
    omens: Mapping[str, Omen]
    items: Mapping[str, Item]
    monsters: Mapping[str, Monster]
    scenarios: Mapping[str, Scenario]
    max_players: int
    raw: Mapping[str, Mapping[str, Any]] = field(repr=False, compare=False, default_factory=dict)
    """Entity id -> its plain form (for consistency findings that point at content)."""

    def deck_items(self) -> list[str]:
        """The item cards (every item but the scenarios' tokens), one per copy."""
        return sorted(i for i, item in self.items.items() if item.category != "item-token")


# ----- reading the plain model ------------------------------------------------------------------


def _need(entity: Mapping[str, Any], key: str) -> Any:
    if key not in entity:
        raise ContentError(f"{entity.get('kind')} '{entity.get('id')}' has no '{key}'")
    return entity[key]


def _name(entity: Mapping[str, Any]) -> str:
    names = entity.get("name") or {}
    return str(names.get("en") or names.get("ru") or entity["id"])


def _effects(raw: Any) -> tuple[Effect, ...]:
    return tuple(Effect(e["type"], e.get("trait", ""), int(e.get("steps", 0)),
                        e.get("damage_type", ""), int(e.get("dice", 0)), int(e.get("cards", 0)))
                 for e in raw or ())


def _check(raw: Any) -> Check | None:
    return Check(raw["trait"], int(raw["target"])) if raw else None


def parse_band(text: str) -> tuple[int, int | None]:
    """`4+` -> (4, None); `0-3` -> (0, 3); `5` -> (5, 5)."""
    text = str(text).strip()
    if text.endswith("+"):
        return int(text[:-1]), None
    if "-" in text[1:]:
        low, high = text.split("-", 1)
        return int(low), int(high)
    return int(text), int(text)


def _explorer(e: Mapping[str, Any]) -> Explorer:
    traits = _need(e, "traits")
    tracks = {t: Track(tuple(int(v) for v in traits[t]["track"]), int(traits[t]["start"]))
              for t in TRAITS}
    return Explorer(e["id"], _name(e), tracks)


def _room(e: Mapping[str, Any]) -> Room:
    raw = e.get("effect")
    effect = None
    if raw:
        effect = RoomEffect(raw["when"], _check(raw.get("check")), _effects(raw.get("success")),
                            _effects(raw.get("failure")), _effects(raw.get("effects")),
                            raw.get("after_success", "stays"))
    return Room(e["id"], _name(e), tuple(_need(e, "floors")), tuple(_need(e, "doorways")),
                e.get("symbol", "none"), tuple(e.get("features", ())), e.get("start"),
                tuple(e.get("stairs", ())), effect)


def _event(e: Mapping[str, Any]) -> Event:
    bands = []
    for o in e.get("outcomes", ()):
        low, high = parse_band(o["roll"])
        bands.append(Band(low, high, _effects(o.get("effects"))))
    trait = (e.get("roll") or {}).get("trait")
    return Event(e["id"], _name(e), trait, tuple(bands), _effects(e.get("effects")))


def _item(e: Mapping[str, Any]) -> Item:
    a = e.get("attack")
    attack = None
    if a:
        cost = a.get("cost")
        attack = Attack(a["trait"], int(a.get("dice", 0)), bool(a.get("ranged", False)),
                        (cost["trait"], int(cost["steps"])) if cost else None)
    b = e.get("bonus")
    use = e.get("use") or {}
    return Item(e["id"], _name(e), e["category"], bool(e.get("transferable", True)), attack,
                (b["trait"], int(b["dice"])) if b else None, int(e.get("movement", 0)),
                _effects(use.get("effects")), bool(use.get("up_to_start", False)))


def _by_players(raw: Any) -> tuple[tuple[int, int | None, int], ...]:
    """`2` (any number of players) or `{"3-4": 2, "5+": 3}`."""
    if isinstance(raw, Mapping):
        return tuple(sorted((*parse_band(k), int(v)) for k, v in raw.items()))
    return ((1, None, int(raw)),)


def _monster(e: Mapping[str, Any]) -> Monster:
    by_players = tuple(sorted(
        (*parse_band(k), {t: int(v) for t, v in changes.items()})
        for k, changes in (e.get("by_players") or {}).items()))
    return Monster(e["id"], _name(e), {k: int(v) for k, v in e["traits"].items()},
                   e["attack_trait"], bool(e.get("ranged", False)), int(e["movement"]),
                   by_players)


def _task(raw: Mapping[str, Any]) -> Task:
    return Task(raw["id"], str((raw.get("name") or {}).get("en", raw["id"])),
                tuple(raw["traits"]), _by_players(raw["target"]),
                _by_players(raw.get("successes", 1)),
                raw["where"], raw.get("feature", ""), raw.get("token", ""), raw["result"],
                raw.get("makes", ""))


def _special(raw: Mapping[str, Any]) -> Special:
    return Special(raw["id"], str((raw.get("name") or {}).get("en", raw["id"])), raw["type"],
                   raw.get("token", ""), tuple(raw.get("traits", ())), _check(raw.get("check")),
                   _effects(raw.get("failure")), raw.get("feature", ""))


def _side(raw: Mapping[str, Any]) -> Side:
    return Side(tuple(w["type"] for w in raw["wins"]), _task(raw["task"]),
                tuple(_special(s) for s in raw.get("specials", ())))


def _scenario(e: Mapping[str, Any]) -> Scenario:
    traitor = _need(e, "traitor")
    start = _need(e, "monster_start")
    tokens = tuple(TokenSpec(t["role"], str(t["name"].get("en", t["role"])), t["item"],
                             int(t["count"]), t["place"]) for t in e.get("tokens", ()))
    sides = _need(e, "sides")
    return Scenario(e["id"], _name(e), traitor["rule"], traitor.get("trait", ""),
                    e["monster"], start["place"], start.get("room", ""), tokens,
                    _side(sides["heroes"]), _side(sides["traitor"]))


def _rules(by_id: Mapping[str, Mapping[str, Any]], by_kind: Mapping[str, list]) -> Rules:
    def rule(ident: str) -> Mapping[str, Any]:
        found = by_id.get(ident)
        if found is None:
            raise ContentError(f"the haunted house needs the rule entity '{ident}'")
        return found

    die = rule(rule("dice-rolls")["die"])
    groups = {r["damage_type"]: tuple(r["lowers"])
              for r in (rule("physical-damage"), rule("mental-damage"))}
    trait_group = {t["id"]: t["group"] for t in by_kind.get("trait", ())}
    steal, attack, dread = rule("steal"), rule("attack"), rule("dread-roll")
    return Rules(
        faces=tuple(int(f) for f in die["faces"]),
        dice_in_box=int(die.get("count", 1)),
        start_room=rule("setup")["start_room"],
        landings=tuple(rule("setup")["rooms"]),
        move_cost=int(rule("turn")["move_cost"]),
        movement_trait=rule("turn")["movement_trait"],
        groups=groups,
        trait_group=trait_group,
        same_check_per_turn=int(rule("dice-rolls")["same_check_per_turn"]),
        task_rolls_per_turn=int(rule("tasks")["task_rolls_per_turn"]),
        attacks_per_turn=int(attack["attacks_per_turn"]),
        attack_trait=attack["trait"],
        weapons_per_attack=int(rule("weapons")["weapons_per_attack"]),
        steal_min=int(steal["min_damage"]),
        steal_type=steal["damage_type"],
        dread_target=int(dread["target"]),
        dread_certain_at=int(dread["certain_at"]),
        death_before_scenario=bool(rule("death")["death_before_scenario"]),
        stunned_turns=int(rule("monster-turn")["stunned_turns"]),
        gives_per_turn=int(rule("handling")["gives_per_turn"]),
    )


def from_plain(plain: Mapping[str, Any]) -> House:
    """The house from the plain model of `relic export model`."""
    entities = list(plain.get("entities", ()))
    by_id = {e["id"]: e for e in entities}
    by_kind: dict[str, list] = {}
    for e in entities:
        by_kind.setdefault(e["kind"], []).append(e)

    def of(kind: str, build: Any) -> dict[str, Any]:
        return {e["id"]: build(e) for e in sorted(by_kind.get(kind, ()), key=lambda e: e["id"])}

    try:
        house = House(
            rules=_rules(by_id, by_kind),
            explorers=of("explorer", _explorer),
            rooms=of("room", _room),
            events=of("event", _event),
            omens=of("omen", lambda e: Omen(e["id"], _name(e), e["scenario"],
                                            _effects(e.get("effects")))),
            items=of("house-item", _item),
            monsters=of("house-monster", _monster),
            scenarios=of("scenario", _scenario),
            max_players=int((plain.get("pack") or {}).get("players", {}).get("max", 6)),
            raw=by_id,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ContentError(f"the haunted house cannot read its content: {exc!r}") from exc
    if not house.explorers or not house.scenarios:
        raise ContentError("the haunted house needs explorers and at least one scenario")
    return house
