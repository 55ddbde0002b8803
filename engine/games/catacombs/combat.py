"""Heroes against monsters: attacks, the venomous creatures' rolls, banishing ghosts, weakening
the demon, buying off and hiring bandits, rewards."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import in_sight, next_to
from engine.games.catacombs.checks_util import may_try, passes
from engine.games.catacombs.mercenaries import take_blow
from engine.games.catacombs.monsters import kill_piece
from engine.games.catacombs.registry import actions_of, handles, options, rule, task
from engine.games.catacombs.relationships import hostile
from engine.games.catacombs.setup import mercenaries
from engine.games.catacombs.shelters import blocked, blocking_pieces, shelter_bonus, surprise_bonus
from engine.games.catacombs.state import CatacombsState, Hero, Piece
from engine.games.catacombs.steps import AttackRoll, ReceiveCard, RewardChoice


@rule("engine.mercenaries")
def weapons(state: CatacombsState, hero: Hero) -> tuple[int, int]:
    """Best melee bonus and best ranged damage among the items the hero holds or wears (packed
    weapons do not fight); hired mercenaries add their damage (melee ones to the blow, ranged
    ones as a shot)."""
    melee = ranged = 0
    for item_id in state.worn(hero):
        item = state.data.items.get(item_id)
        if item is not None:
            melee = max(melee, item.melee)
            ranged = max(ranged, item.ranged)
    for card_id in hero.spells:
        card = state.data.cards.get(card_id)
        if card is not None and card.attack == "melee":
            melee += card.damage
        elif card is not None and card.attack == "ranged":
            ranged = max(ranged, card.damage)
    return melee, ranged


def _venomous_check(state: CatacombsState, piece: Piece, ranged: bool, armed: bool):
    monster = state.data.monsters[piece.monster]
    wanted = "attack-ranged" if ranged else "attack-melee"
    found = [
        state.data.checks[c]
        for c in monster.checks
        if c in state.data.checks and state.data.checks[c].action == wanted
    ]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    found.sort(key=lambda c: len(c.success))
    return found[-1] if armed else found[0]


def _awake_near(state: CatacombsState, hero: Hero) -> list[tuple[Piece, bool]]:
    """Awake monsters the hero can hit: (piece, ranged?)."""
    awake = [piece for piece in state.pieces if piece.on_map]
    if not awake:
        return []
    _, ranged = weapons(state, hero)
    out = []
    for piece in awake:
        if next_to(state, piece.pos, {hero.pos}):
            out.append((piece, False))
        elif ranged and piece.pos[:2] == hero.pos[:2]:
            out.append((piece, True))
    return out


def attackable(state: CatacombsState, piece: Piece) -> bool:
    monster = state.data.monsters[piece.monster]
    return (piece.hp is not None and not piece.shield and monster.stats.health is not None) or (
        piece.hp is not None and not piece.shield
    )


@actions_of
def combat_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1:
        return []
    if hero.hidden:
        return shelter_attacks(state, hero)
    out = []
    near = _awake_near(state, hero)
    for piece, ranged in near:
        if attackable(state, piece):
            out.append(Action.of("attack", target=piece.uid, ranged=ranged))
    magic = hero.secret_knowledge > 0 or _weakening(state, hero) is not None
    for piece in state.pieces:
        if not piece.on_map or not magic:
            continue
        monster = state.data.monsters[piece.monster]
        if not monster.killed_by or not in_sight(state, piece.pos, hero.pos):
            continue
        if piece.hp is None:
            out.append(Action.of("banish", target=piece.uid))
        elif piece.shield:
            out.append(Action.of("weaken", target=piece.uid))
    for piece, _ in near:
        for how in ("buy-off", "hire"):
            check = state.data.check(piece.monster, how)
            affordable = check is not None and hero.treasures >= check.cost_treasures
            if affordable and may_try(state, hero, check):
                out.append(Action.of("bargain", target=piece.uid, how=how))
    return out


@actions_of
def fight_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """Blows at hostile heroes next to the hero, or shots at those on the same tile."""
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    _, ranged = weapons(state, hero)
    out = []
    for other in state.heroes:
        if other is hero or not other.active or other.hidden or not hostile(state, hero, other):
            continue
        if next_to(state, hero.pos, {other.pos}):
            out.append(Action.of("fight", target=other.seat, ranged=False))
        elif ranged and other.pos[:2] == hero.pos[:2]:
            out.append(Action.of("fight", target=other.seat, ranged=True))
    return out


@handles("fight")
@rule("table.hero-fights")
def do_fight(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A blow (strength + the best melee bonus) or a shot (the best ranged damage) at a hostile
    hero, as at a monster, plus the surprise bonus right after forcing that hero out of a
    shelter; the victim's slider with the attacker drops by one."""
    victim = state.heroes[int(action.get("target"))]
    melee_bonus, ranged_damage = weapons(state, hero)
    damage = ranged_damage if action.get("ranged") else state.stat(hero, "strength") + melee_bonus
    if hero.ambush == victim.seat:
        damage += shelter_bonus(state, hero)
    state.log(f"{hero.character} {'shoots at' if action.get('ranged') else 'strikes'} "
              f"{victim.character} for {damage}")
    state.set_relation(hero.seat, victim.seat, state.relation(hero.seat, victim.seat) - 1)
    take_blow(state, victim, damage, f"a blow from {hero.character}",
              f"killed by {hero.character}")
    return 1


@rule("engine.surprise-attack")
def shelter_attacks(state: CatacombsState, hero: Hero) -> list[Action]:
    """A hidden hero may attack straight from the shelter; a blocked shelter lets the hero
    attack only the controlled monsters blocking it."""
    near = _awake_near(state, hero)
    if not near:
        return []
    if blocked(state, hero):
        allowed = {p.uid for p in blocking_pieces(state, hero)}
        near = [(p, r) for p, r in near if p.uid in allowed]
    return [Action.of("attack", target=p.uid, ranged=r) for p, r in near if attackable(state, p)]


def _weakening(state: CatacombsState, hero: Hero) -> str | None:
    for spell in hero.spells:
        card = state.data.cards.get(spell)
        if card is not None and card.weakening:
            return spell
    return None


def _target(state: CatacombsState, uid: int) -> Piece:
    return next(p for p in state.pieces if p.uid == uid and p.alive)


@handles("attack")
@rule(
    "setup.strength", "engine.hero-attack", "ghost.invulnerable", "venomous.shoot", "venomous.melee"
)
def do_attack(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Engine assumption: a hero's blow always lands for strength + the best weapon's melee
    bonus (a shot: the best ranged damage); venomous creatures need the check's roll."""
    piece = _target(state, action.get("target"))
    ranged = bool(action.get("ranged"))
    melee_bonus, ranged_damage = weapons(state, hero)
    surprise = _come_out_attacking(state, hero, piece)
    check = _venomous_check(state, piece, ranged, armed=melee_bonus > 0)
    if check is not None and check.dice is not None:
        state.push(AttackRoll(dice=str(check.dice), seat=hero.seat, target=piece.uid,
                              check=check.id, surprise=surprise))
        return 1
    damage = ranged_damage if ranged else state.stat(hero, "strength") + melee_bonus
    damage += surprise
    piece.hp = (piece.hp or 0) - damage
    piece.hurt = True
    state.log(f"{hero.character} hits the {piece.monster} for {damage}")
    if piece.hp <= 0:
        kill_piece(state, piece, hero, f"slain by {hero.character}")
    return 1


def _come_out_attacking(state: CatacombsState, hero: Hero, piece: Piece) -> int:
    """An attack from a shelter brings the hero out; returns the surprise-attack bonus."""
    if not hero.hidden:
        return 0
    bonus = surprise_bonus(state, hero, piece)
    hero.hidden = 0
    state.log(f"{hero.character} attacks from the shelter (surprise +{bonus})")
    return bonus


@task(AttackRoll)
def attack_roll(state: CatacombsState, t: AttackRoll, value: int) -> None:
    hero = state.heroes[t.seat]
    piece = next((p for p in state.pieces if p.uid == t.target and p.alive), None)
    if piece is None:
        return
    if passes(state, hero, state.data.checks[t.check], value + t.surprise):
        kill_piece(state, piece, hero, f"slain by {hero.character}")
    else:
        state.log(f"{hero.character} misses the {piece.species or piece.monster} ({value})")


@handles("banish")
@rule("ghost.banish", "ghost.kill")
def do_banish(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A secret knowledge or a weakening spell destroys a ghost on this or the next tile."""
    _spend_magic(state, hero)
    kill_piece(state, _target(state, action.get("target")), hero, "banished")
    return 1


@handles("weaken")
@rule("demon.shield")
def do_weaken(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A secret knowledge or a weakening spell breaks the demon's shield."""
    _spend_magic(state, hero)
    _target(state, action.get("target")).shield = False
    state.log(f"{hero.character} weakens the demon's shield")
    return 1


def _spend_magic(state: CatacombsState, hero: Hero) -> None:
    spell = _weakening(state, hero)
    if spell is not None:
        hero.spells.remove(spell)
        state.discard(spell)
    else:
        hero.secret_knowledge -= 1


@handles("bargain")
@rule("bandit.buy-off", "bandit.hire")
def do_bargain(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Communication 4+ buys a bandit off with treasures; 5+ hires it: the bandit leaves and
    the hero draws a mercenary card face down (within the hire limit)."""
    piece = _target(state, action.get("target"))
    check = state.data.check(piece.monster, action.get("how"))
    hero.treasures -= check.cost_treasures
    piece.alive = False
    state.log(f"{hero.character} {action.get('how')}s the {piece.monster}")
    limit = state.data.characters[hero.character].hire_limit
    pool = state.pools.get("mercenary", {})
    if action.get("how") == "hire" and sum(pool.values()) and len(mercenaries(state, hero)) < limit:
        state.push(ReceiveCard(pool="mercenary", seat=hero.seat))
    return check.actions


@options(RewardChoice)
def reward_options(state: CatacombsState, t: RewardChoice) -> list[Action]:
    monster = state.data.monsters[t.monster]
    rewards = (
        monster.controlled_rewards
        if t.controlled and monster.controlled_rewards
        else monster.rewards
    )
    return [Action.of("reward", option=i) for i in range(len(rewards))]


@task(RewardChoice)
@rule(
    "zombie.rewards",
    "venomous.rewards",
    "bandit.rewards",
    "ghost.rewards",
    "demon.rewards",
    "scarab.rewards",
)
def reward(state: CatacombsState, t: RewardChoice, action: Action) -> None:
    """The slayer chooses one of the monster's reward bundles."""
    hero = state.heroes[t.seat]
    monster = state.data.monsters[t.monster]
    rewards = (
        monster.controlled_rewards
        if t.controlled and monster.controlled_rewards
        else monster.rewards
    )
    bundle = rewards[int(action.get("option"))]
    state.gain(hero, bundle, f"killing a {t.monster}")


@actions_of
def use_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """Healing items a hurt hero may use."""
    if not hero.active or hero.hp >= hero.max_hp:
        return []
    out = []
    for item_id in sorted(set(hero.items)):
        item = state.data.items.get(item_id)
        if item is not None and item.heal:
            out.append(Action.of("use", item=item_id))
    return out


@handles("use")
@rule("engine.healing")
def do_use(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A healing item restores its health (up to the board's); full health mends a broken leg;
    single-use items are discarded."""
    item = state.data.items[action.get("item")]
    hero.hp = min(hero.max_hp, hero.hp + item.heal)
    if hero.hp >= hero.max_hp:
        hero.speed_set = None
    if item.single_use:
        hero.items.remove(item.id)
    state.log(f"{hero.character} uses {item.id}, health {hero.hp}")
    return 1
