"""What a simulated dice dungeon game tells the report, and the game's own report sections:
wins and scores by adventure and by class mix, turns used, deaths, fights and bonuses. The
play loop, parallel runs, the generic report and replays are the core's
(`engine/core/sim.py`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from engine.core.game import GameSummary, Section
from engine.games.dice_dungeon.ending import WON, total_score
from engine.games.dice_dungeon.state import DungeonState


def progress(state: DungeonState, seat: int) -> float:
    """A rollout's value short of the end: monsters beaten (the boss counts three times), with
    less for a party that has lost heroes."""
    if not state.monsters:
        return 0.0
    boss = state.adventure.boss
    beaten = sum(m.defeated for m in state.monsters) + 2 * state.monsters[boss].defeated
    alive = len(state.living()) / max(1, len(state.heroes))
    return 0.9 * (beaten / (len(state.monsters) + 2)) * (0.5 + 0.5 * alive)


def class_mix(classes: Sequence[str]) -> str:
    return "+".join(sorted(classes))


def summary_details(state: DungeonState) -> dict[str, Any]:
    """The per-game record: levels played, classes, score, deaths, fights."""
    seats = [next((h.cls for h in state.heroes if h.seat == s), "") for s in range(state.players)]
    t = state.tally
    return {
        "levels": [dict(r) for r in state.results],
        "seat_classes": seats,
        "class_mix": class_mix([h.cls for h in state.heroes if h.cls]),
        "score": total_score(state),
        "deaths": t.deaths,
        "lost_for_good": t.lost_for_good,
        "fights": t.fights,
        "fights_won": t.fights_won,
        "damage_taken": t.damage_taken,
        "rerolls": t.rerolls,
        "levels_bought": t.levels_bought,
        "numbers_lost": t.numbers_lost,
    }


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def _rate(hits: int, total: int) -> float:
    return round(hits / total, 4) if total else 0.0


def report_sections(games: Sequence[GameSummary]) -> list[Section]:
    by_adventure: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_mix: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for game in games:
        for level in game.details["levels"]:
            by_adventure[level["adventure"]].append(level)
            by_mix[level.get("classes", game.details["class_mix"])].append(level)
    levels = [lv for lvs in by_adventure.values() for lv in lvs]
    n = max(1, len(games))
    d = [g.details for g in games]
    return [
        Section("win_rate_by_adventure", "win rate by adventure (boss beaten)",
                {a: _rate(sum(lv["outcome"] == WON for lv in lvs), len(lvs))
                 for a, lvs in sorted(by_adventure.items())}, percent=True),
        Section("score_by_adventure", "mean score by adventure",
                {a: _mean([lv["score"] for lv in lvs]) for a, lvs in sorted(by_adventure.items())}),
        Section("turns_by_adventure", "mean turns used by adventure",
                {a: _mean([lv["turns"] for lv in lvs]) for a, lvs in sorted(by_adventure.items())}),
        Section("win_rate_by_class_mix", "win rate by class mix",
                {m: _rate(sum(lv["outcome"] == WON for lv in lvs), len(lvs))
                 for m, lvs in sorted(by_mix.items())}, percent=True),
        Section("score_by_class_mix", "mean score by class mix",
                {m: _mean([lv["score"] for lv in lvs]) for m, lvs in sorted(by_mix.items())}),
        Section("level_outcomes", "level outcomes",
                {o: sum(lv["outcome"] == o for lv in levels)
                 for o in sorted({lv["outcome"] for lv in levels})}),
        Section("monsters_beaten_per_level", "monsters beaten per level",
                _mean([lv["beaten"] for lv in levels])),
        Section("levels_cleared", "levels with all six monsters beaten",
                _rate(sum(lv["beaten"] == 6 for lv in levels), len(levels)), percent=True),
        Section("bonus_earned", "levels scoring above the bonus threshold",
                _rate(sum(bool(lv["bonus"]) for lv in levels), len(levels)), percent=True),
        Section("deaths", "deaths per game",
                {"hero deaths": _mean([x["deaths"] for x in d]),
                 "dead for good": _mean([x["lost_for_good"] for x in d])}),
        Section("fights", "fights per game",
                {"fights": _mean([x["fights"] for x in d]),
                 "won": _mean([x["fights_won"] for x in d]),
                 "gold rerolls": _mean([x["rerolls"] for x in d]),
                 "levels bought": _mean([x["levels_bought"] for x in d])}),
        Section("mean_score", "mean score per game", round(sum(x["score"] for x in d) / n, 2)),
    ]
