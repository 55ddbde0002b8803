"""Attacks: opposed rolls of one trait, the difference as damage, ranged attacks along the line
of fire, stealing instead of damage, and monsters that are stunned instead of killed."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.haunted_house.checks import capped
from engine.games.haunted_house.machine import actions_of, handles, options, resolves, step
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import EXPLORER, HERO, MONSTER, HouseState
from engine.games.haunted_house.traits import lower, take_damage

BEAST = -1
"""The monster, where a fight names a combatant (explorers are their seat numbers)."""


def traits_of(state: HouseState, who: int) -> set[str]:
    """The traits a combatant has: every explorer has all four; a monster only its own."""
    if who == BEAST:
        return set(state.data.monsters[state.monster["id"]].traits)
    return set(state.data.rules.trait_group)


def room_of(state: HouseState, who: int) -> str:
    return state.monster["room"] if who == BEAST else state.seats[who].room


def name_of(state: HouseState, who: int) -> str:
    return state.data.monsters[state.monster["id"]].name if who == BEAST else state.who(who)


def monster_here(state: HouseState) -> bool:
    return bool(state.monster) and not state.monster.get("killed")


@rule("attack.after-start", "attack.once", "attack.missing-trait", "weapons.one-per-attack",
      "weapons.not-required", "attack.other-traits", "attack.stunned-attack", "weapons.list")
def attack_options(state: HouseState, seat: int) -> list[tuple[int, str, str]]:
    """(target, trait, weapon) for every attack the explorer may make now: only after the
    scenario has begun, once a turn, at an opponent in the room (or on the line of fire with a
    ranged weapon), with a trait the target has, with at most one weapon (or none)."""
    s = state.seats[seat]
    if not state.scenario or state.turn["attacked"] >= state.data.rules.attacks_per_turn:
        return []
    foes = [o.seat for o in state.seats if o.alive and o.side and o.side != s.side]
    if s.side == HERO and monster_here(state):
        foes.append(BEAST)
    here = state.layout.line_of_fire(s.room)
    weapons = sorted({i for i in s.items if state.item(i).weapon})
    extra = []
    if s.side:
        side = state.data.scenarios[state.scenario].side(s.side)
        for sp in side.specials:
            if sp.type == "attack-with":
                extra += list(sp.traits)
    out: list[tuple[int, str, str]] = []
    for foe in sorted(foes):
        has = traits_of(state, foe)
        same = room_of(state, foe) == s.room
        choices: list[tuple[str, str]] = []
        if same:
            choices.append((state.data.rules.attack_trait, ""))
            if foe == BEAST:
                choices += [(t, "") for t in extra]
        for w in weapons:
            attack = state.item(w).attack
            if same or (attack.ranged and room_of(state, foe) in here):
                choices.append((attack.trait, w))
        for trait, weapon in choices:
            if trait in has and (foe, trait, weapon) not in out:
                out.append((foe, trait, weapon))
    return out


@actions_of(20)
def attack_actions(state: HouseState) -> list[Action]:
    seat = int(state.turn["seat"])
    if state.turn["phase"] != EXPLORER or not state.seats[seat].alive:
        return []
    return [Action.of("attack", target=t, trait=tr, weapon=w)
            for t, tr, w in attack_options(state, seat)]


@handles("attack")
def do_attack(state: HouseState, action: Action) -> None:
    seat = int(state.turn["seat"])
    state.turn["attacked"] += 1
    weapon = str(action.get("weapon") or "")
    ranged = bool(weapon and state.item(weapon).attack.ranged)
    start_fight(state, seat, int(action.get("target")), str(action.get("trait")), weapon, ranged)


@rule("attack.might", "weapons.attack-only", "trait-rolls.attack-is-not")
def start_fight(state: HouseState, attacker: int, defender: int, trait: str, weapon: str,
                ranged: bool) -> None:
    """Both roll the same trait; the attacker adds the weapon's dice, the defender never does."""
    extra = state.item(weapon).attack.dice if weapon else 0
    state.fight = {"a": attacker, "d": defender, "trait": trait, "weapon": weapon,
                   "ranged": ranged}
    state.push({"t": "roll", "fn": "fight-roll", "side": "a",
                "n": capped(state, fight_value(state, attacker, trait) + extra)},
               {"t": "roll", "fn": "fight-roll", "side": "d",
                "n": capped(state, fight_value(state, defender, trait))},
               {"t": "do", "fn": "fight"})


def fight_value(state: HouseState, who: int, trait: str) -> int:
    if who == BEAST:
        return state.data.monsters[state.monster["id"]].traits_at(state.players)[trait]
    return state.value(who, trait)


@resolves("fight-roll")
def resolve_fight_roll(state: HouseState, frame: dict, action: Action) -> None:
    state.fight[f"{frame['side']}_roll"] = int(action.get("total"))
    state.fight[f"{frame['side']}_dice"] = int(frame["n"])


@step("fight")
@rule("attack.difference", "attack.tie", "attack.mental", "special-attacks.ranged-miss",
      "attack.stunned-defence", "attack.example", "combat-example.roll",
      "combat-example.damage")
def resolve_fight(state: HouseState, frame: dict) -> None:
    """The higher total deals the difference as damage of the trait's kind; a tie does
    nothing. A losing ranged attacker is unharmed; a stunned monster that wins deals nothing;
    a beaten monster is stunned (or killed, if the scenario says so)."""
    f = state.fight
    a, d, trait = int(f["a"]), int(f["d"]), f["trait"]
    margin = int(f["a_roll"]) - int(f["d_roll"])
    kind = state.data.rules.trait_group[trait]
    how = f" with the {state.item_name(f['weapon'])}" if f["weapon"] else ""
    state.log(f"{name_of(state, a)} attacks {name_of(state, d)} with {trait}{how} — "
              f"{f['a_dice']} dice for {f['a_roll']} against {f['d_dice']} dice for {f['d_roll']}")
    cost = state.item(f["weapon"]).attack.cost if f["weapon"] else None
    if cost and a != BEAST:
        lower(state, a, cost[0], cost[1], f"the {state.item_name(f['weapon'])}")
    if margin == 0:
        state.log("a tie — nobody is hurt")
    elif margin > 0:
        won(state, a, d, kind, margin)
    elif f["ranged"]:
        state.log(f"{name_of(state, a)} misses and takes no damage")
    elif a == BEAST:
        stun(state, f"the {name_of(state, a)} loses its own attack")
    elif d == BEAST and int(state.monster["stunned"]) > 0:
        state.log(f"the stunned {name_of(state, d)} wins but deals no damage")
    else:
        take_damage(state, a, kind, -margin, f"fight with {name_of(state, d)}")
    state.fight = {}


def won(state: HouseState, a: int, d: int, kind: str, margin: int) -> None:
    """The attacker won by `margin`."""
    if d == BEAST:
        beaten(state, a)
        return
    loot = stealable(state, a, d, kind, margin)
    if loot:
        state.push({"t": "decide", "fn": "steal", "seat": a, "victim": d, "type": kind,
                    "steps": margin, "loot": loot})
    else:
        take_damage(state, d, kind, margin, f"fight with {name_of(state, a)}")


@rule("special-attacks.steal", "special-attacks.steal-ranged", "steal-mental")
def stealable(state: HouseState, a: int, d: int, kind: str, margin: int) -> list[str]:
    """What the attacker may take instead of dealing damage: with 2+ physical damage, not at a
    distance, one item the victim could hand over."""
    rules = state.data.rules
    if (a == BEAST or state.fight.get("ranged") or kind != rules.steal_type
            or margin < rules.steal_min):
        return []
    return sorted({i for i in state.seats[d].items if state.item(i).transferable})


@options("steal")
@rule("attack.instead")
def steal_options(state: HouseState, frame: dict) -> list[Action]:
    return [Action.of("inflict")] + [Action.of("steal", item=i) for i in frame["loot"]]


@resolves("steal")
def resolve_steal(state: HouseState, frame: dict, action: Action) -> None:
    a, d = int(frame["seat"]), int(frame["victim"])
    if action.kind == "inflict":
        take_damage(state, d, frame["type"], int(frame["steps"]), f"fight with {state.who(a)}")
        return
    item = str(action.get("item"))
    state.seats[d].items.remove(item)
    state.seats[a].items.append(item)
    state.log(f"{state.who(a)} steals the {state.item_name(item)} from {state.who(d)} "
              "instead of dealing damage")


@rule("attack.stunned", "house.silver-strike")
def beaten(state: HouseState, a: int) -> None:
    """A beaten monster is stunned, unless the scenario lets this attacker kill it."""
    sc = state.data.scenarios[state.scenario]
    side = sc.side(state.seats[a].side)
    for sp in side.specials:
        if sp.type == "kill-with-token" and any(
                i.startswith(f"token:{sp.token}:") for i in state.seats[a].items):
            state.monster["killed"] = True
            state.log(f"{state.who(a)} kills the {name_of(state, BEAST)} ({sp.name})")
            return
    stun(state, f"{state.who(a)} beats it")


@rule("house.stunned-turns")
def stun(state: HouseState, why: str) -> None:
    state.monster["stunned"] = state.data.rules.stunned_turns
    state.log(f"the {name_of(state, BEAST)} is stunned ({why})")


# ----- the monster attacks ----------------------------------------------------------------------


def monster_targets(state: HouseState) -> list[int]:
    """Heroes the monster may attack: in its room, or on its line of fire if it shoots."""
    m = state.data.monsters[state.monster["id"]]
    reach = state.layout.line_of_fire(state.monster["room"]) if m.ranged else [
        state.monster["room"]]
    return [h for h in state.heroes() if state.seats[h].alive and state.seats[h].room in reach]


@actions_of(21)
def monster_attack_actions(state: HouseState) -> list[Action]:
    if state.turn["phase"] != MONSTER or state.turn["attacked"] >= 1:
        return []
    return [Action.of("monster-attack", target=h) for h in monster_targets(state)]


@handles("monster-attack")
@rule("special-attacks.ranged-monsters")
def do_monster_attack(state: HouseState, action: Action) -> None:
    """The monster attacks with its own trait; a ranged monster along the line of fire."""
    state.turn["attacked"] += 1
    m = state.data.monsters[state.monster["id"]]
    start_fight(state, BEAST, int(action.get("target")), m.attack_trait, "", m.ranged)
