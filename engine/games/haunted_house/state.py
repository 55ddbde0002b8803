"""The haunted-house state: explorers on their tracks, the rooms laid, the decks, the scenario,
and a queue of pending frames.

The queue drives everything that is not a free choice of the seat on turn: chance frames
(`roll`: a number of house dice; `draw`: a card or tile), decisions (`decide`: a choice of one
seat, such as turning a new tile or splitting damage) and automatic steps (`do`). While the
head of the queue is a chance frame the state is a chance node; while it is a decision, the
deciding seat is the current player. Frames are plain JSON, so states serialize exactly.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from engine.core.api import CHANCE, TERMINAL, Action, Outcome
from engine.core.rng import Rng
from engine.core.state import GameState
from engine.games.haunted_house import machine
from engine.games.haunted_house.data import TRAITS, House, Item
from engine.games.haunted_house.dice import pips
from engine.games.haunted_house.house import Layout

SETUP, PLAY, OVER = "setup", "play", "over"
EXPLORER, MONSTER = "explorer", "monster"
HERO, TRAITOR = "hero", "traitor"
TOKEN = "token:"
"""Item strings of scenario tokens: `token:<role>:<n>` (the physical item token)."""


@dataclass
class Seat:
    """One player's explorer."""

    seat: int
    explorer: str = ""
    marks: dict[str, int] = field(default_factory=dict)
    """Trait -> the step its clip is on (1 = the lowest value, 0 = the death mark)."""
    room: str = ""
    alive: bool = True
    items: list[str] = field(default_factory=list)
    side: str = ""
    spent: list[str] = field(default_factory=list)
    """Rooms whose once-a-game effect this explorer has used."""
    cause: str = ""


def new_turn(seat: int, phase: str = EXPLORER, moves: int = 0) -> dict[str, Any]:
    return {"seat": seat, "phase": phase, "moves": moves, "tried": [], "attacked": 0,
            "tasks": 0, "specials": [], "gave": 0, "dropped": []}


class HouseState(GameState):
    """One position of a haunted-house game."""

    def __init__(self, data: House, players: int, seed: int, max_rounds: int):
        self.data = data
        self.players = players
        self.seed = seed
        self.max_rounds = max_rounds
        self.rng = Rng(seed)
        self.seats: list[Seat] = [Seat(seat=i) for i in range(players)]
        self.rooms: dict[str, list[Any]] = {}
        self.pile: list[str] = []
        self.decks: dict[str, list[str]] = {"events": [], "items": [], "omens": [],
                                            "explorers": []}
        self.discards: list[str] = []
        self.omens: list[str] = []
        self.floor_items: dict[str, list[str]] = {}
        self.spent_rooms: list[str] = []
        self.scenario = ""
        self.traitor = -1
        self.finder = -1
        self.started = 0
        self.monster: dict[str, Any] = {}
        self.progress: dict[str, int] = {}
        self.destroyed: list[str] = []
        self.made: dict[str, int] = {}
        self.turn: dict[str, Any] = new_turn(0)
        self.fight: dict[str, Any] = {}
        self.queue: list[dict[str, Any]] = []
        self.phase = SETUP
        self.round = 0
        self.winners: list[int] = []
        self.ended_by = ""
        self.events: list[str] = []
        self._layout: Layout | None = None
        self._legal: list[Action] | None = None

    # ----- the OpenSpiel interface ------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.queue:
            head = self.queue[0]
            if head["t"] in ("roll", "draw"):
                return CHANCE
            if head["t"] == "decide":
                return int(head["seat"])
        return int(self.turn["seat"])

    def legal_actions(self) -> list[Action]:
        """The legal actions, computed once per position (every change goes through `advance`
        or `touch`, which forget them)."""
        if self._legal is None:
            self._legal = super().legal_actions()
        return list(self._legal)

    def _player_actions(self) -> list[Action]:
        if self.queue and self.queue[0]["t"] == "decide":
            return machine.OPTIONS[self.queue[0]["fn"]](self, self.queue[0])
        out: list[Action] = []
        for _, gen in machine.ACTIONS:
            out.extend(gen(self))
        return out

    def chance_outcomes(self) -> list[Outcome]:
        if not self.queue or self.queue[0]["t"] not in ("roll", "draw"):
            return []
        head = self.queue[0]
        if head["t"] == "roll":
            return list(_roll_outcomes(int(head["n"]), self.data.rules.faces))
        from fractions import Fraction

        cards = self.candidates(head)
        return [Outcome(Action.of("draw", card=c), Fraction(1, len(cards))) for c in cards]

    def candidates(self, frame: dict[str, Any]) -> list[str]:
        """What a draw frame may turn up (each equally likely)."""
        if frame["deck"] == "rooms":
            return [r for r in self.pile if frame["floor"] in self.data.rooms[r].floors]
        return list(self.decks[frame["deck"]])

    def _apply(self, action: Action) -> None:
        if self.queue and self.queue[0]["t"] in ("roll", "draw", "decide"):
            frame = self.queue.pop(0)
            machine.RESOLVERS[frame["fn"]](self, frame, action)
        else:
            machine.HANDLERS[action.kind](self, action)
        self.advance()

    def advance(self) -> None:
        """Run automatic steps until a chance node, a decision or a free choice; end the game
        as soon as a side has won."""
        from engine.games.haunted_house.scenario import check_goals

        self._legal = None
        while self.phase != OVER:
            check_goals(self)
            if self.phase == OVER or not self.queue or self.queue[0]["t"] != "do":
                break
            frame = self.queue.pop(0)
            machine.STEPS[frame["fn"]](self, frame)
        if self.phase == OVER:
            self.queue = []

    # ----- helpers the rules use --------------------------------------------------------------
    def push(self, *frames: dict[str, Any]) -> None:
        """Put frames at the head of the queue, in the order given."""
        self.queue[0:0] = list(frames)

    def log(self, text: str) -> None:
        self.events.append(text)

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            self._layout = Layout(self.data, self.rooms)
        return self._layout

    def touch(self) -> None:
        """Forget the cached layout and legal actions (call after laying a room)."""
        self._layout = None
        self._legal = None

    def who(self, seat: int) -> str:
        s = self.seats[seat]
        return self.data.explorers[s.explorer].name if s.explorer else f"seat {seat}"

    def room_name(self, room: str) -> str:
        return self.data.rooms[room].name

    def value(self, seat: int, trait: str) -> int:
        s = self.seats[seat]
        return self.data.explorers[s.explorer].tracks[trait].value(s.marks[trait])

    def item(self, name: str) -> Item:
        if name.startswith(TOKEN):
            return self.data.items[self.token_item(name)]
        return self.data.items[name]

    def token_item(self, name: str) -> str:
        role = name.split(":")[1]
        spec = self.data.scenarios[self.scenario].token(role) if self.scenario else None
        return spec.item if spec else "item-token"

    def item_name(self, name: str) -> str:
        if name.startswith(TOKEN):
            role = name.split(":")[1]
            spec = self.data.scenarios[self.scenario].token(role) if self.scenario else None
            return spec.name if spec else role
        return self.data.items[name].name

    def alive_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.alive]

    def heroes(self) -> list[int]:
        return [s.seat for s in self.seats if s.side == HERO]

    def in_room(self, room: str) -> list[int]:
        return [s.seat for s in self.seats if s.alive and s.room == room]

    # ----- serialization ----------------------------------------------------------------------
    _FIELDS = ("players", "seed", "max_rounds", "rooms", "pile", "decks", "discards", "omens",
               "floor_items", "spent_rooms", "scenario", "traitor", "finder", "started",
               "monster", "progress", "destroyed", "made", "turn", "fight", "queue", "phase",
               "round", "winners", "ended_by", "events")

    def to_dict(self) -> dict[str, Any]:
        raw = {name: copy.deepcopy(getattr(self, name)) for name in self._FIELDS}
        raw["rng"] = self.rng.state
        raw["seats"] = [asdict(s) for s in self.seats]
        return raw

    @classmethod
    def from_dict(cls, data: House, raw: dict[str, Any]) -> HouseState:
        state = cls(data, int(raw["players"]), int(raw["seed"]), int(raw["max_rounds"]))
        for name in cls._FIELDS:
            setattr(state, name, copy.deepcopy(raw[name]))
        state.rng = Rng(int(raw["rng"]))
        state.seats = [Seat(**copy.deepcopy(s)) for s in raw["seats"]]
        return state

    def clone(self) -> HouseState:
        twin = HouseState.__new__(HouseState)
        twin.data = self.data
        for name in self._FIELDS:
            value = getattr(self, name)
            setattr(twin, name, value if isinstance(value, (int, str)) else copy.deepcopy(value))
        twin.rng = Rng(self.rng.state)
        twin._legal = None
        twin.seats = [Seat(s.seat, s.explorer, dict(s.marks), s.room, s.alive, list(s.items),
                           s.side, list(s.spent), s.cause) for s in self.seats]
        twin._layout = None
        return twin

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HouseState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def summary(self) -> str:
        head = self.queue[0] if self.queue else {}
        what = f"{head.get('t')}:{head.get('fn')}" if head else "free"
        scenario = self.scenario or "none"
        return (f"round {self.round}, seat {self.turn['seat']} ({self.turn['phase']}), "
                f"scenario {scenario}, {what}")

    @property
    def returns(self) -> list[float]:
        return [1.0 if seat in self.winners else 0.0 for seat in range(self.players)]


@lru_cache(maxsize=64)
def _roll_outcomes(n: int, faces: tuple[int, ...]) -> tuple[Outcome, ...]:
    return tuple(Outcome(Action.of("roll", total=t), p) for t, p in pips(n, faces))


def marks_at_start(data: House, explorer: str) -> dict[str, int]:
    return {t: data.explorers[explorer].tracks[t].start for t in TRAITS}
