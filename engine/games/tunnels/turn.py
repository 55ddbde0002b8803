"""The round and its phases: what the seat on turn may do, chance steps, and moving on.

`advance` runs every automatic step until the state waits for a chance outcome or a decision;
`player_actions`, `chance_outcomes` and `apply_action` are the state's protocol methods.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.api import Action, IllegalActionError, Outcome
from engine.core.game import TURN_BOUND
from engine.games.tunnels import combat, movement, threat, treasure
from engine.games.tunnels.data import DEMON, MORTAL
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import (
    INITIATIVE,
    MOVEMENT,
    OVER,
    PLAYERS,
    SETUP,
    SWAPS,
    THREAT,
    TunnelsState,
)


def player_actions(s: TunnelsState) -> list[Action]:
    if s.queue:
        return threat.decision_options(s, s.queue[0])
    if s.phase == SETUP:
        return treasure.give_options(s)
    if s.phase == SWAPS:
        return [*treasure.swap_options(s), Action.of("end-swaps")]
    if s.phase == MOVEMENT:
        if s.act is None:
            return [Action.of("activate", piece=k) for k in waiting(s)]
        return movement.activation_options(s)
    return []


def chance_outcomes(s: TunnelsState) -> list[Outcome]:
    head = s.queue[0]
    what = head["what"]
    if what == "initiative":
        return initiative_outcomes(s)
    if what == "booby":
        return movement.booby_outcomes(s)
    if what == "attack":
        return combat.attack_outcomes(s, head)
    if what == "grenade":
        return combat.grenade_outcomes(s)
    if what == "fate":
        return threat.fate_outcomes(s, head["dice"])
    raise AssertionError(what)


def apply_action(s: TunnelsState, action: Action) -> None:
    if s.queue and s.queue[0]["t"] == "roll":
        head = s.queue.pop(0)
        resolve_roll(s, head, action)
    elif s.queue:
        head = s.queue.pop(0)
        threat.decide(s, head, action)
    elif action.kind == "give-loot":
        treasure.give_loot(s, action.get("warrior"))
    elif action.kind == "swap":
        treasure.swap(s, action.get("a"), action.get("b"))
    elif action.kind == "end-swaps":
        begin_movement(s)
    elif action.kind == "activate":
        movement.activate(s, action.get("piece"))
    else:
        movement.act(s, action)
    advance(s)


def resolve_roll(s: TunnelsState, head: dict, action: Action) -> None:
    what = head["what"]
    if what == "initiative":
        roll_initiative(s, int(action.get("mortal")), int(action.get("demon")))
    elif what == "booby":
        movement.booby_trap(s, head, int(action.get("roll")))
    elif what == "attack":
        combat.resolve_attack(s, head, int(action.get("n")))
    elif what == "grenade":
        combat.resolve_grenade(s, head, bool(action.get("goes_off")))
    elif what == "fate":
        threat.resolve_fate(s, int(action.get("troglodytes")), int(action.get("curses")))
    else:  # pragma: no cover - the queue holds only the kinds above
        raise IllegalActionError(action, s.summary(), f"unknown roll {what}")


# ----- rounds and phases ----------------------------------------------------------------------


@rule("engine.turn-bound")
def start_round(s: TunnelsState) -> None:
    if s.round >= s.max_rounds:
        s.log(f"The turn bound of {s.max_rounds} rounds is reached.")
        end_game(s, None, TURN_BOUND)
        return
    s.round += 1
    s.phase = INITIATIVE
    s.queue.append({"t": "roll", "what": "initiative"})


def initiative_outcomes(s: TunnelsState) -> list[Outcome]:
    n = s.data.initiative_sides
    p = Fraction(1, n * n)
    return [Outcome(Action.of("initiative", mortal=a, demon=b), p)
            for a in range(1, n + 1) for b in range(1, n + 1)]


@rule("base.initiative")
def roll_initiative(s: TunnelsState, mortal: int, demon: int) -> None:
    """Each side rolls a die; the higher moves first; a tie goes to the content's side."""
    if mortal == demon:
        s.first = s.data.initiative_ties
    else:
        s.first = MORTAL if mortal > demon else DEMON
    s.log(f"Initiative rolls mortal {mortal}, demon {demon}; the {PLAYERS[s.first]} moves "
          "first.")
    s.swapped = []
    if s.scenario.initiative_swaps and treasure.swap_options(s):
        s.phase = SWAPS
    else:
        begin_movement(s)


def begin_movement(s: TunnelsState) -> None:
    s.phase = MOVEMENT
    s.moving = s.first
    s.sides_moved = 0
    s.activated = []


def waiting(s: TunnelsState) -> list[str]:
    """Figures of the moving side not yet activated this phase."""
    return [k for k in s.pieces_of(s.moving) if k not in s.activated]


@rule("base.turn")
def advance(s: TunnelsState) -> None:
    """Run the automatic steps until a chance node or a real decision."""
    while s.phase != OVER:
        if s.queue:
            head = s.queue[0]
            if head["t"] == "roll" or threat.decision_options(s, head):
                return
            threat.skip(s, s.queue.pop(0))
            continue
        if s.phase in (SETUP, SWAPS) or (s.phase == MOVEMENT and s.act is not None):
            return
        if s.phase == MOVEMENT:
            if waiting(s):
                return
            s.sides_moved += 1
            if s.sides_moved < 2:
                s.moving = 1 - s.moving
                continue
            threat.begin(s)
            continue
        if s.phase == THREAT:
            end_round(s)
            continue
        return


@rule("base.victory")
def end_round(s: TunnelsState) -> None:
    """After the threat phase: the demon player wins when the last round has ended."""
    if s.round >= s.data.rounds:
        s.log(f"Round {s.round} was the last; time runs out.")
        end_game(s, DEMON, "time-runs-out")
        return
    start_round(s)


def end_game(s: TunnelsState, winner: int | None, how: str) -> None:
    s.phase = OVER
    s.winners = [] if winner is None else [winner]
    s.ended_by = how
    s.queue = []
    s.act = None
    if winner is not None:
        s.log(f"The {PLAYERS[winner]} wins ({how}).")
