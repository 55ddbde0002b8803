"""What a simulated catacombs game tells the report: each hero's fate, and the game's own
report sections (causes of death, treasure, monsters met and killed, stalls). The play loop,
parallel runs, the generic report and replays are the core's (`engine/core/sim.py`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core.game import GameSummary, Section
from engine.games.catacombs.state import CatacombsState

STALL_ROUNDS = 10
"""A game stalls when every living hero passes for this many rounds in a row."""


def progress(state: CatacombsState, seat: int) -> float:
    """A rollout's value short of the end: alive, health, treasure, tiles laid, the artifact."""
    hero = state.heroes[seat]
    if not hero.alive:
        return 0.0
    value = 0.2 + 0.1 * hero.hp / max(1, hero.max_hp) + 0.005 * min(hero.treasures, 40)
    value += 0.005 * len(state.tiles) + (0.4 if hero.artifact else 0.0)
    return min(value, 0.95)


def heroes_record(state: CatacombsState) -> list[dict[str, Any]]:
    """Each hero's character, fate, treasure, monsters met and kills (the per-game JSON)."""
    return [
        {
            "seat": h.seat,
            "character": h.character,
            "alive": h.alive,
            "cause": h.cause,
            "treasures": h.gathered,
            "met": sorted(m.split(":")[0] for m in h.met),
            "kills": sorted(h.kills),
        }
        for h in state.heroes
    ]


def report_sections(games: Sequence[GameSummary]) -> list[Section]:
    """Causes of death, treasure per hero (by character and overall), monsters met/killed."""
    causes: Counter[str] = Counter()
    met: Counter[str] = Counter()
    killed: Counter[str] = Counter()
    treasure: Counter[str] = Counter()
    plays: Counter[str] = Counter()
    for game in games:
        for h in game.details["heroes"]:
            plays[h["character"]] += 1
            treasure[h["character"]] += h["treasures"]
            met.update(h["met"])
            killed.update(h["kills"])
            if not h["alive"]:
                causes[_cause(h["cause"])] += 1
    return [
        Section("causes_of_death", "causes of death", dict(causes.most_common())),
        Section("treasure_per_hero_by_character", "treasure per hero by character",
                {c: round(treasure[c] / plays[c], 2) for c in sorted(plays)}),
        Section("mean_treasure_per_hero", "treasure per hero",
                round(sum(treasure.values()) / max(1, sum(plays.values())), 2)),
        Section("monsters_met", "monsters met", dict(sorted(met.items()))),
        Section("monsters_killed", "monsters killed", dict(sorted(killed.items()))),
        *stall_sections(games),
    ]


def stall_sections(games: Sequence[GameSummary]) -> list[Section]:
    """Games at the turn bound and how many of them stalled: every living hero passed for
    STALL_ROUNDS rounds in a row or more at some point."""
    bound = [g for g in games if g.ended_by == "turn-bound"]
    stalled = [g for g in bound if g.details.get("idle_rounds", 0) >= STALL_ROUNDS]
    longest = max((g.details.get("idle_rounds", 0) for g in games), default=0)
    return [
        Section("stalls", "turn-bound games and stalls",
                {"at the turn bound": len(bound),
                 f"stalls (all passed {STALL_ROUNDS}+ rounds)": len(stalled)}, plot=False),
        Section("longest_all_pass_run", "longest run of rounds in which every hero passed",
                longest),
    ]


def _cause(cause: str) -> str:
    if cause.startswith("killed by "):
        return cause
    if cause.startswith("poison ("):
        return "poison"
    if cause.startswith("hidden trap"):
        return "hidden trap"
    return cause
