"""Monsters on the table: appearing (face down until a hero steps on their tile), whom they
spare, stepping through obstacles, attacking, the ghosts' mind attacks, the scarab burrowing,
acid gas, looting bandits, dying and their rewards.

The monster phase that drives them each round is `monster_phase.py`; how they find their way,
`pathfinding.py`; monsters controlled by players (lairs, respawns, their own moves),
`controlled.py`.
"""

from __future__ import annotations

from engine.games.catacombs.board import (
    Pos,
    in_sight,
    next_to,
    slot_key,
)
from engine.games.catacombs.checks_util import apply_outcome, poison, result_band
from engine.games.catacombs.data import Monster
from engine.games.catacombs.mercenaries import take_blow
from engine.games.catacombs.pathfinding import (
    matrix_cell,
    nearest_trap,
    obstacle_effect,
    obstacles,
    step_towards,
)
from engine.games.catacombs.registry import rule, task
from engine.games.catacombs.state import CatacombsState, Hero, Piece
from engine.games.catacombs.steps import Acid, DoomKnowledge, GhostResist, Revive, RewardChoice
from engine.games.catacombs.traps import run_into


@rule(
    "venomous.species",
    "venomous.health",
    "bandit.health",
    "demon.health",
    "scarab.health",
    "scarab.board",
)
def spawn(
    state: CatacombsState, monster_id: str, pos: Pos, awake: bool, meet: bool = False
) -> Piece | None:
    """Put a monster on the table (face down until a hero steps on its tile)."""
    monster = state.data.monsters.get(monster_id)
    if monster is None:
        return None
    species = ""
    if monster.species:
        taken = sum(1 for p in state.pieces if p.monster == monster_id)
        species = monster.species[taken % len(monster.species)][0]
    piece = Piece(
        uid=state.uid(),
        monster=monster_id,
        pos=tuple(pos),
        hp=monster.health_for(state.players),
        species=species,
        shield=monster.shield,
        awake=awake or state.tile_of(pos).visited,
    )
    state.pieces.append(piece)
    state.log(f"a {species or monster_id} appears at {pos}")
    if not awake and state.monster_players and respawns(monster):
        mark_lair(state, piece)
    if "doom-knowledge" in monster.special and sum(
        state.pools.get("secret-knowledge", {}).values()
    ):
        state.push(DoomKnowledge(pool="secret-knowledge", pos=tuple(pos)))
    if meet or piece.awake:
        for h in state.heroes_on((pos[0], pos[1])):
            state.meet(h, piece)
    return piece


def targets(state: CatacombsState, piece: Piece) -> list[Hero]:
    monster = state.data.monsters[piece.monster]
    return [  # hidden heroes are never targets (shelters.uncontrolled, shelters.controlled)
        h
        for h in state.heroes
        if h.active
        and not h.hidden
        and h.character not in monster.never_attacks
        and not immune(state, h, piece.monster)
    ]


@rule("venomous.ecologist", "ghost.cultist")
def immune(state: CatacombsState, hero: Hero, monster_id: str) -> bool:
    """A character whose board makes them immune to a monster is never its target."""
    ability = state.data.characters[hero.character].ability("immune-to-monster")
    return ability is not None and monster_id in ability.monsters


def live_piece(state: CatacombsState, uid: int) -> Piece | None:
    for p in state.pieces:
        if p.uid == uid and p.alive:
            return p
    return None


@rule("crevices.bridges-monsters", "venomous.water-bridges")
def enter(state: CatacombsState, piece: Piece, pos: Pos, came: Pos, side: str | None) -> bool:
    """Step onto `pos`, suffering its obstacles; False when the monster must stop."""
    piece.pos = pos
    for name, width, feature in obstacles(state, pos, came, side):
        effect = obstacle_effect(state, piece, name, width)
        cell = matrix_cell(state, piece, name)
        if effect == "dies":
            kill_piece(state, piece, None, f"the {name}")
            return False
        if effect == "loses-health" and cell is not None and piece.hp is not None:
            piece.hp -= cell.health
            if piece.hp <= 0:
                kill_piece(state, piece, None, f"the {name}")
                return False
        if effect == "held":
            piece.held = cell.turns if cell is not None and cell.turns else 1
            return False
        wears = "water-and-bridges" not in state.data.monsters[piece.monster].special
        if name == "bridge" and effect == "pass" and feature is not None and wears:
            feature["bridge"] -= 1
            state.layout_cache.pop("walk", None)
        if effect == "breaks" and feature is not None:
            feature["open"] = True
            state.touch_layout("passage")
    return True


@rule(
    "zombie.attack",
    "bandit.attack",
    "venomous.attack",
    "demon.ranged",
    "scarab.melee",
    "ghost.attack",
    "engine.monster-attack",
    "venomous.damage",
    "bandit.damage",
    "demon.damage",
    "scarab.damage",
    "vampire.named",
)
def attack(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """Melee next to a hero; ranged at a hero on the same tile; ghosts seize minds."""
    stats = monster.stats_for(piece.controlled)
    heroes = targets(state, piece)
    near = [h for h in heroes if next_to(state, piece.pos, {h.pos})]
    same_tile = [h for h in heroes if h.pos[:2] == piece.pos[:2]]
    resist = resist_check(state, monster)
    if resist is not None:
        pool = near or same_tile or [h for h in heroes if in_sight(state, h.pos, piece.pos)]
        if pool:
            dice = str(resist.dice or "d6")
            state.push(GhostResist(dice=dice, seat=pool[0].seat, uid=piece.uid, check=resist.id))
        return
    if near:
        victim, damage, how = near[0], stats.melee, "hit"
    elif same_tile and "ranged" in monster.attack and stats.ranged:
        victim, damage, how = same_tile[0], stats.ranged, "shot"
    else:
        return
    state.meet(victim, piece)
    state.log(f"the {piece.species or piece.monster} attacks {victim.character}")
    for _ in range(stats.poison):
        poison(state, victim, piece.species or piece.monster)
    take_blow(state, victim, damage, f"{how} by the {piece.species or piece.monster}",
              f"killed by {piece.monster}")
    if monster.removed_after_attack:
        piece.alive = False
        state.log(f"the {piece.species or piece.monster} leaves after its bite")


def resist_check(state: CatacombsState, monster: Monster):
    """The check a hero makes against a mind attack (the ghost's), if the monster has one."""
    for check_id in monster.checks:
        check = state.data.checks.get(check_id)
        if check is not None and check.action == "resist":
            return check
    return None


@task(GhostResist)
@rule("ghost.resist", "ghost.luck")
def ghost_resist(state: CatacombsState, t: GhostResist, value: int) -> None:
    """The hero rolls (luck 3+ adds 1): resists, is held a turn, or is seized."""
    hero = state.heroes[t.seat]
    check = state.data.checks[t.check]
    add = sum(m.add for m in check.active_modifiers(state.stats(hero), tuple(hero.items)))
    band = result_band(check, min(value + add, 6))
    if band is None or not hero.active:
        return
    state.log(f"{hero.character} faces a ghost: {band.result} ({value}+{add})")
    ghost = live_piece(state, t.uid)
    if ghost is not None:
        state.meet(hero, ghost)
    apply_outcome(state, hero, band.outcome, "a ghost")
    if band.result == "seized":
        seized(state, hero, t.uid)


@rule("ghost.seize", "ghost.seized-trap", "ghost.possessed", "engine.seized")
def seized(state: CatacombsState, hero: Hero, uid: int) -> None:
    """A seized hero walks into the nearest open trap within their speed and suffers it as one
    who runs into it (a hero it kills is possessed: dead, and the ghost leaves); with no trap in
    reach the hero steps towards the ghost."""
    ghost = live_piece(state, uid)
    trap_cell = nearest_trap(state, hero)
    if trap_cell is not None:
        hero.pos = trap_cell
        state.log(f"the ghost drives {hero.character} into a trap")
        run_into(state, hero, "seized by a ghost")
        if not hero.alive:
            hero.cause = "possessed by a ghost"
            if ghost is not None:
                ghost.alive = False
                state.log("the ghost takes the body and leaves the map")
        return
    if ghost is not None:
        step = step_towards(state, hero.pos, ghost.pos)
        if step is not None:
            hero.pos = step
            state.log(f"the ghost draws {hero.character} closer")


@rule("scarab.wall", "scarab.retreat", "scarab.regen")
def underground(state: CatacombsState, piece: Piece, monster: Monster) -> bool:
    """A burrowing monster (the scarab): hurt by the heroes it digs in; underground it heals
    and after its turns comes up in the centre of the tile one step nearer the heroes. True
    while it spends the monster phase below."""
    if piece.under > 0:
        heal = monster.special_values.get("regenerate", {}).get("health", 0)
        full = monster.health_for(state.players) or 0
        if heal and piece.hp is not None:
            piece.hp = min(full, piece.hp + heal)
        piece.under -= 1
        if piece.under == 0:
            _emerge(state, piece, monster)
        return True
    return bool(piece.hurt and burrow(state, piece, monster, "burrow-retreat"))


def burrow(state: CatacombsState, piece: Piece, monster: Monster, why: str) -> bool:
    spec = monster.special_values.get(why)
    piece.hurt = False
    if spec is None:
        return False
    piece.under = max(1, spec.get("turns", 1))
    state.log(f"the {piece.monster} burrows into the ground")
    return True


def _emerge(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    heroes = targets(state, piece)
    if heroes:
        here = (piece.pos[0], piece.pos[1])
        goal = min(heroes, key=lambda h: abs(h.pos[0] - here[0]) + abs(h.pos[1] - here[1]))
        options = [here, *state.board.adjacent_slots(here)]
        best = min(options, key=lambda s: (abs(goal.pos[0] - s[0]) + abs(goal.pos[1] - s[1]), s))
        c, r = state.tiles[slot_key(best)].center()
        piece.pos = (best[0], best[1], c, r)
    state.log(f"the {piece.monster} comes up at {piece.pos}")


@rule("ghost.cultist-last")
def last_survivor(state: CatacombsState) -> None:
    """When every hero left is one a monster never attacks and nobody is possessed, monsters
    with that rule (the ghosts) leave the map."""
    living = [h for h in state.heroes if h.active]
    possessed = any(h.cause.startswith("possessed") for h in state.heroes)
    if not living or possessed:
        return
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        if not piece.alive or "cultist-last" not in monster.special:
            continue
        if all(
            h.character in monster.never_attacks or immune(state, h, piece.monster) for h in living
        ):
            piece.alive = False
            state.log(f"the {piece.monster} fades: only those it spares are left")


@task(DoomKnowledge)
@rule("demon.doom", "engine.doom-knowledge")
def doom_knowledge(state: CatacombsState, t: DoomKnowledge, card: str) -> None:
    """The secret knowledge that can destroy the demon is drawn and left where it appeared;
    the first hero to end a move there takes it."""
    tx, ty, c, r = t.pos
    state.tiles[slot_key((tx, ty))].features.append(
        {"uid": f"f{state.uid()}", "type": "knowledge", "card": card, "cell": [c, r]}
    )
    state.log(f"the secret knowledge {card} lies where the demon appeared")


@task(Acid)
@rule("scarab.acid")
def acid(state: CatacombsState, t: Acid, _: object) -> None:
    """Acid gas: every hero on a tile with an acid monster loses its acid damage each round."""
    for piece in state.pieces:
        monster = state.data.monsters[piece.monster]
        burn = monster.stats_for(piece.controlled).acid
        if piece.on_map and burn:
            for hero in state.heroes_on(piece.pos[:2]):
                state.hurt(hero, burn, f"acid of the {piece.monster}")


@rule("bandit.loot")
def loot(state: CatacombsState, piece: Piece, monster: Monster) -> None:
    """Bandits pick up the belongings of dead heroes on their tile."""
    if "loot-the-dead" not in monster.special:
        return
    tile = state.tile_of(piece.pos)
    for f in list(tile.features):
        if f["type"] == "belongings":
            tile.features.remove(f)
            piece.loot["treasures"] = piece.loot.get("treasures", 0) + f["treasures"]
            piece.loot["items"] = piece.loot.get("items", []) + f["items"]
            state.log(f"the {piece.monster} loots a dead hero's belongings")


def kill_piece(state: CatacombsState, piece: Piece, hero: Hero | None, how: str) -> None:
    piece.alive = False
    state.log(f"the {piece.species or piece.monster} dies ({how})")
    if hero is None:
        return
    state.meet(hero, piece)
    hero.kills.append(piece.monster)
    if piece.loot:
        hero.treasures += piece.loot.get("treasures", 0)
        hero.gathered += piece.loot.get("treasures", 0)
        hero.items.extend(piece.loot.get("items", []))
        piece.loot = {}
        state.log(f"{hero.character} takes back what the {piece.monster} looted")
    monster = state.data.monsters[piece.monster]
    rewards = (
        monster.controlled_rewards
        if piece.controlled and monster.controlled_rewards
        else monster.rewards
    )
    if len(rewards) == 1:
        state.gain(hero, rewards[0], f"killing a {piece.monster}")
    elif rewards:
        state.push(RewardChoice(seat=hero.seat, monster=piece.monster, controlled=piece.controlled))
    if piece.controlled and monster.revive:
        state.push(Revive(dice="d6", uid=piece.uid))


# ----- lairs: where the cards of monsters that respawn were laid -------------------------------
LAIR = "lair"


def respawns(monster: Monster) -> bool:
    """Killed monsters of this kind come back under a player's control (`respawn.per_lair`)."""
    return monster.per_lair > 0 and monster.controlled is not None


def mark_lair(state: CatacombsState, piece: Piece) -> None:
    """The cell where a monster card was laid face down is a lair of that kind."""
    state.tile_of(piece.pos).features.append(
        {
            "uid": f"lair{piece.uid}",
            "type": LAIR,
            "monster": piece.monster,
            "cell": [piece.pos[2], piece.pos[3]],
            "waiting": 0,
        }
    )

