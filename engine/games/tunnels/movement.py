"""Moving a figure: steps, capacity per side, stopping, and the squares that act on entry.

A figure is activated, steps to squares next to it for 1 MOV each, stops (by choice, when its
MOV is spent, in a flooded tunnel, on a booby trap's 4, or among enemies), may swap a token at
the start or end of its move, and may then attack once or throw a grenade.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.api import Action, IllegalActionError, Outcome
from engine.games.tunnels import combat, treasure
from engine.games.tunnels.data import MORTAL, BoobyRow
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import Activation, TunnelsState


def mov_of(s: TunnelsState, key: str) -> int:
    m = s.monster(key)
    if m is None:
        return s.data.card(key).mov
    return s.data.demon.mov if m.kind == "demon" else s.data.troglodyte.mov


@rule("special-squares.usual-capacity", "narrow-tunnel.capacity", "pentagram-room.capacity",
      "exit.capacity")
def capacity(s: TunnelsState, cell: int) -> int:
    """Figures of each side a square holds: 3, or the special square's own number."""
    return s.board.square(cell).capacity


@rule("base.capacity")
def room(s: TunnelsState, cell: int, side: int) -> bool:
    return len(s.occupants(cell, side)) < capacity(s, cell)


def enemies_at(s: TunnelsState, cell: int, side: int) -> list[str]:
    return s.occupants(cell, 1 - side)


def activate(s: TunnelsState, key: str) -> None:
    s.act = Activation(key, s.side_of(key), mov_of(s, key))
    cell = s.cell_of(key)
    for n in s.board.neighbours[cell]:
        if s.board.square(n).capacity == 1 and not room(s, n, s.act.side):
            s.count("narrow-tunnel:held off")


@rule("flooded-tunnel.leave", "base.movement")
def step_options(s: TunnelsState) -> list[Action]:
    """Squares next to the figure with room for its side, while MOV lasts. Leaving a flooded
    tunnel costs the whole MOV, so it is only the first step of a move."""
    a = s.act
    assert a is not None
    if a.stage != "move" or a.mov < 1:
        return []
    here = s.cell_of(a.piece)
    if a.moved and (s.board.square(here).leave_costs_all or pinned(s, here, a.side)):
        return []
    return [Action.of("step", to=s.board.label(n)) for n in s.board.neighbours[here]
            if room(s, n, a.side)]


@rule("base.pinned")
def pinned(s: TunnelsState, cell: int, side: int) -> bool:
    """Leaving a square where enemies stand costs the whole MOV (one step, then stop)."""
    return s.data.leave_enemy_costs_all and bool(enemies_at(s, cell, side))


def activation_options(s: TunnelsState) -> list[Action]:
    a = s.act
    assert a is not None
    out: list[Action] = []
    mortal = a.side == MORTAL
    if a.stage == "move":
        if mortal and not a.moved and not a.start_swap:
            out += treasure.ground_options(s, a.piece)
        out += step_options(s)
        out.append(Action.of("stop"))
        return out
    if mortal and not a.end_swap:
        out += treasure.ground_options(s, a.piece)
    out += combat.attack_options(s, a.piece)
    out.append(Action.of("done"))
    return out


def act(s: TunnelsState, action: Action) -> None:
    a = s.act
    if a is None:
        raise IllegalActionError(action, s.summary(), "no figure is moving")
    kind = action.kind
    if kind == "step":
        step(s, s.board.at(action.get("to")))
    elif kind == "stop":
        a.stage = "end"
    elif kind == "take":
        if a.stage == "move":
            a.start_swap = True
        else:
            a.end_swap = True
        treasure.take(s, a.piece, action.get("token"))
    elif kind == "attack":
        combat.attack(s, a.piece, action.get("target"))
    elif kind == "grenade":
        combat.throw(s, a.piece, s.board.at(action.get("at")))
    elif kind == "done":
        finish(s)
    else:
        raise IllegalActionError(action, s.summary(), "not a movement action")


def finish(s: TunnelsState) -> None:
    if s.act is not None:
        s.activated.append(s.act.piece)
    s.act = None


def place_piece(s: TunnelsState, key: str, cell: int) -> None:
    m = s.monster(key)
    if m is not None:
        m.cell = cell
    else:
        s.warrior(key).cell = cell


def step(s: TunnelsState, cell: int) -> None:
    a = s.act
    assert a is not None
    here = s.cell_of(a.piece)
    if s.board.square(here).leave_costs_all:
        a.mov = 0
        s.count("flooded-tunnel:left with the whole MOV")
    elif pinned(s, here, a.side):
        a.mov = 0
        s.count("fights:left with the whole MOV")
    else:
        a.mov -= 1
    a.moved = True
    place_piece(s, a.piece, cell)
    s.log(f"{s.The(a.piece)} moves {s.board.where(here)} -> {s.board.where(cell)}.")
    enter(s, a.piece, cell)


@rule("special-squares.step-in", "both-sides")
def enter(s: TunnelsState, key: str, cell: int) -> None:
    """A special square acts as soon as a figure steps in: the goal, then the first-entry
    squares, then whatever stops the move."""
    side = s.side_of(key)
    square = s.board.square(cell)
    crowd = len(s.occupants(cell, side))
    if crowd > s.data.squares["tunnel"].capacity:
        s.count(f"{square.id}:held more than the usual")
    if side == MORTAL:
        if square.id == "stash" and s.scenario.goal != "stash":
            s.count("stash:entered, no effect")
        treasure.reach(s, key)
        if s.phase == "over":
            return
        if square.first_entry and cell not in s.triggered:
            first_entry(s, key, cell)
            if s.queue and s.queue[0]["what"] == "booby":
                return
    settle(s)


@rule("booby-trapped-tunnel.trigger", "demonic-mechanism.first-entry", "first-entry-once")
def first_entry(s: TunnelsState, key: str, cell: int) -> None:
    """A mortal warrior's first entry: the demonic mechanism adds fate dice for the next
    threat phase; the booby trap makes the demon player roll on its table."""
    square = s.board.square(cell)
    s.triggered.append(cell)
    s.triggered.sort()
    if square.first_entry_fate_dice:
        mechanism(s, square.first_entry_fate_dice)
    if square.first_entry_roll:
        s.queue.insert(0, {"t": "roll", "what": "booby", "piece": key, "cell": cell})


@rule("demonic-mechanism.extra-die")
def mechanism(s: TunnelsState, dice: int) -> None:
    s.extra_fate += dice
    s.count("demonic-mechanism:extra fate dice", dice)
    s.log(f"The demonic mechanism whirs; {dice} more fate die in the next threat phase.")


@rule("flooded-tunnel.stop", "base.engagement")
def settle(s: TunnelsState) -> None:
    """After a step: a flooded tunnel ends the move, so do enemies in the square and a spent
    MOV; a figure killed on the way ends its activation."""
    a = s.act
    if a is None or a.stage != "move":
        return
    if a.side == MORTAL and not s.warrior(a.piece).alive:
        finish(s)
        return
    here = s.cell_of(a.piece)
    if s.board.square(here).ends_movement:
        a.stage = "end"
        a.mov = 0
        s.count("flooded-tunnel:stopped a move")
        s.log(f"The water stops {s.the(a.piece)}.")
    elif enemies_at(s, here, a.side) or a.mov < 1:
        a.stage = "end"


def booby_outcomes(s: TunnelsState) -> list[Outcome]:
    dice = s.data.booby_dice
    dist = dice.distribution()
    return [Outcome(Action.of("booby", roll=face), Fraction(p)) for face, p in sorted(dist.items())]


def row_label(row: BoobyRow) -> str:
    """A booby-trap row as the report names it: "rolled 2-3: 1 damage"."""
    low, high = min(row.faces), max(row.faces)
    roll = str(low) if low == high else f"{low}-{high}"
    what = {"none": "nothing", "end-movement": "move ended", "place-warrior": "troglodyte"}
    effect = f"{row.amount} damage" if row.effect == "damage" else what.get(row.effect, row.effect)
    return f"rolled {roll}: {effect}"


def booby_row(s: TunnelsState, face: int) -> BoobyRow:
    for row in s.data.booby_rows:
        if face in row.faces:
            return row
    raise AssertionError(f"no booby-trap row for {face}")


@rule("booby-trapped-tunnel.roll-1", "booby-trapped-tunnel.roll-2-3",
      "booby-trapped-tunnel.roll-4", "booby-trapped-tunnel.roll-5",
      "booby-trapped-tunnel.roll-6")
def booby_trap(s: TunnelsState, head: dict, face: int) -> None:
    """The row of the booby-trap table for the demon player's roll."""
    from engine.games.tunnels.threat import spawn

    key, cell = head["piece"], head["cell"]
    row = booby_row(s, face)
    s.count(f"booby-trapped-tunnel:{row_label(row)}")
    s.log(f"The booby trap at {s.board.where(cell)} springs; the demon player rolls {face}.")
    if row.effect == "damage":
        combat.deal(s, key, row.amount, "booby-trapped-tunnel")
    elif row.effect == "end-movement" and s.act is not None:
        s.act.stage = "end"
        s.act.mov = 0
        s.log(f"{s.The(key)} must end its move.")
    elif row.effect == "place-warrior":
        spawn(s, cell, "booby trap")
    elif row.effect == "none":
        s.log("Nothing happens.")
    if s.phase != "over":
        settle(s)


