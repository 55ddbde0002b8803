"""The end of a level: its own scoring, the bonus above the threshold, and the next level of a
campaign."""

from __future__ import annotations

from typing import Any

from engine.games.dice_dungeon.chests import guarded, locked, stars
from engine.games.dice_dungeon.grid import NEIGHBOURS
from engine.games.dice_dungeon.registry import auto, rule
from engine.games.dice_dungeon.state import DungeonState

WON, LOST, WIPED = "won", "lost", "wiped"


@rule("treasure.locked", "treasure.opened", "treasure.end-scoring")
def chest_stars(state: DungeonState) -> int:
    """Stars of the opened chests, and of every unopened chest of a beaten monster that is not
    locked; a chest still locked scores nothing."""
    total = 0
    for index, sheet in enumerate(state.chests):
        if sheet.opened or (not guarded(state, index) and not locked(state, index)):
            total += stars(state, index)
    return total


@rule("engine.tombs")
def tombs_reached(state: DungeonState) -> int:
    """Tombs next to a painted square."""
    grid = state.adventure.grid
    return sum(1 for x, y in grid.tombs
               if any((x + dx, y + dy) in state.painted for dx, dy in NEIGHBOURS))


@rule("level-end.score", "engine.turns-left")
def score(state: DungeonState) -> dict[str, int]:
    """The adventure's own scoring, term by term (zero terms left out), and the total."""
    adventure = state.adventure
    s = adventure.scoring
    beaten = sum(m.defeated for m in state.monsters)
    cleared = beaten == len(state.monsters)
    unique = sum(state.data.items[i].points * n for i, n in state.items.items()
                 if i in state.data.items and state.data.items[i].type == "unique")
    terms = {
        "monsters": s.monster * beaten,
        "boss": s.boss * int(state.monsters[adventure.boss].defeated),
        "chests": s.chest_points * chest_stars(state),
        "gold": s.gold * state.gold,
        "heroes": s.hero_alive * len(state.living()),
        "tombs": s.tomb * tombs_reached(state),
        "turns_left": s.turns_left * (adventure.max_turns - state.turn) if cleared else 0,
        "unique": unique,
    }
    terms = {k: v for k, v in terms.items() if v}
    terms["total"] = sum(terms.values())
    return terms


@auto("end-level")
@rule("level-end.score", "level-end.when", "level-end.wiped", "level-end.won")
def end_level(state: DungeonState, step: dict[str, Any]) -> None:
    adventure = state.adventure
    points = score(state)
    boss = state.monsters[adventure.boss].defeated
    outcome = WON if boss else (WIPED if not state.living() else LOST)
    beaten = sum(m.defeated for m in state.monsters)
    bonus = points["total"] > state.data.rules.bonus_above
    state.results.append({"adventure": adventure.id, "outcome": outcome, "score": points["total"],
                          "turns": state.turn, "beaten": beaten, "bonus": bonus,
                          "classes": "+".join(sorted(h.cls for h in state.heroes if h.cls))})
    state.log(f"level {state.level + 1} ends after {state.turn} turns — {beaten} monsters beaten, "
              f"the boss {'beaten' if boss else 'not beaten'}; score "
              + ", ".join(f"{k} {v}" for k, v in points.items()))
    if bonus:
        earn_bonus(state)
    state.level += 1
    if state.level < len(state.levels):
        state.push({"step": "level-start"})
        return
    state.ended_by = WON if all(r["outcome"] == WON for r in state.results) else (
        state.results[-1]["outcome"] if len(state.results) == 1 else LOST)
    state.log(f"the game ends — {state.ended_by}, {total_score(state)} points")


@rule("level-end.score")
def earn_bonus(state: DungeonState) -> None:
    """More than the threshold earns the adventure's bonus for the next level of a campaign."""
    adventure = state.adventure
    if adventure.bonus_gold:
        state.carry["gold"] = state.carry.get("gold", 0) + adventure.bonus_gold
    if adventure.bonus_item:
        state.carry["item"] = adventure.bonus_item
    if adventure.bonus_points:
        state.carry["points"] = state.carry.get("points", 0) + adventure.bonus_points
    state.log(f"more than {state.data.rules.bonus_above} points — the bonus of "
              f"{adventure.name} is earned")


def total_score(state: DungeonState) -> int:
    return sum(int(r["score"]) for r in state.results) + int(state.carry.get("points", 0))
