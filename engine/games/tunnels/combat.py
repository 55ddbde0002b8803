"""Fighting: melee attacks in one square, grenades, and damage (doubled in the hungry tunnels).

Each hit is one damage. One damage kills a troglodyte (further damage kills more troglodytes in
the same square), puts a wound token on the Demon's card, or fills one damage field of a
mortal warrior. In the hungry tunnels every damage to a figure standing there counts twice,
except a grenade's.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from engine.core.api import Action, Outcome
from engine.games.tunnels.data import DEMON, MORTAL, Attack
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import TunnelsState


@rule("base.demon-side")
def attack_of(s: TunnelsState, key: str) -> Attack:
    m = s.monster(key)
    if m is None:
        return s.data.card(key).attack
    return s.data.demon.attack if m.kind == "demon" else s.data.troglodyte.attack


@rule("base.melee")
def attack_options(s: TunnelsState, key: str) -> list[Action]:
    """A melee attack on any enemy in the figure's square; a warrior with a grenade may throw
    it into its own square or one next to it where demon-side figures stand."""
    side = s.side_of(key)
    here = s.cell_of(key)
    out = [Action.of("attack", target=t) for t in s.occupants(here, 1 - side)]
    if side == MORTAL and s.warrior(key).grenades > 0:
        reach = s.data.grenade.range
        cells = [c for c in range(len(s.board.cells)) if s.board.distance(here, c) <= reach]
        out += [Action.of("grenade", at=s.board.label(c)) for c in sorted(cells)
                if s.occupants(c, DEMON)]
    return out


def attack(s: TunnelsState, key: str, target: str) -> None:
    dice = attack_of(s, key).dice
    s.log(f"{s.The(key)} attacks {s.the(target)} with {dice} "
          f"{'die' if dice == 1 else 'dice'}.")
    s.queue.insert(0, {"t": "roll", "what": "attack", "by": key, "target": target})


def hits_distribution(attack_: Attack) -> dict[int, Fraction]:
    """Exact chance of each number of hits: every die hits on its faces independently."""
    return dict(_binomial(attack_.dice, attack_.p_hit))


@lru_cache(maxsize=64)
def _binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    return tuple((k, comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1))


def attack_outcomes(s: TunnelsState, head: dict) -> list[Outcome]:
    dist = hits_distribution(attack_of(s, head["by"]))
    return [Outcome(Action.of("hits", n=k), p) for k, p in dist.items() if p > 0]


def resolve_attack(s: TunnelsState, head: dict, hits: int) -> None:
    from engine.games.tunnels.movement import finish

    target = head["target"]
    s.log(f"{hits} hit{'s' if hits != 1 else ''}.")
    s.count("attacks:" + ("by the squad" if head["by"] in {c.id for c in s.data.cards}
                           else "by the demon side"))
    if hits:
        deal(s, target, hits, "melee")
    if s.phase != "over":
        finish(s)


@rule("base.grenade")
def throw(s: TunnelsState, key: str, cell: int) -> None:
    warrior = s.warrior(key)
    warrior.grenades -= 1
    s.log(f"{s.The(key)} throws a grenade at {s.board.where(cell)}.")
    s.queue.insert(0, {"t": "roll", "what": "grenade", "by": key, "cell": cell})


def grenade_outcomes(s: TunnelsState) -> list[Outcome]:
    p = s.data.grenade.p_explode
    return [Outcome(Action.of("blast", goes_off=True), p),
            Outcome(Action.of("blast", goes_off=False), 1 - p)]


@rule("hungry-tunnels.grenade")
def resolve_grenade(s: TunnelsState, head: dict, goes_off: bool) -> None:
    """A grenade that goes off gives its damage to every demon-side figure in the square,
    never doubled by the hungry tunnels."""
    from engine.games.tunnels.movement import finish

    cell = head["cell"]
    s.count("grenades:thrown")
    if not goes_off:
        s.log("The grenade is a dud.")
    else:
        s.log("The grenade goes off.")
        s.count("grenades:went off")
        for key in list(s.occupants(cell, DEMON)):
            if s.phase == "over":
                break
            if s.monster(key) is not None:
                deal(s, key, s.data.grenade.damage, "grenade")
    if s.phase != "over":
        finish(s)


@rule("hungry-tunnels.doubled", "hungry-tunnels.examples", "hungry.every-damage")
def deal(s: TunnelsState, key: str, amount: int, source: str) -> int:
    """Damage to a figure, multiplied by its square's multiplier unless the source is exempt;
    returns the damage dealt."""
    cell = s.cell_of(key)
    square = s.board.square(cell)
    multiplier = square.damage_multiplier
    if multiplier > 1 and source in square.multiplier_ignores:
        s.count(f"{square.id}:{source} not doubled")
        multiplier = 1
    total = amount * multiplier
    if multiplier > 1:
        s.count(f"{square.id}:damage doubled")
        s.count(f"{square.id}:extra damage", total - amount)
        s.log(f"The {square.name.lower()} double it to {total} damage.")
    m = s.monster(key)
    if m is None:
        hurt_warrior(s, key, total)
    elif m.kind == "demon":
        wound_demon(s, total)
    else:
        kill_troglodytes(s, key, total)
    return total


@rule("hungry.troglodytes")
def kill_troglodytes(s: TunnelsState, key: str, total: int) -> None:
    """Each damage kills a troglodyte: the one hit first, then others in its square."""
    cell = s.cell_of(key)
    others = [m.key for m in s.monsters if m.cell == cell and m.kind == "troglodyte"
              and m.key != key]
    dead = ([key, *others])[:total]
    s.monsters = [m for m in s.monsters if m.key not in dead]
    s.count("troglodytes killed", len(dead))
    names = ", ".join(s.name(k) for k in dead)
    s.log(f"{names[0].upper()}{names[1:]} {'dies' if len(dead) == 1 else 'die'} at "
          f"{s.board.where(cell)}.")


@rule("base.victory")
def wound_demon(s: TunnelsState, total: int) -> None:
    from engine.games.tunnels.turn import end_game

    demon = s.demon
    assert demon is not None
    track = s.data.demon.wounds or 1
    demon.wounds = min(track, demon.wounds + total)
    s.log(f"The Demon takes {total} wound token{'s' if total != 1 else ''} "
          f"({demon.wounds}/{track}).")
    if demon.wounds >= track:
        s.log("The Demon's wound track is full; it is banished.")
        end_game(s, MORTAL, "demon-banished")


@rule("base.victory")
def hurt_warrior(s: TunnelsState, card: str, total: int) -> None:
    """Damage markers fill the warrior's fields; when all are full it dies and drops its token;
    when the last warrior dies the demon player wins."""
    from engine.games.tunnels.treasure import drop
    from engine.games.tunnels.turn import end_game

    warrior = s.warrior(card)
    fields = s.data.card(card).fields
    warrior.damage = min(fields, warrior.damage + total)
    s.log(f"{s.The(card)} takes {total} damage ({warrior.damage}/{fields} fields).")
    if warrior.damage < fields:
        return
    warrior.alive = False
    warrior.grenades = 0
    s.count("warriors lost")
    s.count("lost:" + card)
    s.log(f"{s.The(card)} dies.")
    drop(s, card, warrior.cell)
    if not s.alive_warriors():
        end_game(s, DEMON, "squad-lost")
