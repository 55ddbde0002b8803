"""The tunnels' state: figures, treasure tokens, the phase of the round and a queue of steps.

The round runs initiative -> (token swaps) -> movement -> threat. The queue holds what is not a
free choice of the seat on turn: chance steps (`roll`: initiative, attack dice, the booby trap,
a grenade, the fate dice) and decisions (`decide`: where a troglodyte goes, whom a curse hits).
While its head is a roll the state is a chance node; while it is a decision, the deciding seat
is the current player. `engine.games.tunnels.turn` moves the game on.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass
from typing import Any

from engine.core.api import CHANCE, TERMINAL, Action, Outcome
from engine.core.rng import Rng
from engine.core.state import GameState
from engine.games.tunnels.board import Board
from engine.games.tunnels.data import DEMON, MORTAL, Scenario, Tunnels

SETUP, INITIATIVE, SWAPS, MOVEMENT, THREAT, OVER = (
    "setup", "initiative", "swaps", "movement", "threat", "over")
SEATS = ("mortal", "demon-player")
PLAYERS = ("mortal player", "demon player")


@dataclass
class Warrior:
    """A mortal warrior on the board (its card gives MOV, attack and fields)."""

    card: str
    cell: int
    damage: int = 0
    grenades: int = 0
    alive: bool = True


@dataclass
class Monster:
    """A figure of the demon side: the Demon or a troglodyte."""

    key: str
    kind: str
    cell: int
    wounds: int = 0


@dataclass
class Token:
    """A treasure token: carried by a warrior, on the ground in a cell, or out of the game."""

    id: int
    value: str
    holder: str | None = None
    cell: int | None = None
    gone: bool = False


@dataclass
class Activation:
    """The figure being moved: MOV left, whether it has stepped, its stage and swaps used."""

    piece: str
    side: int
    mov: int
    moved: bool = False
    stage: str = "move"
    start_swap: bool = False
    end_swap: bool = False


class TunnelsState(GameState):
    """One position of a tunnels game (see the module docstring)."""

    def __init__(self, data: Tunnels, board: Board, scenario: Scenario, seed: int,
                 max_rounds: int):
        self.data = data
        self.board = board
        self.scenario = scenario
        self.seed = seed
        self.max_rounds = max_rounds
        self.rng = Rng(seed)
        self.round = 0
        self.phase = SETUP
        self.first = MORTAL
        self.moving = MORTAL
        self.sides_moved = 0
        self.warriors: list[Warrior] = []
        self.monsters: list[Monster] = []
        self.tokens: list[Token] = []
        self.act: Activation | None = None
        self.activated: list[str] = []
        self.swapped: list[str] = []
        self.triggered: list[int] = []
        self.extra_fate = 0
        self.queue: list[dict[str, Any]] = []
        self.next_uid = 1
        self.winners: list[int] = []
        self.ended_by = ""
        self.events: list[str] = []
        self.stats: dict[str, int] = {}
        self._legal: list[Action] | None = None
        """The legal actions of this position, once asked (never part of the state's value)."""

    # ----- the OpenSpiel interface ------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.queue:
            head = self.queue[0]
            return CHANCE if head["t"] == "roll" else int(head["seat"])
        if self.phase == MOVEMENT:
            return self.moving
        return MORTAL

    def legal_actions(self) -> list[Action]:
        """The legal actions, computed once per position (a copy, so callers may keep it)."""
        if self._legal is None:
            self._legal = super().legal_actions()
        return list(self._legal)

    def _player_actions(self) -> list[Action]:
        from engine.games.tunnels.turn import player_actions

        return player_actions(self)

    def chance_outcomes(self) -> list[Outcome]:
        from engine.games.tunnels.turn import chance_outcomes

        return chance_outcomes(self) if self.is_chance_node else []

    def _apply(self, action: Action) -> None:
        from engine.games.tunnels.turn import apply_action

        self._legal = None
        apply_action(self, action)
        self._legal = None

    @property
    def returns(self) -> list[float]:
        return [1.0 if seat in self.winners else 0.0 for seat in (MORTAL, DEMON)]

    def summary(self) -> str:
        where = ", ".join(f"{w.card}@{self.board.label(w.cell)}" for w in self.warriors if w.alive)
        head = self.queue[0]["t"] + ":" + self.queue[0]["what"] if self.queue else "-"
        return (f"{self.scenario.id} round {self.round} phase {self.phase} moving "
                f"{SEATS[self.moving]} act {self.act.piece if self.act else '-'} queue {head} "
                f"warriors [{where}] demon side {len(self.monsters)}")

    # ----- helpers the rules share ------------------------------------------------------------
    def log(self, text: str) -> None:
        self.events.append(text)

    def count(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def warrior(self, card: str) -> Warrior:
        for w in self.warriors:
            if w.card == card:
                return w
        raise KeyError(card)

    def monster(self, key: str) -> Monster | None:
        for m in self.monsters:
            if m.key == key:
                return m
        return None

    @property
    def demon(self) -> Monster | None:
        return self.monster("demon")

    def side_of(self, key: str) -> int:
        return DEMON if self.monster(key) is not None else MORTAL

    def cell_of(self, key: str) -> int:
        found = self.monster(key)
        return found.cell if found is not None else self.warrior(key).cell

    def alive_warriors(self) -> list[Warrior]:
        return [w for w in self.warriors if w.alive]

    def pieces_of(self, side: int) -> list[str]:
        """The figures of a side on the board, in a fixed order."""
        if side == MORTAL:
            return [w.card for w in self.warriors if w.alive]
        return [m.key for m in self.monsters]

    def occupants(self, cell: int, side: int) -> list[str]:
        if side == MORTAL:
            return [w.card for w in self.warriors if w.alive and w.cell == cell]
        return [m.key for m in self.monsters if m.cell == cell]

    def carried(self, card: str) -> Token | None:
        for t in self.tokens:
            if not t.gone and t.holder == card:
                return t
        return None

    def ground(self, cell: int) -> list[Token]:
        return [t for t in self.tokens if not t.gone and t.holder is None and t.cell == cell]

    def name(self, key: str) -> str:
        if key == "demon":
            return self.data.demon.name
        if key.startswith("troglodyte"):
            return f"{self.data.troglodyte.name.lower()} {key.rsplit('-', 1)[1]}"
        return self.data.card(key).name

    def the(self, key: str) -> str:
        """A figure as a sentence names it: "the Sergeant", "the Demon", "troglodyte 4"."""
        return self.name(key) if key.startswith("troglodyte") else f"the {self.name(key)}"

    def The(self, key: str) -> str:
        text = self.the(key)
        return text[0].upper() + text[1:]

    # ----- copies and plain dicts ---------------------------------------------------------------
    _PLAIN = ("seed", "max_rounds", "round", "phase", "first", "moving", "sides_moved",
              "activated", "swapped", "triggered", "extra_fate", "queue", "next_uid", "winners",
              "ended_by", "events", "stats")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: copy.deepcopy(getattr(self, k)) for k in self._PLAIN}
        out["scenario"] = self.scenario.id
        out["rng"] = self.rng.state
        out["warriors"] = [asdict(w) for w in self.warriors]
        out["monsters"] = [asdict(m) for m in self.monsters]
        out["tokens"] = [asdict(t) for t in self.tokens]
        out["act"] = asdict(self.act) if self.act else None
        return out

    @classmethod
    def from_dict(cls, data: Tunnels, board_for: Any, raw: dict[str, Any]) -> TunnelsState:
        scenario = data.scenario(raw["scenario"])
        state = cls(data, board_for(scenario.board), scenario, raw["seed"], raw["max_rounds"])
        for k in cls._PLAIN:
            setattr(state, k, copy.deepcopy(raw[k]))
        state.rng = Rng(raw["rng"])
        state.warriors = [Warrior(**w) for w in raw["warriors"]]
        state.monsters = [Monster(**m) for m in raw["monsters"]]
        state.tokens = [Token(**t) for t in raw["tokens"]]
        state.act = Activation(**raw["act"]) if raw["act"] else None
        return state

    def clone(self) -> TunnelsState:
        other = TunnelsState.__new__(TunnelsState)
        other.__dict__.update(self.__dict__)
        for k in self._PLAIN:
            value = getattr(self, k)
            if isinstance(value, list | dict):
                setattr(other, k, copy.deepcopy(value))
        other.rng = Rng(self.rng.state)
        other.warriors = [Warrior(**asdict(w)) for w in self.warriors]
        other.monsters = [Monster(**asdict(m)) for m in self.monsters]
        other.tokens = [Token(**asdict(t)) for t in self.tokens]
        other.act = Activation(**asdict(self.act)) if self.act else None
        other._legal = None
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TunnelsState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


