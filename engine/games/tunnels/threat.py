"""The threat phase: the fate dice, new troglodytes (always welcome in a lair) and curses."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

from engine.core.api import Action, IllegalActionError, Outcome
from engine.games.tunnels.data import DEMON, Tunnels
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import THREAT, Monster, TunnelsState


def fate_chances(data: Tunnels) -> dict[str, Fraction]:
    """The chance of each effect on one fate die."""
    out: dict[str, Fraction] = {}
    for face in data.fate_faces:
        out[face.effect] = out.get(face.effect, Fraction(0)) + Fraction(len(face.faces),
                                                                         data.fate_sides)
    return out


def fate_distribution(data: Tunnels, dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact chance of (troglodytes, curses) among `dice` fate dice (a multinomial)."""
    p = fate_chances(data)
    return dict(_multinomial(p.get("troglodyte", Fraction(0)), p.get("curse", Fraction(0)),
                             dice))


@lru_cache(maxsize=64)
def _multinomial(pt: Fraction, pc: Fraction, dice: int
                 ) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    pn = 1 - pt - pc
    out: dict[tuple[int, int], Fraction] = {}
    for t in range(dice + 1):
        for c in range(dice - t + 1):
            n = dice - t - c
            ways = factorial(dice) // (factorial(t) * factorial(c) * factorial(n))
            chance = ways * pt**t * pc**c * pn**n
            if chance:
                out[(t, c)] = chance
    return tuple(out.items())


@rule("base.fate-dice")
def begin(s: TunnelsState) -> None:
    """The demon player rolls the phase's fate dice plus any the demonic mechanism added."""
    s.phase = THREAT
    dice = s.data.fate_dice + s.extra_fate
    if s.extra_fate:
        s.count("demonic-mechanism:threat phases with an extra die")
    s.extra_fate = 0
    s.log(f"Threat phase. The demon player rolls {dice} fate dice.")
    s.queue.append({"t": "roll", "what": "fate", "dice": dice})


def fate_outcomes(s: TunnelsState, dice: int) -> list[Outcome]:
    return [Outcome(Action.of("fate", troglodytes=t, curses=c), p)
            for (t, c), p in sorted(fate_distribution(s.data, dice).items())]


def resolve_fate(s: TunnelsState, troglodytes: int, curses: int) -> None:
    s.log(f"The fate dice show {troglodytes} troglodyte{'s' if troglodytes != 1 else ''} "
          f"and {curses} curse{'s' if curses != 1 else ''}.")
    s.queue += [{"t": "decide", "what": "place", "seat": DEMON}] * troglodytes
    s.queue += [{"t": "decide", "what": "curse", "seat": DEMON}] * curses


@rule("lair.troglodyte", "base.placement")
def placement_cells(s: TunnelsState) -> list[int]:
    """Where a new troglodyte may go: a lair whenever it has room for the demon side; any
    other square with room and no mortal warrior in it or next to it."""
    from engine.games.tunnels.movement import room

    if sum(1 for m in s.monsters if m.kind == "troglodyte") >= s.data.troglodyte.count:
        return []
    near = set()
    for w in s.alive_warriors():
        near.add(w.cell)
        near.update(s.board.neighbours[w.cell])
    out = []
    for cell in range(len(s.board.cells)):
        if not room(s, cell, DEMON):
            continue
        if s.board.square(cell).always_place or cell not in near:
            out.append(cell)
    return out


def decision_options(s: TunnelsState, head: dict) -> list[Action]:
    if head["what"] == "place":
        return [Action.of("place", at=s.board.label(c)) for c in placement_cells(s)]
    if head["what"] == "curse":
        return [Action.of("curse", warrior=w.card) for w in s.alive_warriors()]
    return []


def skip(s: TunnelsState, head: dict) -> None:
    if head["what"] == "place":
        s.log("No troglodyte can be placed.")
        s.count("threat:troglodytes that found no room")


def decide(s: TunnelsState, head: dict, action: Action) -> None:
    if head["what"] == "place" and action.kind == "place":
        cell = s.board.at(action.get("at"))
        spawn(s, cell, "fate")
    elif head["what"] == "curse" and action.kind == "curse":
        curse(s, action.get("warrior"))
    else:
        raise IllegalActionError(action, s.summary(), f"expected a {head['what']} decision")


def spawn(s: TunnelsState, cell: int, why: str) -> bool:
    """Put a troglodyte from the supply on a square (if the supply and the square allow)."""
    from engine.games.tunnels.movement import room

    if sum(1 for m in s.monsters if m.kind == "troglodyte") >= s.data.troglodyte.count:
        s.log("No troglodyte is left in the supply.")
        return False
    if not room(s, cell, DEMON):
        s.log(f"{s.board.where(cell)} has no room for a troglodyte.")
        return False
    key = f"troglodyte-{s.next_uid}"
    s.next_uid += 1
    s.monsters.append(Monster(key, "troglodyte", cell))
    square = s.board.square(cell)
    if why == "fate" and square.always_place:
        s.count("lair:troglodytes placed")
        if any(w.cell == cell or cell in s.board.neighbours[w.cell] for w in s.alive_warriors()):
            s.count("lair:placed next to the squad")
    if why == "booby trap":
        s.count("booby-trapped-tunnel:troglodytes placed")
    s.log(f"A troglodyte appears at {s.board.where(cell)} ({why}).")
    return True


@rule("base.fate-dice")
def curse(s: TunnelsState, card: str) -> None:
    from engine.games.tunnels.combat import deal

    face = next(f for f in s.data.fate_faces if f.effect == "curse")
    s.log(f"A curse falls on {s.the(card)}.")
    s.count("threat:curses")
    deal(s, card, face.amount, "curse")


