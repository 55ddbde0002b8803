"""Death, the artifact, leaving the labyrinth and the end of the game."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.registry import actions_of, handles, on_arrival, rule, task
from engine.games.catacombs.relationships import friendly_level, loans
from engine.games.catacombs.state import PHASE_OVER, CatacombsState, Hero
from engine.games.catacombs.steps import Death


@task(Death)
@rule("engine.death", "table.death")
def death(state: CatacombsState, t: Death, _: object) -> None:
    """A hero at 0 health dies; the artifact falls where they stood."""
    hero = state.heroes[t.seat]
    if not hero.alive:
        return
    hero.alive = False
    hero.hp = min(hero.hp, 0)
    hero.cause = t.cause
    hero.hidden = 0
    state.log(f"{hero.character} dies: {t.cause}")
    loans(state, hero)
    if hero.artifact:
        hero.artifact = False
        tile = state.tile_of(hero.pos)
        tile.features.append(
            {"uid": f"f{state.uid()}", "type": "artifact", "cell": [hero.pos[2], hero.pos[3]]}
        )
    drop_belongings(state, hero)
    if hero.seat == state.seat:
        state.actions_left = 0
    check_end(state)


def check_end(state: CatacombsState) -> None:
    if state.phase == PHASE_OVER:
        return
    if not any(h.active for h in state.heroes):
        state.phase = PHASE_OVER
        state.ended_by = "all-dead"
        state.log("no hero is left in the catacombs")


@rule("engine.belongings", "characters.thrift")
def drop_belongings(state: CatacombsState, hero: Hero) -> None:
    """A dead hero's items and the treasures beyond their thrift stay on their cell."""
    thrift = state.data.characters[hero.character].thrift
    treasures = max(0, hero.treasures - thrift)
    if not treasures and not hero.items:
        return
    hero.treasures -= treasures
    state.tile_of(hero.pos).features.append(
        {
            "uid": f"f{state.uid()}",
            "type": "belongings",
            "cell": [hero.pos[2], hero.pos[3]],
            "treasures": treasures,
            "items": list(hero.items),
        }
    )
    hero.items = []


@on_arrival("belongings")
def pick_up_belongings(state: CatacombsState, hero: Hero) -> None:
    tile = state.tile_of(hero.pos)
    for f in list(tile.features):
        if f["type"] == "knowledge" and f.get("cell") == [hero.pos[2], hero.pos[3]]:
            tile.features.remove(f)
            hero.secret_knowledge += 1
            state.log(f"{hero.character} picks up the secret knowledge {f['card']}")
        if f["type"] == "belongings" and f.get("cell") == [hero.pos[2], hero.pos[3]]:
            tile.features.remove(f)
            hero.treasures += f["treasures"]
            hero.gathered += f["treasures"]
            hero.items.extend(f["items"])
            state.log(f"{hero.character} takes a dead hero's belongings")


@on_arrival("artifact")
@rule("story.artifact")
def pick_up_artifact(state: CatacombsState, hero: Hero) -> None:
    """A hero who steps on the artifact's cell takes it."""
    tile = state.tile_of(hero.pos)
    for f in tile.features:
        if f["type"] == "artifact" and f.get("cell") == [hero.pos[2], hero.pos[3]]:
            tile.features.remove(f)
            hero.artifact = True
            state.artifact_taken = True
            state.log(f"{hero.character} takes the artifact")
            return


PICKED_UP = ("artifact", "belongings", "knowledge")
"""What lies on a cell for the next hero to step there (or, standing there, to pick up)."""


@actions_of
def pick_up_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """A hero already standing where the artifact or belongings fell may pick them up."""
    if not hero.active or hero.hidden or state.actions_left < 1:
        return []
    here = [hero.pos[2], hero.pos[3]]
    lying = any(f["type"] in PICKED_UP and f.get("cell") == here
                for f in state.tile_of(hero.pos).features)
    return [Action.of("pick-up")] if lying else []


@handles("pick-up")
@rule("table.pick-up")
def do_pick_up(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Provisional: one action takes what a hero would take by stepping onto the cell."""
    state.log(f"{hero.character} picks up what lies on their cell")
    pick_up_artifact(state, hero)
    pick_up_belongings(state, hero)
    return 1


@actions_of
def leave_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if hero.active and hero.artifact and list(hero.pos) == state.hatch:
        return [Action.of("leave")]
    return []


@handles("leave")
@rule("engine.leave-by-hatch", "teams.victory-group", "teams.team-victory")
def do_leave(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Engine assumption: the way out is the ceiling hatch the heroes came down by. The carrier
    wins with every friend on the start tile (and, in team play, the whole team)."""
    friendly = friendly_level(state)
    winners = [hero.seat]
    for other in state.heroes:
        if other.seat == hero.seat or not other.active:
            continue
        same_team = hero.team and other.team == hero.team
        on_start = list(other.pos[:2]) == state.hatch[:2]
        if same_team or (on_start and state.relation(hero.seat, other.seat) >= friendly):
            winners.append(other.seat)
    for seat in winners:
        state.heroes[seat].out = True
    state.winners = sorted(winners)
    state.phase = PHASE_OVER
    state.ended_by = "artifact"
    state.log(f"{hero.character} carries the artifact out; winners: {state.winners}")
    return 1


