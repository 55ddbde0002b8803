"""The catacombs content as frozen typed data, built from the plain model (`Model.to_plain()`).

This module is the only place that knows the content's field names. Every value keeps its
source (entity id and dotted path) so checks can point at the content line. Where the content
lacks something the engine needs, a provisional default is used and listed in `defaults_used`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.api import ContentError
from engine.core.dice import Dice
from engine.core.notation import RollRange
from engine.games.catacombs.registry import rule

TABLE_EXTENT = 4
"""Provisional default: how many tiles the table holds in each direction from a labyrinth's
first tile (the content gives no table size); beyond it the cliff card is laid."""

STATS = ("speed", "strength", "dexterity", "knowledge", "luck", "communication", "attention")
SIDES = ("north", "east", "south", "west")
PLAYER_COUNTS = range(1, 9)


@dataclass(frozen=True)
class Src:
    """Where a value comes from: an entity id and a dotted path inside it."""

    entity: str
    path: str = ""

    def __str__(self) -> str:
        return f"{self.entity}.{self.path}" if self.path else self.entity


@dataclass(frozen=True)
class Threshold:
    stat: str
    min: int | None
    max: int | None
    src: Src

    def met(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


@dataclass(frozen=True)
class Outcome:
    """What happens to a character (check results, trap cards, events)."""

    health: int = 0
    speed: int = 0
    speed_set: int | None = None
    min_cells_per_action: int | None = None
    dies: bool = False
    turns_lost: int = 0
    poison: int = 0
    relic_keepers: int = 0
    reveal: bool = False
    removed: bool = False

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> Outcome:
        raw = raw or {}
        return cls(
            health=int(raw.get("health", 0)),
            speed=int(raw.get("speed", 0)),
            speed_set=raw.get("speed_set"),
            min_cells_per_action=raw.get("min_cells_per_action"),
            dies=bool(raw.get("dies", False)),
            turns_lost=int(raw.get("turns_lost", 0)),
            poison=int(raw.get("poison", 0)),
            relic_keepers=int(raw.get("relic_keepers", 0)),
            reveal=bool(raw.get("reveal", False)),
            removed=bool(raw.get("removed", False)),
        )


@dataclass(frozen=True)
class Reward:
    """A bundle received together (treasure-table row, monster reward, stash card)."""

    treasures: int = 0
    common_items: int = 0
    magic_items: int = 0
    unique_magic_items: int = 0
    item_cards: int = 0
    secret_knowledge: int = 0
    spells: int = 0
    intrigues: int = 0
    antidotes: int = 0
    items: tuple[str, ...] = ()
    stat_increase: tuple[tuple[str, int], ...] = ()
    top_row: bool = False
    junk: int = 0

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> Reward:
        raw = raw or {}
        return cls(
            treasures=int(raw.get("treasures", 0)),
            common_items=int(raw.get("common_items", 0)),
            magic_items=int(raw.get("magic_items", 0)),
            unique_magic_items=int(raw.get("unique_magic_items", 0)),
            item_cards=int(raw.get("item_cards", 0)),
            secret_knowledge=int(raw.get("secret_knowledge", 0)),
            spells=int(raw.get("spells", 0)),
            intrigues=int(raw.get("intrigues", 0)),
            antidotes=int(raw.get("antidotes", 0)),
            items=tuple(raw.get("items", ())),
            stat_increase=tuple(
                (s.get("stat", "any"), int(s.get("amount", 1)))
                for s in raw.get("stat_increase", ())
            ),
            top_row=bool(raw.get("top_row", False)),
            junk=int(raw.get("junk", 0)),
        )

    def value(self) -> int:
        """A rough worth for bots: treasures plus cards."""
        cards = self.common_items + self.magic_items * 2 + self.unique_magic_items * 3
        cards += self.item_cards + self.secret_knowledge * 2 + self.spells + self.antidotes
        return self.treasures + cards + 3 * sum(a for _, a in self.stat_increase)


# ----- ranges -----------------------------------------------------------------------------------


Span = RollRange
"""An inclusive range of totals (`engine/core/notation.py`): `high is None` is open-ended."""


def faces_of(raw: Any) -> frozenset[int]:
    return frozenset(int(f) for f in raw or ())


# ----- checks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    id: str
    requires: tuple[Threshold, ...]
    success: frozenset[int] | None
    add: int
    cells: int
    reroll: bool
    pick_best: bool
    items: tuple[str, ...]
    src: Src


@dataclass(frozen=True)
class ResultBand:
    roll: Span
    result: str
    outcome: Outcome
    src: Src


@dataclass(frozen=True)
class Check:
    """A check from the content: who may try, what it costs, the roll and its results."""

    id: str
    subject: str
    action: str
    requires: tuple[Threshold, ...]
    forbidden_for: tuple[str, ...]
    actions: int
    turns: int
    cost_treasures: int
    cells: int | None
    cells_add: int | None
    items: tuple[str, ...]
    needs: tuple[str, ...]
    dice: Dice | None
    success: frozenset[int]
    parity: bool
    results: tuple[ResultBand, ...]
    modifiers: tuple[Modifier, ...]
    on_success: Outcome
    on_failure: Outcome

    def allowed(self, stats: Mapping[str, int]) -> bool:
        return all(t.met(stats.get(t.stat, 0)) for t in self.requires)

    def active_modifiers(self, stats: Mapping[str, int], items: tuple[str, ...] = ()):
        out = []
        for m in self.modifiers:
            if m.items and not set(m.items) & set(items):
                continue
            if all(t.met(stats.get(t.stat, 0)) for t in m.requires):
                out.append(m)
        return out


# ----- tables -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    roll: Span
    reward: Reward
    outcome: str | None
    monster: str | None
    src: Src
    table: str | None = None


@dataclass(frozen=True)
class Step:
    min: int
    add: int
    success: frozenset[int]
    src: Src


@dataclass(frozen=True)
class TableModifier:
    id: str
    stat: str
    effect: str
    steps: tuple[Step, ...]
    check: str | None
    src: Src

    def step_for(self, value: int) -> Step | None:
        best = None
        for step in self.steps:
            if value >= step.min and (best is None or step.min > best.min):
                best = step
        return best


@dataclass(frozen=True)
class Table:
    id: str
    dice: Dice
    range: Span
    bonus: str | None
    rows: tuple[TableRow, ...]
    modifiers: tuple[TableModifier, ...]

    def row_for(self, total: int) -> TableRow | None:
        for row in self.rows:
            if total in row.roll:
                return row
        return None

    def modifier(self, effect: str) -> TableModifier | None:
        for m in self.modifiers:
            if m.effect == effect:
                return m
        return None

    @property
    def top_row(self) -> TableRow:
        return self.rows[-1]


# ----- components -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    id: str
    effect: str
    amount: int
    monsters: tuple[str, ...]
    unnoticed: bool


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    health: int
    stats: Mapping[str, int]
    thrift: int
    weapon_limit: int
    hire_limit: int
    relic_keeper: bool
    banknotes: int
    start_items: tuple[str, ...]
    antidotes: int
    secret_knowledge: int
    spells: tuple[str, ...]
    abilities: tuple[Ability, ...]
    attitudes: Mapping[str, str]

    def has(self, effect: str) -> bool:
        return any(a.effect == effect for a in self.abilities)

    def ability(self, effect: str) -> Ability | None:
        for a in self.abilities:
            if a.effect == effect:
                return a
        return None


@dataclass(frozen=True)
class MonsterStats:
    speed: int
    health: int | None
    melee: int
    ranged: int
    poison: int
    acid: int


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    stats: MonsterStats
    health_by_players: tuple[tuple[Span, int], ...]
    kit: int
    count: int
    """Printed copies (the box holds `kit` of them in play)."""
    species: tuple[tuple[str, int], ...]
    by_players: tuple[tuple[Span, int], ...]
    min_players: int
    attack: tuple[str, ...]
    ranged_within_tile: bool
    removed_after_attack: bool
    rewards: tuple[Reward, ...]
    never_attacks: tuple[str, ...]
    killed_by: tuple[str, ...]
    shield: bool
    checks: tuple[str, ...]
    special: tuple[str, ...] = ()
    special_values: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    controlled: MonsterStats | None = None
    controlled_rewards: tuple[Reward, ...] = ()
    revive: frozenset[int] = frozenset()
    per_lair: int = 0
    from_open_areas: bool = False

    def stats_for(self, controlled: bool) -> MonsterStats:
        return self.controlled if controlled and self.controlled is not None else self.stats

    def count_for(self, players: int) -> int:
        if players < self.min_players:
            return 0
        for span, count in self.by_players:
            if players in span:
                return count
        return 0 if self.by_players else self.kit

    def health_for(self, players: int) -> int | None:
        for span, hp in self.health_by_players:
            if players in span:
                return hp
        return self.stats.health


@dataclass(frozen=True)
class Tile:
    id: str
    count: int
    type: str
    cols: int
    rows: int
    layout: tuple[str, ...]
    exits: Mapping[str, tuple[int, ...]]
    icons: tuple[tuple[str, tuple[int, int] | None, str | None], ...]
    open_traps: tuple[tuple[str, tuple[int, int]], ...]
    turned: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    """The tile's geometry after each number of quarter turns, filled by `board.place`."""

    def floor(self, c: int, r: int) -> bool:
        if not (0 <= c < self.cols and 0 <= r < self.rows):
            return False
        if not self.layout:
            return True
        return self.layout[r][c] != "#"


@dataclass(frozen=True)
class Token:
    id: str
    count: int
    type: str
    hidden: Mapping[str, Any]
    orientation: str | None
    width: int
    depth: str | None
    strength: int
    table: str | None
    checks: tuple[str, ...]
    mark: str | None = None
    value: int = 1
    """What one token is worth in its pool (a 5-banknote token: 5)."""
    team: str | None = None


@dataclass(frozen=True)
class Trap:
    id: str
    count: int
    speed: int
    min_cells_per_action: int | None
    health: int
    deadly: bool
    poison_per_stop: int
    jumpable: bool
    stop_on_it: bool
    jump: tuple[tuple[int, int], ...]
    neutralized_by: tuple[str, ...]
    checks: tuple[str, ...]
    stops: tuple[str, ...] = ()


@dataclass(frozen=True)
class MercenaryAbility:
    """A mercenary's help beyond fighting (`ability` on its card): a bodyguard's, a porter's,
    a guide's, or the upkeep it costs."""

    effect: str
    amount: int = 0
    stat: str = ""
    subjects: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    id: str
    count: int
    deck: str
    outcome: Outcome
    reward: Reward
    weakening: bool
    trap: str | None
    monster: str | None
    requires: tuple[Threshold, ...]
    has_outcome: bool
    has_reward: bool
    price: int = 0
    damage: int = 0
    attack: str = ""
    opens_monster_door: bool = False
    who: str = "explorer"  # event: the explorer, every hero on the tile, or every hero
    cost_treasures: int = 0
    flood_after: int = 0  # event: the explorer's labyrinth floods this many turns later
    flood_health: int = 0  # ... and then every hero in it loses this much each turn
    flood_lasts: int = 0  # ... for this many turns, then it drains (0: never)
    items: tuple[str, ...] = ()  # stash: one of these must be held to take it (a key)
    health: int = 0  # mercenary: its health
    ability: MercenaryAbility | None = None  # mercenary: its help beyond fighting

    def allowed(self, stats: Mapping[str, int]) -> bool:
        """The card's thresholds (`requires`) are all met."""
        return all(t.met(stats.get(t.stat, 0)) for t in self.requires)

    @property
    def playable(self) -> bool:
        """The card carries something the engine can play."""
        return self.has_outcome or self.has_reward or bool(self.trap or self.monster)


@dataclass(frozen=True)
class Item:
    id: str
    count: int
    deck: str
    rarity: str
    slot: str
    hands: int
    price: int
    melee: int
    ranged: int
    stats: Mapping[str, int]
    far_seeing: bool
    single_use: bool
    neutralizes: tuple[str, ...]
    opens: tuple[str, ...]
    cures: str | None
    heal: int
    scout: bool = False
    backpack: int = 1
    backpack_size: int = 0


@dataclass(frozen=True)
class Deck:
    id: str
    cards: str
    type: str


@dataclass(frozen=True)
class MatrixCell:
    effect: str
    health: int
    max_width: int | None
    turns: int
    src: Src
    controlled: MatrixCell | None = None
    shielded: MatrixCell | None = None


@dataclass(frozen=True)
class Scale:
    """The relationship slider's scale: its ends, the lowest friendly level and the level of
    each attitude. `Scale()` is what the engine plays when the content gives no scale."""

    min: int = -1
    max: int = 1
    friendly: int = 1
    levels: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleEntry:
    """A rule entity: its phase and the numbers and names the engine plays (None where the
    rule does not give the value)."""

    id: str
    phase: str
    actions: int | None = None
    allowed_actions: tuple[str, ...] | None = None
    common_per_character: int | None = None
    decks: Mapping[str, str] | None = None
    """The shop's decks by role (`common`, `magic`, `unique`, `mercenaries`)."""
    all_unique: bool | None = None
    all_mercenaries: bool | None = None
    magic_per_character: int | None = None
    treasures_per_banknote: int | None = None
    banknotes_per_turn: int | None = None
    relationship_change: int | None = None
    teams: tuple[str, ...] | None = None
    slots: tuple[str, ...] | None = None
    same_accessories_worn: int | None = None
    hero_hands: int | None = None
    backpack_compartments: int | None = None
    scale: Scale | None = None
    items: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    see: tuple[str, ...] = ()


@dataclass(frozen=True)
class Title:
    """A relationship title: the pair it joins and where its slider starts."""

    id: str
    a: str
    b: str
    start: str


@dataclass(frozen=True)
class Catacombs:
    """Everything the catacombs rules read, typed."""

    characters: Mapping[str, Character]
    monsters: Mapping[str, Monster]
    tiles: Mapping[str, Tile]
    tokens: Mapping[str, Token]
    traps: Mapping[str, Trap]
    cards: Mapping[str, Card]
    items: Mapping[str, Item]
    decks: Mapping[str, Deck]
    tables: Mapping[str, Table]
    checks: Mapping[str, Check]
    matrix: Mapping[tuple[str, str], MatrixCell]
    relationships: Mapping[tuple[str, str], str]
    rules: Mapping[str, RuleEntry]
    titles: tuple[Title, ...] = ()
    """The relationship titles as printed (one per pair; `relationships` indexes them)."""
    defaults_used: tuple[str, ...] = field(default=())
    check_index: Mapping[tuple[str, str], Check] = field(default_factory=dict, compare=False)
    _found: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Answers of the lookups below (the data never changes, so neither do they)."""

    # ----- lookups ------------------------------------------------------------------------
    def check(self, subject: str, action: str) -> Check | None:
        """The first check (by id) about `subject` and `action`."""
        return self.check_index.get((subject, action))

    def table_for(self, token_type: str) -> Table | None:
        for t in self.tokens.values():
            if t.type == token_type and t.table and t.table in self.tables:
                return self.tables[t.table]
        return None

    def deck_of_type(self, deck_type: str) -> Deck | None:
        for d in self.decks.values():
            if d.type == deck_type:
                return d
        return None

    def cards_in(self, deck_id: str | None) -> list[str]:
        if deck_id is None:
            return []
        out = [c.id for c in self.cards.values() if c.deck == deck_id]
        out += [i.id for i in self.items.values() if i.deck == deck_id]
        return sorted(out)

    def copies(self, card_id: str) -> int:
        for pool in (self.cards, self.items):
            if card_id in pool:
                return pool[card_id].count
        return 1

    def tokens_of(self, token_type: str) -> list[Token]:
        return [t for t in self.tokens.values() if t.type == token_type]

    # ----- the rule entities the engine plays: the first (by id) that gives each value -------
    def _rule(self, name: str, test: Callable[[RuleEntry], bool]) -> RuleEntry | None:
        if ("rule", name) not in self._found:
            self._found[("rule", name)] = next(
                (self.rules[rid] for rid in sorted(self.rules) if test(self.rules[rid])), None
            )
        return self._found[("rule", name)]

    @property
    def turn_rule(self) -> RuleEntry | None:
        """The turn's actions: a `turn` rule with `actions` and `allowed_actions`."""
        return self._rule(
            "turn",
            lambda r: r.phase == "turn" and r.actions is not None and r.allowed_actions is not None,
        )

    @property
    def first_turn_rule(self) -> RuleEntry | None:
        """The first turn's actions: a `first-turn` rule with `actions`."""
        return self._rule("first-turn", lambda r: r.phase == "first-turn" and r.actions is not None)

    @property
    def far_seeing_rule(self) -> RuleEntry | None:
        """Exploring from afar: a rule with `actions` that names a far-seeing item."""

        def names_far_seeing(r: RuleEntry) -> bool:
            named = [self.items.get(i) for i in r.items]
            return r.actions is not None and any(i is not None and i.far_seeing for i in named)

        return self._rule("far-seeing", names_far_seeing)

    @property
    def bridge_rule(self) -> RuleEntry | None:
        """Building bridges: a rule with `actions` that uses a bridge token."""
        bridges = {t.id for t in self.tokens_of("bridge")}
        return self._rule(
            "bridge", lambda r: r.actions is not None and bool(bridges & set(r.tokens))
        )

    @property
    def shop_rule(self) -> RuleEntry | None:
        """The shop counter: the rule with `common_per_character`."""
        return self._rule("shop", lambda r: r.common_per_character is not None)

    @property
    def equipment_rule(self) -> RuleEntry | None:
        """Clothing slots, hands and the backpack: the rule with `same_accessories_worn`."""
        return self._rule("equipment", lambda r: r.same_accessories_worn is not None)

    @property
    def teams_rule(self) -> RuleEntry | None:
        """Team colours: the rule with `teams`."""
        return self._rule("teams", lambda r: r.teams is not None)

    @property
    def loan_rule(self) -> RuleEntry | None:
        """Lending banknotes: the rule with `treasures_per_banknote`."""
        return self._rule("loan", lambda r: r.treasures_per_banknote is not None)

    @property
    def usury_rule(self) -> RuleEntry | None:
        """Usury: the rule with `banknotes_per_turn`."""
        return self._rule("usury", lambda r: r.banknotes_per_turn is not None)

    @property
    def sympathy_rule(self) -> RuleEntry | None:
        """Raising sympathy: a rule with `relationship_change` that sees the improve check."""
        check = self.check("relationship", "improve")
        if check is None:
            return None
        return self._rule(
            "sympathy", lambda r: r.relationship_change is not None and check.id in r.see
        )

    @property
    def scale(self) -> Scale:
        """The relationship scale of the rule that gives one, else the engine's `Scale()`."""
        entry = self._rule("scale", lambda r: r.scale is not None)
        return entry.scale if entry is not None and entry.scale is not None else Scale()


# ----- building from the plain model -----------------------------------------------------------


def _thresholds(raw: Any, src: Src) -> tuple[Threshold, ...]:
    out = []
    for i, t in enumerate(raw or ()):
        where = Src(src.entity, f"{src.path}.{i}")
        out.append(Threshold(t["stat"], t.get("min"), t.get("max"), where))
    return tuple(out)


def _name(raw: Mapping[str, Any]) -> str:
    name = raw.get("name") or {}
    return name.get("en") or name.get("ru") or raw["id"]


@rule("setup.board-fields", "setup.stats")
def _character(e: Mapping[str, Any]) -> Character:
    """A character board: name, health, the stats, abilities, thrift, weapon and hire limits,
    starting kit and attitudes (the motive is printed, not played)."""
    stats = {s: int(e.get("stats", {}).get(s, 0)) for s in STATS}
    start = e.get("start", {})
    abilities = tuple(
        Ability(
            a["id"],
            a.get("effect", ""),
            int(a.get("amount", 0)),
            tuple(a.get("monsters", ())),
            bool(a.get("unnoticed", False)),
        )
        for a in e.get("abilities", ())
    )
    return Character(
        id=e["id"],
        name=_name(e),
        health=int(e["health"]),
        stats=stats,
        thrift=int(e.get("thrift", 0)),
        weapon_limit=int(e.get("weapon_limit", 0)),
        hire_limit=int(e.get("hire_limit", 0)),
        relic_keeper=bool(e.get("relic_keeper", False)),
        banknotes=int(start.get("banknotes", 0)),
        start_items=tuple(start.get("items", ())),
        antidotes=int(start.get("antidotes", 0)),
        secret_knowledge=int(start.get("secret_knowledge", 0)),
        spells=tuple(start.get("spells", ())),
        abilities=abilities,
        attitudes=dict(e.get("attitudes", {})),
    )


def _spans(raw: Mapping[str, int] | None) -> tuple[tuple[Span, int], ...]:
    return tuple((Span.parse(k), int(v)) for k, v in (raw or {}).items())


def _stats(st: Mapping[str, Any]) -> MonsterStats:
    dmg = st.get("damage", {})
    return MonsterStats(
        speed=int(st.get("speed", 0)),
        health=st.get("health"),
        melee=int(dmg.get("melee", 0)),
        ranged=int(dmg.get("ranged", 0)),
        poison=int(dmg.get("poison", 0)),
        acid=int(dmg.get("acid", 0)),
    )


def _monster(e: Mapping[str, Any]) -> Monster:
    stats = _stats(e.get("stats", {}))
    rewards = tuple(Reward.of(r) for r in e.get("rewards", {}).get("uncontrolled", ()))
    return Monster(
        id=e["id"],
        name=_name(e),
        stats=stats,
        health_by_players=_spans(e.get("health_by_players")),
        kit=int(e["kit"]),
        count=int(e.get("count", 1)),
        species=tuple((s["id"], int(s["kit"])) for s in e.get("species", ())),
        by_players=_spans(e.get("by_players")),
        min_players=int(e.get("min_players", 1)),
        attack=tuple(e.get("attack", ("melee",))),
        ranged_within_tile=bool(e.get("ranged_within_tile", False)),
        removed_after_attack=bool(e.get("removed_after_attack", False)),
        rewards=rewards,
        never_attacks=tuple(e.get("never_attacks", ())),
        killed_by=tuple(e.get("killed_by", ())),
        shield=bool(e.get("shield", False)),
        checks=tuple(e.get("checks", ())),
        special=tuple(s["id"] for s in e.get("special", ())),
        special_values={
            s["id"]: {k: int(s[k]) for k in ("turns", "health", "tiles", "treasures") if k in s}
            for s in e.get("special", ())
        },
        controlled=_stats(e["controlled"]) if "controlled" in e else None,
        controlled_rewards=tuple(Reward.of(r) for r in e.get("rewards", {}).get("controlled", ())),
        revive=faces_of(e.get("respawn", {}).get("revive")),
        per_lair=int(e.get("respawn", {}).get("per_lair", 0)),
        from_open_areas=bool(e.get("respawn", {}).get("from_open_areas", False)),
    )


def _cell(raw: Any) -> tuple[int, int] | None:
    if raw is None:
        return None
    return (int(raw[0]), int(raw[1]))


def _tile(e: Mapping[str, Any]) -> Tile:
    grid = e.get("grid", {})
    return Tile(
        id=e["id"],
        count=int(e.get("count", 1)),
        type=e.get("type", "labyrinth"),
        cols=int(grid.get("cols", 1)),
        rows=int(grid.get("rows", 1)),
        layout=tuple(e.get("layout", ())),
        exits={s: tuple(int(i) for i in e.get("exits", {}).get(s, ())) for s in SIDES},
        icons=tuple((i["icon"], _cell(i.get("cell")), i.get("side")) for i in e.get("icons", ())),
        open_traps=tuple((t["trap"], _cell(t["cell"])) for t in e.get("open_traps", ())),
    )


def _token(e: Mapping[str, Any]) -> Token:
    return Token(
        id=e["id"],
        count=int(e.get("count", 1)),
        type=e["type"],
        hidden=dict(e.get("hidden", {})),
        orientation=e.get("orientation"),
        width=int(e.get("width", 1)),
        depth=e.get("depth"),
        strength=int(e.get("strength", 0)),
        table=e.get("table"),
        checks=tuple(e.get("checks", ())),
        mark=e.get("mark"),
        value=int(e.get("value", 1)),
        team=e.get("team"),
    )


def _trap(e: Mapping[str, Any]) -> Trap:
    return Trap(
        id=e["id"],
        count=int(e.get("count", 1)),
        speed=int(e.get("speed", 0)),
        min_cells_per_action=e.get("min_cells_per_action"),
        health=int(e.get("health", 0)),
        deadly=bool(e.get("deadly", False)),
        poison_per_stop=int(e.get("poison_per_stop", 0)),
        jumpable=bool(e.get("jumpable", False)),
        stop_on_it=bool(e.get("stop_on_it", False)),
        jump=tuple((int(j["distance"]), int(j["cells"])) for j in e.get("jump", ())),
        neutralized_by=tuple(e.get("neutralized_by", ())),
        checks=tuple(e.get("checks", ())),
        stops=tuple(e.get("stops", ())),
    )


def _card(e: Mapping[str, Any]) -> Card:
    return Card(
        id=e["id"],
        count=int(e.get("count", 1)),
        deck=e["deck"],
        outcome=Outcome.of(e.get("outcome")),
        reward=Reward.of(e.get("reward")),
        weakening=bool(e.get("weakening", False)),
        trap=e.get("trap"),
        monster=e.get("monster"),
        opens_monster_door=bool(e.get("opens_monster_door", False)),
        who=e.get("who", "explorer"),
        cost_treasures=int(e.get("cost", {}).get("treasures", 0)),
        flood_after=int(e.get("flood", {}).get("after_turns", 0)),
        flood_health=int(e.get("flood", {}).get("health_per_turn", 0)),
        flood_lasts=int(e.get("flood", {}).get("lasts_turns", 0)),
        requires=_thresholds(e.get("requires"), Src(e["id"], "requires")),
        has_outcome="outcome" in e,
        has_reward="reward" in e,
        price=int(e.get("cost", {}).get("banknotes", 0)),
        damage=int(e.get("stats", {}).get("damage", 0)),
        attack=e.get("stats", {}).get("attack", ""),
        items=tuple(e.get("items", ())),
        health=int(e.get("stats", {}).get("health", 0)),
        ability=_ability(e.get("ability")),
    )


def _ability(raw: Mapping[str, Any] | None) -> MercenaryAbility | None:
    if not raw:
        return None
    return MercenaryAbility(
        effect=raw["effect"],
        amount=int(raw.get("amount", 0)),
        stat=raw.get("stat", ""),
        subjects=tuple(raw.get("subjects", ())),
    )


def _item(e: Mapping[str, Any]) -> Item:
    weapon = e.get("weapon", {})
    return Item(
        id=e["id"],
        count=int(e.get("count", 1)),
        deck=e["deck"],
        rarity=e.get("rarity", "common"),
        slot=e.get("slot", "none"),
        hands=int(e.get("hands", 0)),
        price=int(e.get("price", 0)),
        melee=int(weapon.get("melee", 0)),
        ranged=int(weapon.get("ranged", 0)),
        stats={k: int(v) for k, v in e.get("stats", {}).items()},
        far_seeing=bool(e.get("far_seeing", False)),
        single_use=bool(e.get("single_use", False)),
        neutralizes=tuple(e.get("neutralizes", ())),
        opens=tuple(e.get("opens", ())),
        cures=e.get("cures"),
        heal=int(e.get("heal", 0)),
        scout=bool(e.get("scout", False)),
        backpack=int(e.get("backpack", 1)),
        backpack_size=int(e.get("backpack_size", 0)),
    )


def _strings(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return ()
    return (raw,) if isinstance(raw, str) else tuple(raw)


def _check(e: Mapping[str, Any]) -> Check:
    cid = e["id"]
    roll = e.get("roll") or {}
    mods = tuple(
        Modifier(
            id=m.get("id", str(i)),
            requires=_thresholds(m.get("requires"), Src(cid, f"modifiers.{i}.requires")),
            success=faces_of(m["success"]) if "success" in m else None,
            add=int(m.get("add", 0)),
            cells=int(m.get("cells", 0)),
            reroll=bool(m.get("reroll", False)),
            pick_best=bool(m.get("pick_best", False)),
            items=tuple(m.get("items", ())),
            src=Src(cid, f"modifiers.{i}"),
        )
        for i, m in enumerate(e.get("modifiers", ()))
    )
    results = tuple(
        ResultBand(
            Span.parse(r["roll"]),
            r["result"],
            Outcome.of(r.get("outcome")),
            Src(cid, f"results.{i}"),
        )
        for i, r in enumerate(e.get("results", ()))
    )
    return Check(
        id=cid,
        subject=e["subject"],
        action=e["action"],
        requires=_thresholds(e.get("requires"), Src(cid, "requires")),
        forbidden_for=_strings(e.get("forbidden_for")),
        actions=int(e.get("actions", 1)),
        turns=int(e.get("turns", 0)),
        cost_treasures=int(e.get("cost", {}).get("treasures", 0)),
        cells=e.get("cells"),
        cells_add=e.get("cells_add"),
        items=tuple(e.get("items", ())),
        needs=tuple(e.get("needs", ())),
        dice=Dice.parse(roll["dice"]) if roll.get("dice") else None,
        success=faces_of(roll.get("success")),
        parity=bool(roll.get("parity", False)),
        results=results,
        modifiers=mods,
        on_success=Outcome.of(e.get("on_success")),
        on_failure=Outcome.of(e.get("on_failure")),
    )


def _table(e: Mapping[str, Any]) -> Table:
    tid = e["id"]
    dice = Dice.parse(e["dice"])
    rng = Span.parse(e["range"]) if e.get("range") else Span(dice.low, dice.high)
    rows = tuple(
        TableRow(
            Span.parse(r["roll"]),
            Reward.of(r.get("result")),
            r.get("outcome"),
            r.get("monster"),
            Src(tid, f"rows.{i}"),
            r.get("table"),
        )
        for i, r in enumerate(e.get("rows", ()))
    )
    mods = tuple(
        TableModifier(
            id=m.get("id", str(i)),
            stat=m.get("stat", ""),
            effect=m.get("effect", "add-to-roll"),
            steps=tuple(
                Step(
                    int(s.get("min", 0)),
                    int(s.get("add", 0)),
                    faces_of(s.get("success")),
                    Src(tid, f"modifiers.{i}.steps.{j}"),
                )
                for j, s in enumerate(m.get("steps", ()))
            ),
            check=m.get("check"),
            src=Src(tid, f"modifiers.{i}"),
        )
        for i, m in enumerate(e.get("modifiers", ()))
    )
    return Table(tid, dice, rng, e.get("bonus"), rows, mods)


def _matrix(entities: list[Mapping[str, Any]]) -> dict[tuple[str, str], MatrixCell]:
    out: dict[tuple[str, str], MatrixCell] = {}
    for e in entities:
        for i, row in enumerate(e.get("rows", ())):
            key = row.get("species") or row.get("monster")
            for obstacle, cell in row.get("cells", {}).items():
                out[(key, obstacle)] = _matrix_cell(
                    cell, Src(e["id"], f"rows.{i}.cells.{obstacle}")
                )
    return out


def _matrix_cell(cell: Mapping[str, Any], src: Src) -> MatrixCell:
    return MatrixCell(
        effect=cell["effect"],
        health=int(cell.get("health", 0)),
        max_width=cell.get("max_width"),
        turns=int(cell.get("turns", 0)),
        src=src,
        controlled=_matrix_cell(cell["controlled"], Src(src.entity, f"{src.path}.controlled"))
        if "controlled" in cell
        else None,
        shielded=_matrix_cell(cell["shielded"], Src(src.entity, f"{src.path}.shielded"))
        if "shielded" in cell
        else None,
    )


def _optional_int(raw: Mapping[str, Any], key: str) -> int | None:
    return int(raw[key]) if key in raw else None


def _optional_names(raw: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    return tuple(raw[key]) if key in raw else None


def _scale(raw: Mapping[str, Any]) -> Scale:
    default = Scale()
    return Scale(
        min=int(raw.get("min", default.min)),
        max=int(raw.get("max", default.max)),
        friendly=int(raw.get("friendly", default.friendly)),
        levels={k: int(v) for k, v in raw.get("levels", {}).items()},
    )


def _rule(e: Mapping[str, Any]) -> RuleEntry:
    return RuleEntry(
        id=e["id"],
        phase=e.get("phase", "turn"),
        actions=_optional_int(e, "actions"),
        allowed_actions=_optional_names(e, "allowed_actions"),
        common_per_character=_optional_int(e, "common_per_character"),
        decks=dict(e["decks"]) if "decks" in e else None,
        all_unique=e.get("all_unique"),
        all_mercenaries=e.get("all_mercenaries"),
        magic_per_character=_optional_int(e, "magic_per_character"),
        treasures_per_banknote=_optional_int(e, "treasures_per_banknote"),
        banknotes_per_turn=_optional_int(e, "banknotes_per_turn"),
        relationship_change=_optional_int(e, "relationship_change"),
        teams=_optional_names(e, "teams"),
        slots=_optional_names(e, "slots"),
        same_accessories_worn=_optional_int(e, "same_accessories_worn"),
        hero_hands=_optional_int(e, "hero_hands"),
        backpack_compartments=_optional_int(e, "backpack_compartments"),
        scale=_scale(e["scale"]) if "scale" in e else None,
        items=tuple(e.get("items", ())),
        tokens=tuple(e.get("tokens", ())),
        see=tuple(e.get("see", ())),
    )


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def from_plain(plain: Mapping[str, Any]) -> Catacombs:
    """Typed catacombs data from `Model.to_plain()` (or the same JSON from `relic export`)."""
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for e in plain.get("entities", ()):
        by_kind.setdefault(e["kind"], []).append(e)
    if not by_kind.get("character"):
        raise ContentError("the model has no `character` entities: cannot play the catacombs")
    if not any(t.get("type") != "final" for t in by_kind.get("tile", ())):
        raise ContentError("the model has no labyrinth `tile` entities: cannot build the labyrinth")

    def index(kind: str, build):
        return {e["id"]: build(e) for e in by_kind.get(kind, ())}

    return Catacombs(
        characters=index("character", _character),
        monsters=index("monster", _monster),
        tiles=index("tile", _tile),
        tokens=index("token", _token),
        traps=index("trap", _trap),
        cards=index("card", _card),
        items=index("item", _item),
        decks=index("deck", lambda e: Deck(e["id"], e.get("cards", "card"), e.get("type", ""))),
        tables=index("table", _table),
        checks=index("check", _check),
        matrix=_matrix(by_kind.get("matrix", [])),
        relationships={
            _pair(e["a"], e["b"]): e.get("start", "neutral")
            for e in by_kind.get("relationship", ())
        },
        rules=index("rule", _rule),
        titles=tuple(Title(e["id"], e["a"], e["b"], e.get("start", "neutral"))
                     for e in sorted(by_kind.get("relationship", ()), key=lambda e: e["id"])),
        check_index=_check_index(index("check", _check)),
    )


def _check_index(checks: Mapping[str, Check]) -> dict[tuple[str, str], Check]:
    out: dict[tuple[str, str], Check] = {}
    for cid in sorted(checks):
        out.setdefault((checks[cid].subject, checks[cid].action), checks[cid])
    return out
