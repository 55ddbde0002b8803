"""The tunnels' content as frozen typed data, built from the plain model (`Model.to_plain()`).

This module is the only place that knows the content's field names. Values keep their source
(entity id and dotted path) where a consistency finding may need to point at them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.core.api import ContentError
from engine.core.dice import Dice

MORTAL, DEMON = 0, 1
"""Seats: the mortal player sits at 0, the demon player at 1."""
SIDE_IDS = ("mortal", "demon-player")

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
_LABEL = re.compile(r"^([A-Z])(\d+)$")


def faces_of(text: str) -> frozenset[int]:
    """The faces of a table row's roll: "1", "2-3"."""
    match = _RANGE.match(str(text).strip())
    if not match:
        raise ContentError(f"not a roll range: {text!r}")
    low = int(match.group(1))
    high = int(match.group(2) or low)
    return frozenset(range(low, high + 1))


def label_of(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_label(text: str) -> tuple[int, int]:
    match = _LABEL.match(text)
    if not match:
        raise ContentError(f"not a square label: {text!r}")
    return ord(match.group(1)) - ord("A"), int(match.group(2)) - 1


@dataclass(frozen=True)
class Square:
    """A kind of square and what it does."""

    id: str
    name: str
    capacity: int
    damage_multiplier: int = 1
    multiplier_ignores: frozenset[str] = frozenset()
    ends_movement: bool = False
    leave_costs_all: bool = False
    first_entry_roll: str | None = None
    """The table a mortal warrior's first entry rolls on (the booby-trapped tunnel)."""
    first_entry_fate_dice: int = 0
    """Extra fate dice a mortal warrior's first entry grants (the demonic mechanism)."""
    always_place: bool = False
    """The demon player may always place a troglodyte here (the lair)."""
    scenario_defined: bool = False
    special: bool = True

    @property
    def first_entry(self) -> bool:
        return self.first_entry_roll is not None or self.first_entry_fate_dice > 0


@dataclass(frozen=True)
class Attack:
    dice: int
    hits: frozenset[int]
    sides: int = 6

    @property
    def p_hit(self) -> Fraction:
        return Fraction(len(self.hits), self.sides)


@dataclass(frozen=True)
class Card:
    """A mortal warrior's card."""

    id: str
    name: str
    mov: int
    attack: Attack
    fields: int
    grenades: int


@dataclass(frozen=True)
class Foe:
    """A figure of the demon side: the troglodyte or the Demon."""

    id: str
    name: str
    mov: int
    attack: Attack
    wounds: int | None
    count: int


@dataclass(frozen=True)
class Grenade:
    range: int
    sides: int
    explodes: frozenset[int]
    damage: int
    count: int

    @property
    def p_explode(self) -> Fraction:
        return Fraction(len(self.explodes), self.sides)


@dataclass(frozen=True)
class FateFace:
    faces: frozenset[int]
    effect: str
    amount: int
    name: str


@dataclass(frozen=True)
class BoobyRow:
    index: int
    faces: frozenset[int]
    effect: str
    amount: int
    warrior: str | None


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    board: str
    mortal_start: str
    demon_start: str
    troglodytes: tuple[tuple[str, int], ...]
    loot_on: str
    loot_at: str | None
    loot_tokens: int
    decoy_tokens: int
    face_up: bool
    goal: str
    """The square the loot must reach (the exit, or the stashes)."""
    decoy_at_goal: str | None
    initiative_swaps: bool
    ground_swaps: bool
    drop_on_death: bool


@dataclass(frozen=True)
class Tunnels:
    """Everything the engine reads from the content."""

    squares: Mapping[str, Square]
    boards: Mapping[str, Mapping[str, Any]]
    """Board id -> its name, rows and legend (engine.games.tunnels.board builds the graph)."""
    cards: tuple[Card, ...]
    troglodyte: Foe
    demon: Foe
    grenade: Grenade
    fate_faces: tuple[FateFace, ...]
    fate_sides: int
    fate_dice: int
    fate_supply: int
    booby_rows: tuple[BoobyRow, ...]
    booby_dice: Dice
    initiative_sides: int
    initiative_ties: int
    swaps_per_warrior: int
    leave_enemy_costs_all: bool
    placement_lair: str
    placement_elsewhere: str
    rounds: int
    scenarios: tuple[Scenario, ...]
    wound_tokens: int
    damage_markers: int
    plain_dice: int

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def scenario(self, scenario_id: str) -> Scenario:
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        raise KeyError(scenario_id)


# ----- reading the plain model ------------------------------------------------------------------


class _Model:
    def __init__(self, plain: Mapping[str, Any]):
        self.by_id = {e["id"]: e for e in plain.get("entities", ())}
        self.lang = "en"

    def get(self, entity_id: str, kind: str | None = None) -> Mapping[str, Any]:
        e = self.by_id.get(entity_id)
        if e is None or (kind is not None and e.get("kind") != kind):
            raise ContentError(f"the tunnels need the {kind or 'entity'} '{entity_id}'")
        return e

    def of_kind(self, kind: str) -> list[Mapping[str, Any]]:
        return [e for e in self.by_id.values() if e.get("kind") == kind]

    def field(self, entity_id: str, path: str) -> Any:
        node: Any = self.get(entity_id)
        for part in path.split("."):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise ContentError(f"the tunnels need '{entity_id}.{path}'")
        return node

    def name(self, entity_id: str) -> str:
        name = self.get(entity_id).get("name", {})
        return str(name.get(self.lang) or next(iter(name.values()), entity_id))


def _attack(raw: Mapping[str, Any]) -> Attack:
    return Attack(int(raw["dice"]), frozenset(int(f) for f in raw["hits"]))


def _square(m: _Model, raw: Mapping[str, Any], usual: int) -> Square:
    extra = raw.get("extra_dice") or {}
    return Square(
        id=raw["id"],
        name=m.name(raw["id"]),
        capacity=int(raw.get("capacity_per_side", usual)),
        damage_multiplier=int(raw.get("damage_multiplier", 1)),
        multiplier_ignores=frozenset(raw.get("multiplier_ignores", ())),
        ends_movement=bool(raw.get("ends_movement", False)),
        leave_costs_all=raw.get("leave_cost") == "all-mov",
        first_entry_roll=raw.get("roll") if raw["trigger"]["when"] == "first-entry" else None,
        first_entry_fate_dice=int(extra.get("count", 0)) if raw["trigger"]["when"] == "first-entry"
        else 0,
        always_place=bool(raw.get("may_place")),
        scenario_defined=bool(raw.get("scenario_defined", False)),
        special=raw["id"] in set(m.field("special-squares", "squares")),
    )


def _foe(m: _Model, entity_id: str) -> Foe:
    raw = m.get(entity_id, "warrior")
    for key in ("mov", "attack"):
        if key not in raw:
            raise ContentError(f"the tunnels need '{entity_id}.{key}'")
    return Foe(entity_id, m.name(entity_id), int(raw["mov"]), _attack(raw["attack"]),
               int(raw["wounds"]) if "wounds" in raw else None, int(raw.get("count", 1)))


def _scenario(m: _Model, raw: Mapping[str, Any]) -> Scenario:
    sc = raw["scenario"]
    loot = sc["loot"]
    markers = [m.get(x, "marker") for x in loot["markers"]]
    loot_n = sum(int(x.get("count", 1)) for x in markers if x.get("hidden_side") == "loot")
    decoy_n = sum(int(x.get("count", 1)) for x in markers if x.get("hidden_side") == "decoy")
    swaps = {(s["phase"], s["between"]) for s in raw.get("swaps", ())}
    face_up = bool(loot.get("face_up", False))
    # To freedom hands its one token on by All that glitters' rules (trace: freedom.setup).
    borrowed = set() if swaps else {
        (s["phase"], s["between"]) for s in m.field("all-that-glitters", "swaps")}
    swaps = swaps or borrowed
    return Scenario(
        id=raw["id"],
        name=m.name(raw["id"]),
        board=sc["board"],
        mortal_start=sc["mortal_start"],
        demon_start=sc["demon_start"],
        troglodytes=tuple((t["at"], int(t["count"])) for t in sc.get("troglodytes", ())),
        loot_on=loot["on"],
        loot_at=loot.get("at"),
        loot_tokens=loot_n,
        decoy_tokens=decoy_n,
        face_up=face_up,
        goal=raw["victory"]["reaches"],
        decoy_at_goal=sc.get("decoy_at_goal"),
        initiative_swaps=("initiative", "warriors-in-square") in swaps,
        ground_swaps=bool({("movement-start", "carried-and-ground"),
                           ("movement-end", "carried-and-ground")} & swaps),
        drop_on_death=raw.get("on_carrier_death", "drop-hidden") == "drop-hidden",
    )


def from_plain(plain: Mapping[str, Any], lang: str = "en") -> Tunnels:
    """The tunnels' data from the plain model; `ContentError` names anything missing."""
    m = _Model(plain)
    m.lang = lang
    try:
        return _build(m)
    except KeyError as exc:
        raise ContentError(f"the tunnels' content lacks {exc}") from None


def _build(m: _Model) -> Tunnels:
    usual = int(m.field("special-squares", "capacity_per_side"))
    squares = {raw["id"]: _square(m, raw, usual) for raw in m.of_kind("square")}
    boards = {raw["id"]: {"name": m.name(raw["id"]), "rows": list(raw["rows"]),
                          "legend": list(raw["legend"])} for raw in m.of_kind("board")}
    cards = tuple(
        Card(c, m.name(c), int(r["mov"]), _attack(r["attack"]), int(r["fields"]),
             int(r.get("grenades", 0)))
        for c in m.field("mortal", "cards") for r in [m.get(c, "warrior-card")])
    grenade_raw = m.get("grenade", "weapon")
    throw = grenade_raw.get("throw")
    if throw is None:
        raise ContentError("the tunnels need 'grenade.throw'")
    gdice = Dice.parse(throw["dice"])
    grenade = Grenade(int(throw["range"]), gdice.sides, frozenset(throw["explodes"]),
                      int(throw["damage"]), int(grenade_raw.get("count", 1)))
    fate = m.get("fate-die", "die")
    faces = tuple(FateFace(frozenset(s["faces"]), s["effect"], int(s.get("amount", 0)),
                           str(s["name"].get(m.lang, ""))) for s in fate.get("symbols", ()))
    table = m.get("booby-trap-table", "table")
    rows = tuple(BoobyRow(i, faces_of(r["roll"]), r["effect"], int(r.get("amount", 0)),
                          r.get("warrior")) for i, r in enumerate(table["rows"]))
    initiative = m.field("initiative-phase", "initiative")
    ties = initiative["ties"]
    placement = m.field("threat-phase", "placement")
    rounds = next((int(v["rounds"]) for v in m.of_kind("victory") if v["when"] == "round-limit"),
                  None)
    if rounds is None:
        raise ContentError("the tunnels need a victory with `when: round-limit`")
    scenarios = tuple(_scenario(m, r) for r in m.of_kind("special-rule") if "scenario" in r)
    return Tunnels(
        squares=squares,
        boards=boards,
        cards=cards,
        troglodyte=_foe(m, "troglodyte"),
        demon=_foe(m, "demon"),
        grenade=grenade,
        fate_faces=faces,
        fate_sides=int(fate.get("sides", 6)),
        fate_dice=int(m.field("threat-phase", "fate_dice.count")),
        fate_supply=int(fate.get("count", 1)),
        booby_rows=rows,
        booby_dice=Dice.parse(table["dice"]),
        initiative_sides=int(m.get(initiative["die"], "die").get("sides", 6)),
        initiative_ties=SIDE_IDS.index(ties),
        swaps_per_warrior=int(initiative.get("swaps_per_warrior", 1)),
        leave_enemy_costs_all=m.field("movement-phase", "movement").get("leave_enemy_square")
        == "all-mov",
        placement_lair=placement["lair"],
        placement_elsewhere=placement["elsewhere"],
        rounds=rounds,
        scenarios=scenarios,
        wound_tokens=int(m.get("wound", "marker").get("count", 1)),
        damage_markers=int(m.get("damage", "marker").get("count", 1)),
        plain_dice=int(m.get("plain-die", "die").get("count", 1)),
    )
