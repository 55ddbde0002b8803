"""The dice dungeon's state: the sheet (map, tracks, chests, heroes, purse) and a step queue.

Everything the party does together is a queued step (see `registry.py`): chance steps (the
master's rolls, the heroes' fight dice, rerolls), decisions of the party (hand out the numbers,
place the shape, attack, spend abilities, split damage, buy levels) and automatic steps. The
head of the queue decides what the state is: a chance node, a decision of the seat leading this
turn (the lead passes round the table turn by turn; each seat picks its own hero's class), or
automatic work, which runs at once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from engine.core.api import CHANCE, TERMINAL, Action, IllegalActionError, Outcome
from engine.core.rng import Rng
from engine.core.state import GameState
from engine.games.dice_dungeon import registry
from engine.games.dice_dungeon.data import Adventure, Cell, Dungeon, HeroClass, Monster
from engine.games.dice_dungeon.registry import rule


@dataclass(slots=True)
class Hero:
    seat: int
    cls: str = ""
    level: int = 0
    wounds: int = 0
    spent: int = 0
    deaths: int = 0

    def copy(self) -> Hero:
        return Hero(self.seat, self.cls, self.level, self.wounds, self.spent, self.deaths)


@dataclass(slots=True)
class MonsterSheet:
    """A monster's row on the sheet: filled boxes of each track, and whether it is beaten."""

    health_boxes: int = 0
    attack_boxes: int = 0
    defeated: bool = False

    def copy(self) -> MonsterSheet:
        return MonsterSheet(self.health_boxes, self.attack_boxes, self.defeated)


@dataclass(slots=True)
class ChestSheet:
    boxes: int = 0
    opened: bool = False
    unlocked: bool = False
    disarmed: bool = False

    def copy(self) -> ChestSheet:
        return ChestSheet(self.boxes, self.opened, self.unlocked, self.disarmed)


@dataclass
class Tally:
    """What the report counts over a game."""

    deaths: int = 0
    lost_for_good: int = 0
    fights: int = 0
    fights_won: int = 0
    damage_taken: int = 0
    rerolls: int = 0
    numbers_lost: int = 0
    levels_bought: int = 0

    def copy(self) -> Tally:
        return Tally(**asdict(self))


class DungeonState(GameState):
    """One position of a dice dungeon game (a single adventure or a campaign of four)."""

    def __init__(self, data: Dungeon, players: int, seed: int, levels: list[str],
                 max_rounds: int):
        self.data = data
        self.players = players
        self.seed = seed
        self.levels = list(levels)
        self.max_rounds = max_rounds
        self.rng = Rng(seed)
        self.level = 0
        self.round = 0
        self.turn = 0
        self.queue: list[dict[str, Any]] = []
        self.heroes: list[Hero] = []
        self.gold = 0
        self.items: dict[str, int] = {}
        self.painted: set[Cell] = set()
        self.monster_rooms: list[int] = []
        self.chest_rooms: list[int] = []
        self.monsters: list[MonsterSheet] = []
        self.chests: list[ChestSheet] = []
        self.open_doors: list[int] = []
        self.dice: list[int] = []
        self.assigned: dict[str, int] = {}
        self.fight: dict[str, Any] | None = None
        self.attacked = False
        self.results: list[dict[str, Any]] = []
        self.carry: dict[str, Any] = {}
        self.ended_by = ""
        self.tally = Tally()
        self.events: list[str] = []
        self._memo: dict[str, Any] = {}

    # ----- what the sheet says ----------------------------------------------------------------
    @property
    def adventure(self) -> Adventure:
        return self.data.adventure(self.levels[min(self.level, len(self.levels) - 1)])

    @property
    @rule("engine.lead")
    def leader(self) -> int:
        """The seat that leads the party's decisions this turn."""
        return (max(self.turn, 1) - 1) % self.players

    def monster(self, index: int) -> Monster:
        return self.adventure.monsters[index]

    def hero_class(self, hero: Hero) -> HeroClass:
        return self.data.hero_class(hero.cls)

    @rule("heroes.start")
    def max_health(self, hero: Hero) -> int:
        r = self.data.rules
        return r.start_health + hero.level * r.level_health

    def health(self, hero: Hero) -> int:
        return max(0, self.max_health(hero) - hero.wounds)

    def ability_points(self, hero: Hero) -> int:
        r = self.data.rules
        return max(0, r.start_ability_points + hero.level * r.level_ability_points - hero.spent)

    def alive(self, hero: Hero) -> bool:
        return bool(hero.cls) and self.health(hero) > 0

    def living(self) -> list[Hero]:
        return [h for h in self.heroes if self.alive(h)]

    def monster_value(self, index: int, which: str) -> int:
        sheet = self.monsters[index]
        filled = sheet.health_boxes if which == "health" else sheet.attack_boxes
        return self.monster(index).value(which, filled)

    def room_of_monster(self, index: int) -> int:
        return self.monster_rooms[index]

    def monster_in_room(self, room: int) -> int:
        return self.monster_rooms.index(room)

    def chest_in_room(self, room: int) -> int:
        return self.chest_rooms.index(room)

    def has(self, item: str) -> int:
        return self.items.get(item, 0)

    def count_type(self, item_type: str) -> int:
        return sum(n for ident, n in self.items.items()
                   if ident in self.data.items and self.data.items[ident].type == item_type)

    def log(self, text: str) -> None:
        self.events.append(text)

    # ----- the queue --------------------------------------------------------------------------
    def push(self, *steps: dict[str, Any]) -> None:
        """Put steps at the front of the queue, in the order given."""
        self.queue[0:0] = list(steps)

    def advance(self) -> None:
        """Run automatic steps until a chance node, a decision or the end."""
        while self.queue and registry.STEPS[self.queue[0]["step"]].kind == registry.AUTO:
            step = self.queue.pop(0)
            run = registry.STEPS[step["step"]].run
            assert run is not None
            run(self, step)

    # ----- the OpenSpiel interface ------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if not self.queue:
            return TERMINAL
        head = self.queue[0]
        kind = registry.STEPS[head["step"]].kind
        if kind == registry.CHANCE:
            return CHANCE
        return int(head.get("seat", self.leader))

    def _head(self) -> tuple[dict[str, Any], registry.StepKind]:
        head = self.queue[0]
        return head, registry.STEPS[head["step"]]

    def legal_actions(self) -> list[Action]:
        cached = self._memo.get("legal")
        if cached is None:
            cached = self._memo["legal"] = super().legal_actions()
        return list(cached)

    def _player_actions(self) -> list[Action]:
        head, kind = self._head()
        assert kind.offer is not None
        return kind.offer(self, head)

    def chance_outcomes(self) -> list[Outcome]:
        if not self.queue:
            return []
        head, kind = self._head()
        if kind.kind != registry.CHANCE:
            return []
        cached = self._memo.get("chance")
        if cached is None:
            assert kind.offer is not None
            cached = self._memo["chance"] = kind.offer(self, head)
        return list(cached)

    def sample_chance(self) -> Action:
        """The core's draw (`Rng.weighted`: the same index from the same generator), with the
        integer weights of each list of chances worked out once instead of at every roll."""
        outcomes = self.chance_outcomes()
        scaled, total = _integer_weights(tuple(o.probability for o in outcomes))
        pick = self.rng.below(total)
        for index, size in enumerate(scaled):
            if pick < size:
                return outcomes[index].action
            pick -= size
        raise AssertionError("weights exhausted")

    def apply(self, action: Action) -> None:
        if self.is_terminal:
            raise IllegalActionError(action, self.summary(), "the game is over")
        if action not in self.legal_actions():
            who = "chance" if self.is_chance_node else f"player {self.current_player}"
            raise IllegalActionError(action, self.summary(), f"not a legal action for {who}")
        self._apply(action)

    def _apply(self, action: Action) -> None:
        self._memo = {}
        step = self.queue.pop(0)
        resolve = registry.STEPS[step["step"]].resolve
        assert resolve is not None
        resolve(self, step, action)
        self.advance()
        self._memo = {}

    def summary(self) -> str:
        head = self.queue[0]["step"] if self.queue else "over"
        heroes = ",".join(f"{h.cls}:{self.health(h)}" for h in self.heroes if h.cls)
        beaten = sum(m.defeated for m in self.monsters)
        name = self.levels[self.level] if self.level < len(self.levels) else "-"
        return (f"{name} turn {self.turn} step {head} gold {self.gold} heroes [{heroes}] "
                f"painted {len(self.painted)} beaten {beaten}")

    @property
    def returns(self) -> list[float]:
        won = 1.0 if self.ended_by == "won" else 0.0
        return [won] * self.players

    # ----- copies and plain data --------------------------------------------------------------
    def clone(self) -> DungeonState:
        other = DungeonState.__new__(DungeonState)
        other.__dict__.update(self.__dict__)
        other.rng = Rng(self.rng.state)
        other.queue = [dict(s) for s in self.queue]
        other.heroes = [h.copy() for h in self.heroes]
        other.items = dict(self.items)
        other.painted = set(self.painted)
        other.monster_rooms = list(self.monster_rooms)
        other.chest_rooms = list(self.chest_rooms)
        other.monsters = [m.copy() for m in self.monsters]
        other.chests = [c.copy() for c in self.chests]
        other.open_doors = list(self.open_doors)
        other.dice = list(self.dice)
        other.assigned = dict(self.assigned)
        other.fight = _copy_fight(self.fight)
        other.results = [dict(r) for r in self.results]
        other.carry = dict(self.carry)
        other.tally = self.tally.copy()
        other.events = list(self.events)
        other.levels = list(self.levels)
        other._memo = {}
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "seed": self.seed, "levels": list(self.levels),
            "max_rounds": self.max_rounds, "rng": self.rng.state, "level": self.level,
            "round": self.round, "turn": self.turn, "queue": [dict(s) for s in self.queue],
            "heroes": [asdict(h) for h in self.heroes], "gold": self.gold,
            "items": dict(sorted(self.items.items())),
            "painted": [list(c) for c in sorted(self.painted)],
            "monster_rooms": list(self.monster_rooms), "chest_rooms": list(self.chest_rooms),
            "monsters": [asdict(m) for m in self.monsters],
            "chests": [asdict(c) for c in self.chests],
            "open_doors": list(self.open_doors), "dice": list(self.dice),
            "assigned": dict(self.assigned), "fight": _copy_fight(self.fight),
            "attacked": self.attacked, "results": [dict(r) for r in self.results],
            "carry": dict(self.carry), "ended_by": self.ended_by, "tally": asdict(self.tally),
            "events": list(self.events),
        }

    @classmethod
    def from_dict(cls, data: Dungeon, raw: dict[str, Any]) -> DungeonState:
        state = cls(data, int(raw["players"]), int(raw["seed"]), list(raw["levels"]),
                    int(raw["max_rounds"]))
        state.rng = Rng(int(raw["rng"]))
        state.level, state.round, state.turn = int(raw["level"]), int(raw["round"]), \
            int(raw["turn"])
        state.queue = [dict(s) for s in raw["queue"]]
        state.heroes = [Hero(**h) for h in raw["heroes"]]
        state.gold = int(raw["gold"])
        state.items = {str(k): int(v) for k, v in raw["items"].items()}
        state.painted = {(int(c[0]), int(c[1])) for c in raw["painted"]}
        state.monster_rooms = [int(r) for r in raw["monster_rooms"]]
        state.chest_rooms = [int(r) for r in raw["chest_rooms"]]
        state.monsters = [MonsterSheet(**m) for m in raw["monsters"]]
        state.chests = [ChestSheet(**c) for c in raw["chests"]]
        state.open_doors = [int(r) for r in raw["open_doors"]]
        state.dice = [int(d) for d in raw["dice"]]
        state.assigned = {str(k): int(v) for k, v in raw["assigned"].items()}
        state.fight = _copy_fight(raw["fight"])
        state.attacked = bool(raw["attacked"])
        state.results = [dict(r) for r in raw["results"]]
        state.carry = dict(raw["carry"])
        state.ended_by = str(raw["ended_by"])
        state.tally = Tally(**raw["tally"])
        state.events = list(raw["events"])
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DungeonState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def _copy_fight(fight: dict[str, Any] | None) -> dict[str, Any] | None:
    if fight is None:
        return None
    return {k: (list(v) if isinstance(v, list) else v) for k, v in fight.items()}


@lru_cache(maxsize=256)
def _integer_weights(chances: tuple[Fraction, ...]) -> tuple[tuple[int, ...], int]:
    """Exact chances as integers over their common denominator, and the integers' total."""
    denominator = lcm(*(c.denominator for c in chances))
    scaled = tuple(int(c * denominator) for c in chances)
    return scaled, int(sum(chances, Fraction(0)) * denominator)
