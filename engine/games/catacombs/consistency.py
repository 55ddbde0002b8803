"""Engine-driven consistency checks of the catacombs content (run inside `relic check`).

Each finding names an entity and a dotted path, so the pipeline can point at the content line.
"""

from __future__ import annotations

import traceback
from collections import deque

from engine.core.api import EngineError
from engine.core.game import Finding
from engine.games.catacombs import rules  # noqa: F401 - registers every rules module
from engine.games.catacombs.bots import HeuristicBot
from engine.games.catacombs.counts import check_all
from engine.games.catacombs.data import SIDES, Catacombs, Table, Threshold
from engine.games.catacombs.setup import new_game

IMPLEMENTED_ABILITIES = frozenset(
    {
        "far-seeing",
        "steal-banknotes-at-station",
        "pass-vertical-crevice-free",
        "extra-action",
        "immune-to-monster",
    }
)
IMPLEMENTED_ICONS = frozenset(
    {
        "monster",
        "cache",
        "looted",
        "trap",
        "stash",
        "crevice",
        "shelter",
        "statue",
        "door",
        "sarcophagus",
        "artifact",
        "ceiling-hatch",
        "lever",
        "floor-hatch",
    }
)
SMOKE_ROUNDS = 30


# ----- roll tables ----------------------------------------------------------------------------


def table_bonuses(data: Catacombs, table: Table) -> set[int]:
    """Every bonus the content can add to this table's roll (cache tokens, sarcophagi)."""
    bonuses = {0}
    if table.bonus:
        bonuses = {
            int(t.hidden.get("bonus", 0))
            for t in data.tokens.values()
            if t.type == "cache" and t.table == table.id
        } or {0}
        for other in data.tables.values():
            if any(r.table == table.id for r in other.rows):
                bonuses.add(max(0, table.range.low - table.dice.low))
    return bonuses


def table_adds(table: Table) -> set[int]:
    mod = table.modifier("add-to-roll")
    return {0} | ({s.add for s in mod.steps} if mod else set())


def achievable_totals(data: Catacombs, table: Table) -> set[int]:
    return {
        face + bonus + add
        for face in table.dice.faces()
        for bonus in table_bonuses(data, table)
        for add in table_adds(table)
    }


def _near_row(table: Table, total: int) -> str:
    """The row just after a missing total (or the last row): where the gap shows."""
    for i, row in enumerate(table.rows):
        if row.roll.low > total:
            return f"rows.{i}.roll"
    return f"rows.{len(table.rows) - 1}.roll" if table.rows else "rows"


def check_tables(data: Catacombs) -> list[Finding]:
    out = []
    for table in sorted(data.tables.values(), key=lambda t: t.id):
        totals = achievable_totals(data, table)
        uncovered = sorted(t for t in totals if table.row_for(t) is None)
        if uncovered:
            out.append(
                Finding(
                    "table-uncovered-total",
                    f"table {table.id}: the totals {uncovered} can be rolled "
                    f"({table.dice} + bonuses {sorted(table_bonuses(data, table))} + modifiers "
                    f"{sorted(table_adds(table))}) but no row covers them",
                    table.id,
                    _near_row(table, uncovered[0]),
                )
            )
        jackpot = table.modifier("jackpot") is not None
        for i, row in enumerate(table.rows):
            if any(t in row.roll for t in totals):
                continue
            if jackpot and i == len(table.rows) - 1:
                continue
            out.append(
                Finding(
                    "table-unreachable-row",
                    f"table {table.id}: row {row.roll} can never be rolled "
                    f"(totals {sorted(totals)})",
                    table.id,
                    f"rows.{i}.roll",
                )
            )
    return out


# ----- thresholds -----------------------------------------------------------------------------


def all_thresholds(data: Catacombs) -> list[Threshold]:
    found: list[Threshold] = []
    for check in data.checks.values():
        found.extend(check.requires)
        for m in check.modifiers:
            found.extend(m.requires)
    for card in data.cards.values():
        found.extend(card.requires)
    return found


def check_thresholds(data: Catacombs) -> list[Finding]:
    out = []
    characters = list(data.characters.values())
    for t in all_thresholds(data):
        if t.stat == "health":
            values = [c.health for c in characters]
        else:
            values = [c.stats.get(t.stat, 0) for c in characters]
        if not any(t.met(v) for v in values):
            bound = f"{t.min}+" if t.max is None else f"{t.min}-{t.max}"
            out.append(
                Finding(
                    "threshold-unreachable",
                    f"no character meets {t.stat} {bound} (the characters have "
                    f"{sorted(set(values))})",
                    t.src.entity,
                    f"{t.src.path}.min" if t.min is not None else t.src.path,
                    hint="lower the threshold or raise a character's stat",
                )
            )
    for table in data.tables.values():
        for mod in table.modifiers:
            values = [c.stats.get(mod.stat, 0) for c in characters]
            for step in mod.steps:
                if not any(v >= step.min for v in values):
                    out.append(
                        Finding(
                            "threshold-unreachable",
                            f"table {table.id}: no character has {mod.stat} {step.min}+ for "
                            f"modifier {mod.id}",
                            step.src.entity,
                            f"{step.src.path}.min",
                            severity="warning",
                        )
                    )
    return out


# ----- counts and decks -----------------------------------------------------------------------


def check_tile_pile(data: Catacombs) -> list[Finding]:
    labyrinth = sum(t.count for t in data.tiles.values() if t.type == "labyrinth")
    finals = sum(t.count for t in data.tiles.values() if t.type == "final")
    if labyrinth >= 1 and finals == 1:
        return []
    first = sorted(data.tiles)[0] if data.tiles else None
    return [Finding("tile-pile", f"the tile pile needs labyrinth tiles and exactly one final "
                    f"tile (has {labyrinth} and {finals})", first)]


# ----- tiles ----------------------------------------------------------------------------------


def check_tiles(data: Catacombs) -> list[Finding]:
    """Every tile's exits reach each other over floor cells (else heroes get walled in)."""
    out = []
    for tile in sorted(data.tiles.values(), key=lambda t: t.id):
        exits = []
        for side in SIDES:
            for i in tile.exits.get(side, ()):
                cell = {
                    "north": (i, 0),
                    "south": (i, tile.rows - 1),
                    "west": (0, i),
                    "east": (tile.cols - 1, i),
                }[side]
                if not tile.floor(*cell):
                    out.append(
                        Finding(
                            "tile-exit-on-rock",
                            f"tile {tile.id}: the {side} exit {i} is rock",
                            tile.id,
                            f"exits.{side}",
                        )
                    )
                else:
                    exits.append(cell)
        if len(exits) < 2:
            continue
        seen = _flood(tile, exits[0])
        cut = [e for e in exits if e not in seen]
        if cut:
            out.append(
                Finding(
                    "tile-disconnected",
                    f"tile {tile.id}: the exit cells {cut} cannot be reached from {exits[0]} "
                    f"over floor cells",
                    tile.id,
                    "layout",
                    severity="warning",
                    hint="open the layout so every exit joins the others",
                )
            )
    return out


def _flood(tile, start: tuple[int, int]) -> set[tuple[int, int]]:
    seen = {start}
    queue = deque([start])
    while queue:
        c, r = queue.popleft()
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = (c + dc, r + dr)
            if n not in seen and tile.floor(*n):
                seen.add(n)
                queue.append(n)
    return seen


# ----- unimplemented effects -------------------------------------------------------------------


def check_effects(data: Catacombs) -> list[Finding]:
    out = []
    for ch in sorted(data.characters.values(), key=lambda c: c.id):
        for i, ability in enumerate(ch.abilities):
            if ability.effect and ability.effect not in IMPLEMENTED_ABILITIES:
                out.append(
                    Finding(
                        "effect-not-implemented",
                        f"character {ch.id}: the engine does not implement the ability effect "
                        f"'{ability.effect}' (simulations ignore it)",
                        ch.id,
                        f"abilities.{i}.effect",
                        severity="warning",
                    )
                )
    played_decks = {
        d.id for d in data.decks.values() if d.type in ("event", "hidden-trap", "stash")
    }
    for card in sorted(data.cards.values(), key=lambda c: c.id):
        if card.deck in played_decks and not card.playable:
            out.append(
                Finding(
                    "effect-not-implemented",
                    f"card {card.id}: no outcome, reward, trap or monster the engine can play "
                    f"(simulations treat it as no effect)",
                    card.id,
                    "text",
                    severity="warning",
                )
            )
    for tile in sorted(data.tiles.values(), key=lambda t: t.id):
        for i, (icon, _, _) in enumerate(tile.icons):
            if icon not in IMPLEMENTED_ICONS:
                out.append(
                    Finding(
                        "effect-not-implemented",
                        f"tile {tile.id}: the engine lays out but does not play the icon '{icon}'",
                        tile.id,
                        f"icons.{i}.icon",
                        severity="warning",
                    )
                )
    return out


# ----- smoke run ------------------------------------------------------------------------------


def smoke_run(data: Catacombs, max_players: int = 8) -> list[Finding]:
    """One seeded heuristic game per player count must end (or reach the bound) cleanly."""
    out = []
    for players in range(1, min(max_players, len(data.characters)) + 1):
        try:
            state = new_game(data, players, players, SMOKE_ROUNDS)
            bots = [HeuristicBot(players * 100 + i) for i in range(players)]
            steps = 0
            while not state.is_terminal and steps < 50_000:
                if state.is_chance_node:
                    state.apply(state.sample_chance())
                else:
                    state.apply(bots[state.current_player].choose(state))
                steps += 1
            if not state.is_terminal:
                out.append(
                    Finding(
                        "smoke-run-stuck",
                        f"a {players}-player game did not end within {steps} steps",
                        None,
                    )
                )
        except (EngineError, Exception) as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            out.append(
                Finding(
                    "smoke-run-error",
                    f"a seeded {players}-player game crashed: {type(exc).__name__}: {exc} "
                    f"(at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})",
                    None,
                )
            )
    return out


def run_all(data: Catacombs, max_players: int = 8, smoke: bool = True) -> list[Finding]:
    findings = (
        check_tables(data)
        + check_thresholds(data)
        + check_all(data, range(1, max_players + 1))
        + check_tile_pile(data)
        + check_tiles(data)
        + check_effects(data)
    )
    if smoke:
        findings += smoke_run(data, max_players)
    return findings
