"""Every step the catacombs state can queue, as small frozen values.

A step is a chance step (`Roll` dice, `Draw` a card from a pool), a decision of one seat
(`Decide`) or an automatic step (`Do`). Each kind names the task that carries it out
(`fn`, the name `@task(...)` registers it under). `to_dict` writes a step as the state's JSON
has it, `{"t": kind, "fn": name, **fields}` with the fields in the order below, and
`step_from_dict` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

STEPS: dict[str, type[Step]] = {}
"""Step classes by task name (for reading a state's queue back)."""


@dataclass(frozen=True, kw_only=True)
class Step:
    kind: ClassVar[str] = "do"
    fn: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "fn" in cls.__dict__:
            STEPS[cls.fn] = cls

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.kind, "fn": self.fn}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_fields(cls, raw: dict[str, Any]) -> Step:
        return cls(**{name: _value(raw[name]) for name in _field_names(cls)})


@dataclass(frozen=True, kw_only=True)
class Roll(Step):
    """A chance step: the dice are rolled and the task gets the total."""

    kind: ClassVar[str] = "roll"
    dice: str


@dataclass(frozen=True, kw_only=True)
class Draw(Step):
    """A chance step: a card is drawn from the pool and the task gets its id."""

    kind: ClassVar[str] = "draw"
    pool: str


@dataclass(frozen=True, kw_only=True)
class Decide(Step):
    """A decision: the seat picks one of the task's options and the task gets the action."""

    kind: ClassVar[str] = "decide"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Do(Step):
    """An automatic step, run as soon as it is at the head of the queue."""

    kind: ClassVar[str] = "do"


@dataclass(frozen=True)
class NewLabyrinth:
    """A tile drawn to start a separate labyrinth: its number and the mark of the floor hatch
    the hero came down (None for a cliff); the hero arrives on it."""

    number: int
    mark: str | None


class MayStartALabyrinth:
    """For steps with an `arrival` field: written flat, as `labyrinth`, `arrive` and `mark`
    after the other fields (and not at all without an arrival); `passage` is written only
    when true."""

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()  # type: ignore[misc]
        if not out.get("passage"):
            out.pop("passage", None)
        arrival = out.pop("arrival")
        if arrival is not None:
            out.update(labyrinth=arrival.number, arrive=True, mark=arrival.mark)
        return out

    @classmethod
    def from_fields(cls, raw: dict[str, Any]) -> Step:
        names = [n for n in _field_names(cls) if n != "arrival"]  # type: ignore[arg-type]
        arrival = NewLabyrinth(raw["labyrinth"], raw.get("mark")) if raw.get("arrive") else None
        values = {n: _value(raw[n]) for n in names if n in raw}
        return cls(**values, arrival=arrival)  # type: ignore[call-arg]


# ----- setup ------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class AssignCharacter(Draw):
    fn: ClassVar[str] = "assign-character"
    seat: int


@dataclass(frozen=True, kw_only=True)
class SetUpRelationships(Do):
    fn: ClassVar[str] = "relationships"


@dataclass(frozen=True, kw_only=True)
class OpenShop(Do):
    fn: ClassVar[str] = "open-shop"


@dataclass(frozen=True, kw_only=True)
class ToCounter(Draw):
    fn: ClassVar[str] = "to-counter"


@dataclass(frozen=True, kw_only=True)
class Shopping(Do):
    fn: ClassVar[str] = "shopping"


@dataclass(frozen=True, kw_only=True)
class Shop(Decide):
    fn: ClassVar[str] = "shop"


@dataclass(frozen=True, kw_only=True)
class Station(Decide):
    fn: ClassVar[str] = "station"


@dataclass(frozen=True, kw_only=True)
class Teams(Do):
    fn: ClassVar[str] = "teams"


@dataclass(frozen=True, kw_only=True)
class TeamChoice(Decide):
    fn: ClassVar[str] = "team"


@dataclass(frozen=True, kw_only=True)
class Start(Do):
    fn: ClassVar[str] = "start"


@dataclass(frozen=True, kw_only=True)
class FirstTile(Draw):
    fn: ClassVar[str] = "first-tile"


@dataclass(frozen=True, kw_only=True)
class BeginPlay(Do):
    fn: ClassVar[str] = "begin-play"


@dataclass(frozen=True, kw_only=True)
class NextPhase(Do):
    """Run at once (never queued) when a setup queue runs dry without starting play."""

    fn: ClassVar[str] = "next-phase"


# ----- turns and rounds -------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class EndTurn(Do):
    """Run at once (never queued) when the hero on turn has nothing left to do."""

    fn: ClassVar[str] = "end-turn"


@dataclass(frozen=True, kw_only=True)
class MonsterPhase(Do):
    fn: ClassVar[str] = "monster-phase"


@dataclass(frozen=True, kw_only=True)
class MonsterAct(Do):
    fn: ClassVar[str] = "monster-act"
    uid: int


@dataclass(frozen=True, kw_only=True)
class Acid(Do):
    fn: ClassVar[str] = "acid"


@dataclass(frozen=True, kw_only=True)
class NewRound(Do):
    fn: ClassVar[str] = "new-round"


@dataclass(frozen=True, kw_only=True)
class Death(Do):
    """Run at once (never queued) when a hero dies."""

    fn: ClassVar[str] = "death"
    seat: int
    cause: str


# ----- exploring --------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TileDrawn(MayStartALabyrinth, Draw):
    """A tile drawn for `slot`, to join the edge on `side` (None: the first tile of a new
    labyrinth); `passage`: the tile behind a hidden passage (a stash card instead of an
    event)."""

    fn: ClassVar[str] = "tile-drawn"
    seat: int
    slot: tuple[int, int]
    side: str | None
    arrival: NewLabyrinth | None = None
    passage: bool = False


@dataclass(frozen=True, kw_only=True)
class RotateTile(MayStartALabyrinth, Decide):
    """The explorer turns the drawn tile before it is laid."""

    fn: ClassVar[str] = "rotate-tile"
    tile: str
    slot: tuple[int, int]
    side: str | None
    arrival: NewLabyrinth | None = None
    passage: bool = False


@dataclass(frozen=True, kw_only=True)
class IconDrawn(Draw):
    """A card or token drawn for an icon of a new tile; `feature` is what it becomes there."""

    fn: ClassVar[str] = "icon-drawn"
    slot: tuple[int, int]
    feature: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class EventCard(Draw):
    fn: ClassVar[str] = "event-card"
    seat: int


@dataclass(frozen=True, kw_only=True)
class EventOffer(Decide):
    fn: ClassVar[str] = "event-offer"
    card: str


# ----- cards, treasure and trade ----------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ReceiveCard(Draw):
    fn: ClassVar[str] = "receive-card"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Repay(Do):
    fn: ClassVar[str] = "repay"
    seat: int


@dataclass(frozen=True, kw_only=True)
class TreasureLuck(Roll):
    fn: ClassVar[str] = "treasure-luck"
    faces: tuple[int, ...]
    seat: int
    table: str
    bonus: int
    why: str


@dataclass(frozen=True, kw_only=True)
class TreasureRoll(Roll):
    fn: ClassVar[str] = "treasure-roll"
    seat: int
    table: str
    bonus: int
    why: str


@dataclass(frozen=True, kw_only=True)
class SarcophagusRoll(Roll):
    """`first` is the first roll when luck lets the hero roll again."""

    fn: ClassVar[str] = "sarcophagus-roll"
    seat: int
    uid: str
    first: int | None


@dataclass(frozen=True, kw_only=True)
class SarcophagusSealed(Roll):
    fn: ClassVar[str] = "sarcophagus-sealed"
    seat: int
    uid: str


@dataclass(frozen=True, kw_only=True)
class PassageEdge(Decide):
    """Where the tile behind a hidden passage goes: one of the free open edges `edges`
    (`"tx,ty,side"`)."""

    fn: ClassVar[str] = "passage-edge"
    edges: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class PassageStash(Draw):
    """The stash card behind a hidden passage: laid on the passage's tile at `slot`, or given
    straight to the hero when the passage ends in a niche (`slot` None)."""

    fn: ClassVar[str] = "passage-stash"
    seat: int
    slot: tuple[int, int] | None = None


@dataclass(frozen=True, kw_only=True)
class TradeOffer(Decide):
    """`seat` is offered the deal by `by`; `take` is the item a swap asks for."""

    fn: ClassVar[str] = "trade-offer"
    by: int
    deal: str
    item: str
    take: str | None


# ----- traps, crevices and doors ----------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TrapRoll(Roll):
    fn: ClassVar[str] = "trap-roll"
    seat: int
    check: str
    trap: str


@dataclass(frozen=True, kw_only=True)
class RunUpFirst(Roll):
    fn: ClassVar[str] = "run-up-first"
    seat: int
    check: str
    to: str


@dataclass(frozen=True, kw_only=True)
class RunUpSecond(Roll):
    fn: ClassVar[str] = "run-up-second"
    seat: int
    check: str
    to: str
    first: int
    rerolled: bool


@dataclass(frozen=True, kw_only=True)
class JumpLuck(Roll):
    fn: ClassVar[str] = "jump-luck"
    seat: int
    crevice: str
    to: str


@dataclass(frozen=True, kw_only=True)
class HelpingHand(Roll):
    fn: ClassVar[str] = "helping-hand"
    helper: int
    seat: int
    crevice: str
    to: str


@dataclass(frozen=True, kw_only=True)
class BridgeRoll(Roll):
    fn: ClassVar[str] = "bridge-roll"
    seat: int
    crevice: str
    to: str


@dataclass(frozen=True, kw_only=True)
class DoorMonster(Draw):
    fn: ClassVar[str] = "door-monster"
    seat: int


@dataclass(frozen=True, kw_only=True)
class DoorBatter(Roll):
    """A hero batters a locked door (`door` is its uid); the check's faces break it."""

    fn: ClassVar[str] = "door-batter"
    seat: int
    door: str
    check: str


@dataclass(frozen=True, kw_only=True)
class DoorTrap(Draw):
    fn: ClassVar[str] = "door-trap"
    seat: int


@dataclass(frozen=True, kw_only=True)
class IntrigueDoorMonster(Draw):
    fn: ClassVar[str] = "intrigue-door-monster"
    seat: int
    pos: str


# ----- monsters ---------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class AttackRoll(Roll):
    """A hero's attack that needs the check's roll; `target` is the monster's uid."""

    fn: ClassVar[str] = "attack-roll"
    seat: int
    target: int
    check: str
    surprise: int


@dataclass(frozen=True, kw_only=True)
class RewardChoice(Decide):
    fn: ClassVar[str] = "reward"
    monster: str
    controlled: bool


@dataclass(frozen=True, kw_only=True)
class GhostResist(Roll):
    fn: ClassVar[str] = "ghost-resist"
    seat: int
    uid: int
    check: str


@dataclass(frozen=True, kw_only=True)
class ShakeOff(Roll):
    fn: ClassVar[str] = "shake-off"
    seat: int
    uid: int
    check: str


@dataclass(frozen=True, kw_only=True)
class Revive(Roll):
    fn: ClassVar[str] = "revive"
    uid: int


@dataclass(frozen=True, kw_only=True)
class DoomKnowledge(Draw):
    fn: ClassVar[str] = "doom-knowledge"
    pos: tuple[int, int, int, int]


# ----- reading and writing ----------------------------------------------------------------------
def step_from_dict(raw: dict[str, Any]) -> Step:
    """The step a state's JSON queue entry describes."""
    return STEPS[raw["fn"]].from_fields(raw)


@cache
def _field_names(cls: type[Step]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _plain(value: Any) -> Any:
    """JSON-shaped copy: tuples become lists, dicts and lists are copied."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _value(raw: Any) -> Any:
    """A field read back: a top-level list is a tuple (slots, positions, faces); a dict
    (a feature) is copied as it is."""
    if isinstance(raw, list):
        return tuple(raw)
    if isinstance(raw, dict):
        return _plain(raw)
    return raw
