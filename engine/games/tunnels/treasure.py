"""Treasure tokens: who carries what, the secret swaps, dropping and picking up, and the goal.

In "All that glitters" the four tokens look alike from the back; only the mortal player knows
which is the loot (`engine.games.tunnels.view` gives the demon player's bots what the demon
player sees). In "To freedom" the one loot token is carried face up.
"""

from __future__ import annotations

from engine.core.api import Action
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import Token, TunnelsState

LOOT, DECOY = "loot", "decoy"
HIDDEN = "[mortal only] "
"""Prefix of log lines the demon player would not see (the replay shows them to a reader)."""


@rule("all-that-glitters.loot-token")
def lay_tokens(s: TunnelsState) -> None:
    sc = s.scenario
    values = [LOOT] * sc.loot_tokens + [DECOY] * sc.decoy_tokens
    if sc.loot_on == "ground":
        cell = s.board.at(sc.loot_at or sc.mortal_start)
        s.tokens = [Token(i, v, None, cell) for i, v in enumerate(values)]
        shown = "face up" if sc.face_up else "face down"
        s.log(f"The loot lies {shown} at {s.board.where(cell)}.")
        return
    s.tokens = [Token(i, v) for i, v in enumerate(values)]


def give_options(s: TunnelsState) -> list[Action]:
    return [Action.of("give-loot", warrior=w.card) for w in s.warriors]


@rule("all-that-glitters.setup")
def give_loot(s: TunnelsState, card: str) -> None:
    """One token on each warrior, the loot on the one the mortal player chooses."""
    from engine.games.tunnels.turn import start_round

    others = [w.card for w in s.warriors if w.card != card]
    loot = [t for t in s.tokens if t.value == LOOT]
    decoys = [t for t in s.tokens if t.value == DECOY]
    for token, holder in zip(loot + decoys, [card, *others], strict=False):
        token.holder = holder
    s.log("Each warrior takes a treasure token face down.")
    s.log(HIDDEN + f"The loot goes to {s.the(card)}.")
    start_round(s)


def holding(s: TunnelsState, card: str) -> str | None:
    token = s.carried(card)
    return token.value if token else None


# ----- swaps in the initiative phase ---------------------------------------------------------


def swap_options(s: TunnelsState) -> list[Action]:
    """Pairs of warriors in one square whose tokens differ and who have not swapped yet."""
    out = []
    alive = [w for w in s.alive_warriors() if s.swapped.count(w.card) < s.data.swaps_per_warrior]
    for i, a in enumerate(alive):
        for b in alive[i + 1:]:
            if a.cell == b.cell and holding(s, a.card) != holding(s, b.card):
                out.append(Action.of("swap", a=a.card, b=b.card))
    return out


@rule("all-that-glitters.initiative-swap")
def swap(s: TunnelsState, a: str, b: str) -> None:
    """Two warriors in one square trade tokens out of the demon player's sight."""
    ta, tb = s.carried(a), s.carried(b)
    if ta is not None:
        ta.holder = b
    if tb is not None:
        tb.holder = a
    s.swapped += [a, b]
    s.count("token-swaps")
    if ta is not None and tb is not None:
        s.log(f"{s.The(a)} and {s.the(b)} trade their treasure tokens.")
    else:
        giver, taker = (a, b) if ta is not None else (b, a)
        s.log(f"{s.The(giver)} hands a treasure token to {s.the(taker)}.")
    for card in (a, b):
        if holding(s, card) == LOOT:
            s.log(HIDDEN + f"The loot is now with {s.the(card)}.")
    for card in (a, b):
        reach(s, card)


# ----- the ground: dropping and taking --------------------------------------------------------


@rule("all-that-glitters.carrier-dies")
def drop(s: TunnelsState, card: str, cell: int) -> None:
    """A dead carrier's token falls where it stood, its value unrevealed."""
    token = s.carried(card)
    if token is None:
        return
    token.holder = None
    token.cell = cell
    s.log(f"Its treasure token falls to the ground at {s.board.where(cell)}, unrevealed.")
    s.count("tokens-dropped")


def ground_options(s: TunnelsState, card: str) -> list[Action]:
    """Taking a token from the ground: a different value for the one carried, or any when
    empty-handed (decoys are alike, so one of each value at most)."""
    if not s.scenario.ground_swaps:
        return []
    warrior = s.warrior(card)
    have = holding(s, card)
    values = sorted({t.value for t in s.ground(warrior.cell)})
    return [Action.of("take", token=v) for v in values if v != have]


@rule("all-that-glitters.ground-swap", "ground-swap-square")
def take(s: TunnelsState, card: str, value: str) -> None:
    """Swap the carried token for one on the ground of the warrior's square (or pick one up
    with empty hands)."""
    warrior = s.warrior(card)
    mine = s.carried(card)
    pick = next(t for t in s.ground(warrior.cell) if t.value == value)
    if mine is not None:
        mine.holder = None
        mine.cell = warrior.cell
    pick.holder = card
    pick.cell = None
    s.count("ground-swaps")
    face = f" ({value})" if s.scenario.face_up else ""
    verb = "swaps its token for one" if mine is not None else "picks up a token"
    s.log(f"{s.The(card)} {verb} from the ground{face}.")
    if value == LOOT and not s.scenario.face_up:
        s.log(HIDDEN + f"{s.The(card)} now carries the loot.")
    reach(s, card)


# ----- the goal -------------------------------------------------------------------------------


@rule("to-freedom.victory", "to-freedom.stash-is-exit", "glitter.goal", "glitter.decoy-at-exit",
      "stash.scenario-effect")
def reach(s: TunnelsState, card: str) -> None:
    """A carrier on the scenario's goal square: the loot ends the game; a decoy is shown and
    leaves the game. Stashes do nothing in a scenario whose goal they are not."""
    from engine.games.tunnels.turn import end_game

    warrior = s.warrior(card)
    square = s.board.square(warrior.cell)
    if square.id != s.scenario.goal:
        return
    token = s.carried(card)
    if token is None:
        return
    if token.value == LOOT:
        s.count(f"{square.id}:carried the loot out")
        s.log(f"{s.The(card)} carries the loot out at {s.board.where(warrior.cell)}!")
        end_game(s, 0, "loot-escaped")
        return
    if s.scenario.decoy_at_goal == "revealed-and-discarded":
        token.gone = True
        token.holder = None
        s.count("decoys-revealed")
        s.count(f"{square.id}:showed up a decoy")
        s.log(f"{s.The(card)} turns its token up at {s.board.where(warrior.cell)}; it is "
              "a decoy and leaves the game.")
