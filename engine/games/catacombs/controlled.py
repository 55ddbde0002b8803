"""Monsters controlled by players (monster players): players whose heroes died take the awake
monsters (their controlled stats), bring killed ones back from lairs (the cells where their
cards were laid, `monsters.mark_lair`) or open areas, a killed one may rise again; controlled
venomous creatures drop from the ceiling and controlled bandits fight by the characters' reach.
"""

from __future__ import annotations

from engine.games.catacombs.board import (
    Placed,
    Pos,
    adjacent_tile,
    next_to,
    slot_key,
)
from engine.games.catacombs.checks_util import apply_outcome, passes
from engine.games.catacombs.data import Monster
from engine.games.catacombs.monsters import LAIR, attack, live_piece, loot, respawns, spawn
from engine.games.catacombs.registry import rule, task
from engine.games.catacombs.state import CatacombsState, Hero, Piece
from engine.games.catacombs.steps import Revive, ShakeOff


def controllers(state: CatacombsState) -> list[Hero]:
    """Players whose heroes are dead control the monsters."""
    return [h for h in state.heroes if not h.alive and h.character]


@rule("zombie.speed", "zombie.health", "zombie.damage", "engine.controllers")
def take_control(state: CatacombsState) -> None:
    """Engine assumption: once a player's hero is dead, that player controls every awake
    monster: it takes its controlled stats (the health it gains included) and obstacle rules."""
    if not state.monster_players or not controllers(state):
        return
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        if not piece.on_map or piece.controlled or monster.controlled is None:
            continue
        control(state, piece, monster)


def control(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """A player takes the monster: its controlled stats, the health it gains included."""
    piece.controlled = True
    gain = (monster.controlled.health or 0) - (monster.stats.health or 0)
    if piece.hp is not None and gain > 0:
        piece.hp += gain
    state.log(f"the {piece.species or piece.monster} is now controlled by a player")


@task(Revive)
@rule("zombie.revive")
def revive(state: CatacombsState, t: Revive, value: int) -> None:
    """A killed controlled monster with revive faces rises again on them."""
    piece = next((p for p in state.pieces if p.uid == t.uid), None)
    if piece is None or piece.alive:
        return
    monster = state.data.monsters[piece.monster]
    if value in monster.revive:
        piece.alive = True
        piece.hp = monster.stats_for(True).health or monster.health_for(state.players)
        state.log(f"the {piece.monster} rises again ({value})")


def lair_limit(monster: Monster) -> int:
    """`respawn.per_lair`: the most that appear at once from one lair (0: none)."""
    return monster.per_lair


def from_open_areas(monster: Monster) -> bool:
    """`respawn.from_open_areas`: it may also respawn on explored parts of the labyrinth."""
    return monster.from_open_areas


def lairs_of(state: CatacombsState, monster_id: str) -> list[tuple[tuple[int, int], dict]]:
    """Every lair of this kind: (tile slot, lair feature), in slot order."""
    out = []
    for key in sorted(state.tiles):
        tile = state.tiles[key]
        for f in tile.features:
            if f["type"] == LAIR and f["monster"] == monster_id:
                out.append(((tile.slot[0], tile.slot[1]), f))
    return out


def respawns_due(state: CatacombsState, monster: Monster) -> int:
    """Killed or removed monsters of this kind that may come back: the count for this many
    players less those on the table, those waiting in lairs and those still in the deck."""
    alive = sum(1 for p in state.pieces if p.alive and p.monster == monster.id)
    waiting = sum(f["waiting"] for _, f in lairs_of(state, monster.id))
    in_deck = state.pools.get("monster", {}).get(monster.id, 0)
    return min(monster.count_for(state.players), monster.kit) - alive - waiting - in_deck


@rule(
    "zombie.respawn",
    "venomous.respawn",
    "bandit.respawn",
    "ghost.respawn",
    "engine.respawn",
)
def respawn(state: CatacombsState) -> None:
    """In the monster phase the controlling player brings killed monsters back: up to the
    kind's lair limit from each of its lairs (in slot order) while the count for this many
    players allows; bandits left over appear on an explored tile near the heroes."""
    if not state.monster_players or not controllers(state):
        return
    for monster_id in sorted(state.data.monsters):
        monster = state.data.monsters[monster_id]
        if not respawns(monster):
            continue
        due = respawns_due(state, monster)
        for slot, lair in lairs_of(state, monster_id):
            if due <= 0:
                break
            n = min(lair_limit(monster), due)
            due -= n
            fill_lair(state, monster, slot, lair, n)
        if due > 0 and from_open_areas(monster):
            open_area_respawn(state, monster, min(lair_limit(monster), due))


def fill_lair(
    state: CatacombsState, monster: Monster, slot: tuple[int, int], lair: dict, n: int
) -> None:
    """On an explored tile they appear at once; otherwise they wait in the lair until a hero
    first steps on the tile."""
    if state.tiles[slot_key(slot)].visited:
        bring(state, monster, (*slot, *lair["cell"]), n)
    else:
        lair["waiting"] += n
        state.log(f"{n} {monster.id} wait in the lair on {slot_key(slot)}")


def bring(state: CatacombsState, monster: Monster, pos: Pos, n: int) -> None:
    """`n` monsters of the kind appear awake at `pos`, under their player's control."""
    for _ in range(n):
        piece = spawn(state, monster.id, pos, awake=True)
        if piece is not None:
            control(state, piece, monster)


def open_area_respawn(state: CatacombsState, monster: Monster, n: int) -> None:
    """Engine assumption: the explored tile nearest a hero with no hero on it, at its centre."""
    heroes = [h.pos[:2] for h in state.heroes if h.active]
    if not heroes or n <= 0:
        return
    best = None
    for key in sorted(state.tiles):
        tile = state.tiles[key]
        slot = (tile.slot[0], tile.slot[1])
        if not tile.visited or slot in heroes:
            continue
        far = min(abs(slot[0] - h[0]) + abs(slot[1] - h[1]) for h in heroes)
        if best is None or far < best[0]:
            best = (far, slot, tile.center())
    if best is not None:
        bring(state, monster, (*best[1], *best[2]), n)


@rule("move.activate-lair", "engine.lairs")
def spring_lairs(state: CatacombsState, hero: Hero, tile: Placed) -> None:
    """The first step on a tile springs its lairs: the monsters their player respawned there
    while the tile was unexplored appear (a sarcophagus lair springs when it is checked)."""
    if not state.monster_players:
        return
    slot = (tile.slot[0], tile.slot[1])
    for f in tile.features:
        if f["type"] == LAIR and f.get("waiting"):
            n, f["waiting"] = f["waiting"], 0
            state.log(f"the lair on {slot_key(slot)} springs")
            bring(state, state.data.monsters[f["monster"]], (*slot, *f["cell"]), n)


@rule("venomous.surprise", "engine.venomous-surprise")
def surprise(state: CatacombsState, piece: Piece, monster: Monster, heroes: list[Hero]) -> bool:
    """A controlled venomous creature with no hero next to it drops from the ceiling onto a
    hero on an adjacent tile of its own labyrinth (its player picks the weakest); the hero
    rolls to shake it off. True when it did."""
    if "surprise" not in monster.special:
        return False
    check = state.data.check(piece.monster, "shake-off")
    if check is None or any(next_to(state, piece.pos, {h.pos}) for h in heroes):
        return False
    labyrinth = state.tile_of(piece.pos).labyrinth
    prey = [
        h
        for h in heroes
        if adjacent_tile(h.pos, piece.pos) and state.tile_of(h.pos).labyrinth == labyrinth
    ]
    if not prey:
        return False
    victim = min(prey, key=lambda h: (h.hp, h.seat))
    piece.pos = victim.pos
    state.meet(victim, piece)
    state.log(f"a {piece.species or piece.monster} drops from the ceiling on {victim.character}")
    dice = str(check.dice or "d6")
    state.push(ShakeOff(dice=dice, seat=victim.seat, uid=piece.uid, check=check.id))
    return True


@task(ShakeOff)
def shake_off(state: CatacombsState, t: ShakeOff, value: int) -> None:
    """The hero shakes the creature off on the check's faces (it lands at their feet); else
    it bites as the check says and, like any bite of its kind, leaves."""
    hero = state.heroes[t.seat]
    piece = live_piece(state, t.uid)
    check = state.data.checks[t.check]
    if piece is None or not hero.active:
        return
    name = piece.species or piece.monster
    if passes(state, hero, check, value):
        state.log(f"{hero.character} shakes off the {name} ({value})")
        return
    apply_outcome(state, hero, check.on_failure, f"a {name} from the ceiling")
    if state.data.monsters[piece.monster].removed_after_attack:
        piece.alive = False
        state.log(f"the {name} leaves after its bite")


@rule("bandit.fight", "engine.bandit-fight")
def fight_like_heroes(
    state: CatacombsState, piece: Piece, monster: Monster, heroes: list[Hero]
) -> bool:
    """A controlled bandit fights by the characters' reach: a blow next to a hero, a shot at a
    hero on its own tile; with someone in reach it fights from where it stands (keeping its
    distance) instead of walking up. True when it fought."""
    if "fight-like-heroes" not in monster.special:
        return False
    ranged = "ranged" in monster.attack and monster.stats_for(True).ranged > 0
    here = piece.pos[:2]
    if not any(
        next_to(state, piece.pos, {h.pos}) or (ranged and h.pos[:2] == here) for h in heroes
    ):
        return False
    loot(state, piece, monster)
    attack(state, piece, monster)
    return True

