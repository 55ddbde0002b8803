"""What a simulated tunnels game tells the report: its scenario, the warriors lost, what each
special square did, whether the loot escaped; and the report's own sections over many games.
The play loop, parallel runs, the generic report and replays are the core's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core.game import GameSummary, Section
from engine.games.tunnels.state import TunnelsState

SQUARES = ("hungry-tunnels", "narrow-tunnel", "flooded-tunnel", "booby-trapped-tunnel",
           "demonic-mechanism", "pentagram-room", "exit", "lair", "stash")
"""The special squares, in the order of the report's section (the stash last)."""
EFFECTS = (
    "hungry-tunnels:damage doubled", "hungry-tunnels:extra damage",
    "hungry-tunnels:grenade not doubled", "narrow-tunnel:held off",
    "flooded-tunnel:stopped a move", "flooded-tunnel:left with the whole MOV",
    "booby-trapped-tunnel:troglodytes placed", "demonic-mechanism:extra fate dice",
    "pentagram-room:held more than the usual", "exit:held more than the usual",
    "exit:carried the loot out", "exit:showed up a decoy", "lair:troglodytes placed",
    "lair:placed next to the squad", "stash:carried the loot out", "stash:entered, no effect")
"""What each special square does, as the report lists it even when it never happened (the
booby trap's rows come from the games, one per row of its table)."""


def details(state: TunnelsState) -> dict[str, Any]:
    lost = sorted(w.card for w in state.warriors if not w.alive)
    demon = state.demon
    return {
        "scenario": state.scenario.id,
        "warriors_lost": len(lost),
        "lost": lost,
        "loot_escaped": state.ended_by == "loot-escaped",
        "demon_wounds": demon.wounds if demon else state.data.demon.wounds,
        "stats": dict(sorted(state.stats.items())),
    }


def _rate(a: float, b: float) -> float:
    return round(a / b, 4) if b else 0.0


def report_sections(games: Sequence[GameSummary]) -> list[Section]:
    n = len(games)
    by_scenario: Counter[str] = Counter(g.details["scenario"] for g in games)
    wins: Counter[str] = Counter()
    escaped: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    lost_by_card: Counter[str] = Counter()
    lost_count: Counter[str] = Counter()
    squares: Counter[str] = Counter({key: 0 for key in EFFECTS})
    endings: Counter[str] = Counter()
    for g in games:
        sc = g.details["scenario"]
        rounds[sc] += g.rounds
        endings[f"{sc}: {g.ended_by}"] += 1
        for seat in g.winners:
            wins[f"{sc}: {g.roles[seat]} wins"] += 1
        if g.details["loot_escaped"]:
            escaped[sc] += 1
        lost_by_card.update(g.details["lost"])
        lost_count[f"{g.details['warriors_lost']} lost"] += 1
        for key, value in g.details["stats"].items():
            square = key.split(":", 1)[0]
            if square in SQUARES:
                squares[key] += value
    scenario_ids = sorted(by_scenario)
    win_rates = {}
    for sc in scenario_ids:
        for role in ("mortal", "demon-player"):
            win_rates[f"{sc}: {role}"] = _rate(wins[f"{sc}: {role} wins"], by_scenario[sc])
    order = {s: i for i, s in enumerate(SQUARES)}
    square_rows = {k: round(v / n, 3) for k, v in
                   sorted(squares.items(), key=lambda kv: (order[kv[0].split(":")[0]], kv[0]))}
    total_lost = sum(g.details["warriors_lost"] for g in games)
    return [
        Section("games_by_scenario", "games by scenario", dict(sorted(by_scenario.items()))),
        Section("win_rate_by_scenario", "win rate by scenario and side", win_rates, percent=True),
        Section("endings_by_scenario", "endings by scenario", dict(sorted(endings.items()))),
        Section("rounds_by_scenario", "game length by scenario (mean rounds)",
                {sc: round(rounds[sc] / by_scenario[sc], 2) for sc in scenario_ids}),
        Section("loot_escaped", "the loot escaped", _rate(sum(escaped.values()), n),
                percent=True),
        Section("loot_escaped_by_scenario", "the loot escaped, by scenario",
                {sc: _rate(escaped[sc], by_scenario[sc]) for sc in scenario_ids}, percent=True),
        Section("warriors_lost", "warriors lost per game (mean)", round(total_lost / n, 3)
                if n else 0),
        Section("warriors_lost_games", "games by warriors lost",
                dict(sorted(lost_count.items()))),
        Section("warriors_lost_by_card", "deaths per game, by warrior",
                {c: round(lost_by_card[c] / n, 3) for c in sorted(lost_by_card)}),
        Section("special_squares", "what the special squares did (per game)", square_rows),
    ]
