"""What a simulated game tells the report: the scenario, when it began, each side's result,
who survived; and the game's own report sections. The play loop, parallel runs, the generic
report and replays are the core's (`engine/core/sim.py`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core.game import GameSummary, Section
from engine.games.haunted_house.state import HERO, TRAITOR, HouseState

UNSTARTED = "explorer"
"""The role of every seat in a game whose scenario never began."""


def progress(state: HouseState, seat: int) -> float:
    """A rollout's value short of the end (for MCTS): alive, traits, the side's progress."""
    s = state.seats[seat]
    if not s.alive and s.side != HERO:
        return 0.0
    tracks = state.data.explorers[s.explorer].tracks
    health = sum(s.marks[t] / tracks[t].top for t in s.marks) / 4 if s.alive else 0.0
    value = 0.2 + 0.2 * health
    if state.scenario and s.side:
        sc = state.data.scenarios[state.scenario]
        task = sc.side(s.side).task
        value += 0.3 * state.progress.get(task.id, 0) / max(1, task.needed(state.players))
        if s.side == TRAITOR:
            dead = sum(1 for h in state.heroes() if not state.seats[h].alive)
            value += 0.3 * dead / max(1, len(state.heroes()))
    return min(value, 0.95)


def summary_details(state: HouseState) -> dict[str, Any]:
    """The per-game record of `relic sim --format json`."""
    roles = [s.side or UNSTARTED for s in state.seats]
    heroes = state.heroes()
    return {
        "roles": roles,
        "explorers": [s.explorer for s in state.seats],
        "scenario": state.scenario,
        "started_round": state.started if state.scenario else None,
        "traitor": state.traitor if state.scenario else None,
        "traitor_alive": state.seats[state.traitor].alive if state.scenario else None,
        "heroes": len(heroes),
        "heroes_alive": sum(1 for h in heroes if state.seats[h].alive),
        "omens": len(state.omens),
        "rooms": len(state.rooms),
        "dead": [{"seat": s.seat, "cause": s.cause} for s in state.seats if not s.alive],
    }


def _side(game: GameSummary) -> str:
    if not game.winners:
        return "none"
    roles = {game.roles[w] for w in game.winners}
    return "traitor" if roles == {TRAITOR} else "heroes"


def _band(round_: int) -> str:
    low = (round_ - 1) // 3 * 3 + 1
    return f"rounds {low}-{low + 2}"


def report_sections(games: Sequence[GameSummary]) -> list[Section]:
    """Wins by side and by scenario, when the scenario began, survival, length after the
    start, and how the games ended."""
    n = max(1, len(games))
    sides = Counter(_side(g) for g in games)
    by_scenario: Counter[str] = Counter()
    played: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    start_rounds, after = [], []
    traitors = traitors_alive = heroes = heroes_alive = 0
    for g in games:
        d = g.details
        scenario = d.get("scenario") or "never began"
        played[scenario] += 1
        by_scenario[f"{scenario}: {_side(g)}"] += 1
        if d.get("scenario"):
            start_rounds.append(d["started_round"])
            after.append(g.rounds - d["started_round"])
            starts[_band(d["started_round"])] += 1
            traitors += 1
            traitors_alive += bool(d["traitor_alive"])
            heroes += d["heroes"]
            heroes_alive += d["heroes_alive"]
    scenario_rates = {k: round(v / played[k.split(": ")[0]], 4)
                      for k, v in sorted(by_scenario.items())}

    def mean(values: list[int]) -> float:
        return round(sum(values) / len(values), 2) if values else 0.0

    return [
        Section("wins_by_side", "wins by side",
                {k: round(sides[k] / n, 4) for k in ("heroes", "traitor", "none")},
                percent=True),
        Section("scenarios_played", "scenarios played (games)", dict(sorted(played.items()))),
        Section("wins_by_scenario", "wins by scenario (share of that scenario's games)",
                scenario_rates, percent=True),
        Section("scenario_start_mean_round", "round the scenario began (mean)",
                mean(start_rounds)),
        Section("scenario_start_rounds", "round the scenario began",
                dict(sorted(starts.items(), key=lambda kv: int(kv[0].split()[1].split("-")[0])))),
        Section("traitor_survival", "traitor alive at the end",
                round(traitors_alive / traitors, 4) if traitors else 0.0, percent=True),
        Section("hero_survival", "heroes alive at the end",
                round(heroes_alive / heroes, 4) if heroes else 0.0, percent=True),
        Section("rounds_after_start_mean", "rounds played after the scenario began (mean)",
                mean(after)),
    ]
