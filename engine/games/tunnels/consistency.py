"""Consistency of the tunnels' content, driven by the engine: tables cover every face, hits
and goals are reachable, component counts suffice, and a seeded game of each scenario ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.api import EngineError
from engine.core.game import Finding
from engine.core.rng import derive_seed
from engine.games.tunnels.data import Tunnels
from engine.games.tunnels.registry import rule

if TYPE_CHECKING:
    from engine.games.tunnels.game import TunnelsGame


@rule("engine.consistency")
def run_all(game: TunnelsGame) -> list[Finding]:
    data = game.data
    out = tables(data) + thresholds(data) + counts(data) + boards(game)
    if not out:
        out += smoke(game)
    return out


def _cover(faces: list[frozenset[int]], sides: int) -> tuple[list[int], list[int]]:
    seen: dict[int, int] = {}
    for group in faces:
        for f in group:
            seen[f] = seen.get(f, 0) + 1
    missing = [f for f in range(1, sides + 1) if f not in seen]
    twice = sorted(f for f, n in seen.items() if n > 1 or not 1 <= f <= sides)
    return missing, twice


def tables(data: Tunnels) -> list[Finding]:
    out = []
    dice = data.booby_dice
    missing, twice = _cover([r.faces for r in data.booby_rows], dice.high)
    if missing or twice or dice.count != 1:
        out.append(Finding("table-coverage", f"the booby-trap table must give each face of "
                           f"{dice} one row (missing {missing}, doubled or impossible {twice})",
                           "booby-trap-table", "rows"))
    missing, twice = _cover([f.faces for f in data.fate_faces], data.fate_sides)
    if missing or twice:
        out.append(Finding("table-coverage", f"the fate die's symbols must cover faces 1 to "
                           f"{data.fate_sides} once each (missing {missing}, doubled {twice})",
                           "fate-die", "symbols"))
    if not {f.effect for f in data.fate_faces} >= {"troglodyte"}:
        out.append(Finding("table-coverage", "no fate-die face brings a troglodyte", "fate-die",
                           "symbols"))
    return out


def thresholds(data: Tunnels) -> list[Finding]:
    out = []
    sides = [(c.id, c.attack) for c in data.cards] + [
        ("troglodyte", data.troglodyte.attack), ("demon", data.demon.attack)]
    for entity, attack in sides:
        if not attack.hits or not all(1 <= f <= attack.sides for f in attack.hits):
            out.append(Finding("unreachable", f"{entity}: the hit faces {sorted(attack.hits)} "
                               "must be faces of a six-sided die", entity, "attack.hits"))
    g = data.grenade
    if not g.explodes or not all(1 <= f <= g.sides for f in g.explodes):
        out.append(Finding("unreachable", "the grenade must go off on some face of its die",
                           "grenade", "throw.explodes"))
    if not data.demon.wounds:
        out.append(Finding("unreachable", "the Demon needs a wound track", "demon", "wounds"))
    return out


def counts(data: Tunnels) -> list[Finding]:
    out = []
    fields = sum(c.fields for c in data.cards)
    if data.damage_markers < fields:
        out.append(Finding("count", f"{data.damage_markers} damage markers cannot fill the "
                           f"{fields} damage fields of the warrior cards", "damage", "count"))
    if data.demon.wounds and data.wound_tokens < data.demon.wounds:
        out.append(Finding("count", f"{data.wound_tokens} wound tokens cannot fill the Demon's "
                           f"track of {data.demon.wounds}", "wound", "count"))
    grenades = sum(c.grenades for c in data.cards)
    if data.grenade.count < grenades:
        out.append(Finding("count", f"{data.grenade.count} grenade tokens for {grenades} "
                           "grenades on the cards", "grenade", "count"))
    most_dice = max(a.dice for a in [c.attack for c in data.cards]
                    + [data.troglodyte.attack, data.demon.attack])
    if data.plain_dice < max(most_dice, 2):
        out.append(Finding("count", f"{data.plain_dice} plain dice, but an attack rolls "
                           f"{most_dice} and initiative two", "plain-die", "count"))
    for i, sc in enumerate(data.scenarios):
        trogs = sum(n for _, n in sc.troglodytes)
        if trogs > data.troglodyte.count:
            out.append(Finding("count", f"{sc.id} starts {trogs} troglodytes but there are "
                               f"{data.troglodyte.count}", "troglodyte", "count"))
        tokens = sc.loot_tokens + sc.decoy_tokens
        if sc.loot_on == "warriors" and tokens < len(data.cards):
            out.append(Finding("count", f"{sc.id} puts a token on each of {len(data.cards)} "
                               f"warriors but has {tokens}", "treasure-decoy", "count"))
        if sc.loot_tokens != 1:
            out.append(Finding("count", f"{sc.id} needs exactly one loot token, has "
                               f"{sc.loot_tokens}", sc.id, "scenario.loot.markers"))
        del i
    return out


def boards(game: TunnelsGame) -> list[Finding]:
    data = game.data
    out: list[Finding] = []
    for board_id, raw in data.boards.items():
        widths = {len(r.split()) for r in raw["rows"]}
        if len(widths) > 1:
            out.append(Finding("board", f"{board_id}: rows of different widths {sorted(widths)}",
                               board_id, "rows"))
    for sc in data.scenarios:
        try:
            board = game.board(sc.board)
            start = board.at(sc.mortal_start)
            demon = board.at(sc.demon_start)
            trogs = [(board.at(at), n) for at, n in sc.troglodytes]
            loot = board.at(sc.loot_at) if sc.loot_at else start
        except EngineError as exc:
            out.append(Finding("board", f"{sc.id}: {exc}", sc.id, "scenario"))
            continue
        if board.square(start).capacity < len(data.cards):
            out.append(Finding("count", f"{sc.id}: {len(data.cards)} warriors start at "
                               f"{sc.mortal_start}, which holds "
                               f"{board.square(start).capacity} per side", sc.id,
                               "scenario.mortal_start"))
        crowd: dict[int, int] = {demon: 1}
        for cell, n in trogs:
            crowd[cell] = crowd.get(cell, 0) + n
        for cell, n in crowd.items():
            if n > board.square(cell).capacity:
                out.append(Finding("count", f"{sc.id}: {n} demon-side figures start at "
                                   f"{board.label(cell)}, which holds "
                                   f"{board.square(cell).capacity}", sc.id,
                                   "scenario.troglodytes"))
        goals = board.of_square(sc.goal)
        if not goals:
            out.append(Finding("unreachable", f"{sc.id}: the goal square '{sc.goal}' is not on "
                               f"{sc.board}", sc.id, "victory.reaches"))
        elif min(board.distance(loot, g) for g in goals) >= 10_000 or \
                board.distance(start, loot) >= 10_000:
            out.append(Finding("unreachable", f"{sc.id}: the loot cannot reach '{sc.goal}' on "
                               f"{sc.board}", sc.id, "scenario.board"))
    return out


@rule("engine.smoke-game")
def smoke(game: TunnelsGame) -> list[Finding]:
    """A seeded heuristic game of each scenario ends by the rules within its turn bound."""
    out = []
    for sc in game.data.scenarios:
        seed = derive_seed(1, len(out))
        try:
            state = game.new_initial_state(2, seed, {"scenario": sc.id})
            bots = [game.make_bot("heuristic", seat, seed) for seat in (0, 1)]
            steps = 0
            while not state.is_terminal and steps < 20_000:
                action = (state.sample_chance() if state.is_chance_node
                          else bots[state.current_player].choose(state))
                state.apply(action)
                steps += 1
        except EngineError as exc:
            out.append(Finding("smoke-game", f"a seeded game of {sc.id} failed: {exc}", sc.id))
            continue
        if not state.is_terminal or state.ended_by == "turn-bound":
            out.append(Finding("smoke-game", f"a seeded game of {sc.id} did not end by the "
                               f"rules ({state.ended_by or 'still running'})", sc.id))
    return out
