"""Setting up a scenario: the board, the squad, the Demon and its troglodytes, the tokens."""

from __future__ import annotations

from engine.games.tunnels.board import Board
from engine.games.tunnels.data import Scenario, Tunnels
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import Monster, TunnelsState, Warrior
from engine.games.tunnels.treasure import lay_tokens


@rule("glitter.setup", "freedom.setup")
def new_game(data: Tunnels, board: Board, scenario: Scenario, seed: int,
             max_rounds: int) -> TunnelsState:
    """The scenario's setup: warriors on their start square, the Demon and troglodytes on
    theirs, the tokens on the warriors (the mortal player then chooses the loot's carrier) or
    on the ground."""
    from engine.games.tunnels.turn import advance, start_round

    s = TunnelsState(data, board, scenario, seed, max_rounds)
    start = board.at(scenario.mortal_start)
    s.warriors = [Warrior(c.id, start, grenades=c.grenades) for c in data.cards]
    s.monsters = [Monster("demon", "demon", board.at(scenario.demon_start))]
    for label, count in scenario.troglodytes:
        for _ in range(count):
            s.monsters.append(Monster(f"troglodyte-{s.next_uid}", "troglodyte", board.at(label)))
            s.next_uid += 1
    s.log(f"Scenario \"{scenario.name}\" on {board.name}. The squad ({len(s.warriors)} warriors) "
          f"starts at {board.where(start)}; the Demon at "
          f"{board.where(board.at(scenario.demon_start))}; troglodytes at "
          + ", ".join(f"{board.where(board.at(at))} x{n}" for at, n in scenario.troglodytes))
    lay_tokens(s)
    if scenario.loot_on != "warriors":
        start_round(s)
    advance(s)
    return s
