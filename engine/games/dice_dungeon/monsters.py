"""Monster numbers: strengthening a monster's health or attack, or collecting the treasure of
a beaten one."""

from __future__ import annotations

from typing import Any

from engine.core.api import Action
from engine.games.dice_dungeon.registry import auto, decision, resolves, rule
from engine.games.dice_dungeon.setup import fill_boxes
from engine.games.dice_dungeon.state import DungeonState

TRACKS = ("health", "attack")


@rule("monsters.upgrade", "monsters.fill", "monsters.gap", "monsters.gap-counts")
def upgradable_tracks(state: DungeonState, index: int) -> list[str]:
    """The tracks whose next box may be filled: a box is left, and afterwards the filled boxes
    of health and attack differ by at most the allowed gap (the starting values aside)."""
    sheet, monster = state.monsters[index], state.monster(index)
    gap = state.data.rules.max_track_gap
    out = []
    for track in TRACKS:
        health = sheet.health_boxes + (track == "health")
        attack = sheet.attack_boxes + (track == "attack")
        if health > len(monster.health_track) or attack > len(monster.attack_track):
            continue
        if abs(health - attack) <= gap:
            out.append(track)
    return out


@auto("monster-number")
@rule("turn.defeated-monster", "monsters.number-lost")
def monster_number(state: DungeonState, step: dict[str, Any]) -> None:
    """The monster number: a beaten monster's number collects its room's treasure (the number
    itself is lost); a living monster gets stronger."""
    index = state.assigned["monster"] - 1
    monster = state.monster(index)
    if state.monsters[index].defeated:
        room = state.room_of_monster(index)
        chest = state.chest_in_room(room)
        state.log(f"monster number {index + 1} — the {monster.name} is beaten, the number is "
                  f"lost and the heroes go for the chest in room {room}")
        state.tally.numbers_lost += 1
        from engine.games.dice_dungeon.chests import begin_opening

        begin_opening(state, chest, "number")
        return
    tracks = upgradable_tracks(state, index)
    if not tracks:
        state.tally.numbers_lost += 1
        state.log(f"monster number {index + 1} — the {monster.name} has no box it may fill; "
                  "the number is lost")
    elif len(tracks) == 1:
        strengthen(state, index, tracks[0])
    else:
        state.push({"step": "upgrade", "monster": index})


@decision("upgrade")
def upgrade_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    return [Action.of("upgrade", track=t) for t in upgradable_tracks(state, int(step["monster"]))]


@resolves("upgrade")
def choose_upgrade(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    strengthen(state, int(step["monster"]), str(action.get("track")))


@rule("monsters.fill", "monsters.abilities")
def strengthen(state: DungeonState, index: int, track: str) -> None:
    """Fill the next box of the track; a monster that doubles its upgrades fills a second one
    when the gap rule still allows it."""
    monster = state.monster(index)
    times = 2 if monster.has("double-upgrade") else 1
    filled = 0
    for _ in range(times):
        if track not in upgradable_tracks(state, index):
            break
        filled += fill_boxes(state, index, track, 1)
    state.log(f"monster number {index + 1} — the {monster.name} fills {filled} {track} box(es) — "
              f"health {state.monster_value(index, 'health')}, attack "
              f"{state.monster_value(index, 'attack')}")
