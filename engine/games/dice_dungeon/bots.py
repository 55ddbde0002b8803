"""A heuristic party: it hands out the numbers by what each is worth this turn, paints towards
the doors it wants, fights when the odds (exact, `odds.win_chance`) beat the damage it risks,
spends abilities and gold to close a gap, spreads damage so nobody dies needlessly and buys
levels (reviving the fallen first).

Every seat plays the same party logic (the game is cooperative); the bot's own seeded
generator only breaks ties in the class draft.
"""

from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction
from typing import Any

from engine.core.api import Action
from engine.core.rng import Rng
from engine.games.dice_dungeon.chests import chest_of, guarded, locked, stars
from engine.games.dice_dungeon.combat import (
    SHIELD,
    WEAPON,
    attack_result,
    damage_dealt,
)
from engine.games.dice_dungeon.data import Cell, Grid, Reward
from engine.games.dice_dungeon.grid import NEIGHBOURS, Placement, legal_placements
from engine.games.dice_dungeon.heroes import abilities_of, level_cost
from engine.games.dice_dungeon.monsters import upgradable_tracks
from engine.games.dice_dungeon.odds import win_chance_float
from engine.games.dice_dungeon.state import DungeonState

FAR = 99
ITEM_VALUE = {"magic-weapon": 5.0, "magic-shield": 4.0, "potion": 2.0, "lockpick": 2.0,
              "key": 9.0, "unique": 0.0}


class HeuristicBot:
    def __init__(self, seed: int):
        self.rng = Rng(seed)

    def choose(self, state: DungeonState) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        step = state.queue[0]
        pick = getattr(self, "_" + step["step"].replace("-", "_"), None)
        chosen = pick(state, step, actions) if pick else None
        return chosen if chosen in actions else actions[0]

    # ----- the draft --------------------------------------------------------------------------
    def _pick_class(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        """Random classes, with the Burglar three times as likely on maps with locked doors;
        the last pick of a party of three or more takes him if nobody has."""
        opener = [a for a in actions if a.get("hero_class") == "burglar"]
        locks = state.adventure.locked_doors
        last = int(step["hero"]) == len(state.heroes) - 1
        if opener and locks and last and len(state.heroes) > 2:
            return opener[0]
        weights = [Fraction(3 if (locks and a in opener) else 1) for a in actions]
        return actions[self.rng.weighted(weights)]

    # ----- handing out the numbers ------------------------------------------------------------
    def _assign(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        plan = Planner(state)
        assigns = [a for a in actions if a.kind == "assign"]
        best = max(assigns, key=lambda a: (plan.assignment_value(a), _neg(a)))
        best_value = plan.assignment_value(best)
        for action in actions:
            if action.kind != "ability":
                continue
            gain = plan.ability_gain(action) - best_value
            if gain > 3.0:
                return action
        return best

    def _place(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        plan = Planner(state)
        shape = state.data.shapes[state.assigned["explore"]]
        placements = legal_placements(state.adventure.grid, state.painted, shape,
                                      state.data.rules)
        best = max(placements, key=lambda p: (plan.placement_value(p), -p.y, -p.x, -p.turn))
        return Action.of("place", x=best.x, y=best.y, turn=best.turn)

    def _upgrade(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        """Strengthen the track that hurts less: attack while the party can take it, else
        health."""
        index = int(step["monster"])
        plan = Planner(state)
        return min(actions, key=lambda a: plan.upgrade_cost(index, str(a.get("track"))))

    # ----- fighting ---------------------------------------------------------------------------
    def _choose_attack(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        plan = Planner(state)
        best, best_value = Action.of("pass"), 0.0
        for action in actions:
            if action.kind != "attack":
                continue
            value = plan.attack_value(int(action.get("monster")))
            if action.get("item"):
                value -= 1.0
            if value > best_value:
                best, best_value = action, value
        if best.kind == "pass":
            return self._safe_try(plan, actions) or best
        return best

    @staticmethod
    def _safe_try(plan: Planner, actions: list[Action]) -> Action | None:
        """When no fight pays on its own, try the likeliest one that kills nobody: monsters
        only grow stronger, so waiting gains nothing while the turns run out."""
        tries = [(plan.win_chance(int(a.get("monster"))), a) for a in actions
                 if a.kind == "attack" and not a.get("item")
                 and plan.deaths(plan.expected_damage(int(a.get("monster")))) == 0]
        tries = [(p, a) for p, a in tries if p > 0.0]
        if not tries:
            return None
        return max(tries, key=lambda t: (t[0] * plan.monster_worth(int(t[1].get("monster"))),
                                         _neg(t[1])))[1]

    def _fight(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        fight = state.fight
        assert fight is not None
        index = int(fight["monster"])
        health = state.monster_value(index, "health")
        total = attack_result(state)
        damage = damage_dealt(state)
        reducers = [a for a in actions
                    if a.kind == "ability" and _ability(state, a).damage_reduction]
        if total >= health:
            return self._soften(state, damage, reducers) or Action.of("strike")
        gap = health - total
        bonuses = [a for a in actions if a.kind == "ability" and _ability(state, a).attack_bonus]
        free = [a for a in bonuses if _ability(state, a).cost == 0]
        if free:
            return free[0]
        closing = self._closing_set(state, bonuses, gap)
        if closing:
            return closing[0]
        low = min(fight["dice"])
        free_rerolls = [a for a in actions if a.kind == "ability" and a.get("die") == low]
        if free_rerolls and low < state.data.rules.fight_die.sides:
            return free_rerolls[0]
        paid = [a for a in actions if a.kind == "reroll" and a.get("die") == low]
        if paid and self._reroll_worth(state, gap):
            return paid[0]
        return self._soften(state, damage, reducers) or Action.of("strike")

    @staticmethod
    def _closing_set(state: DungeonState, bonuses: list[Action], gap: int) -> list[Action]:
        """The cheapest abilities whose bonuses close the gap (empty when none do)."""
        best: tuple[int, list[Action]] | None = None
        for n in range(1, len(bonuses) + 1):
            for combo in itertools.combinations(bonuses, n):
                if len({a.get("hero") for a in combo}) < len(combo) and _same_hero_cost(
                        state, combo):
                    continue
                if sum(_ability(state, a).attack_bonus for a in combo) >= gap:
                    cost = sum(_ability(state, a).cost for a in combo)
                    if best is None or cost < best[0]:
                        best = (cost, list(combo))
        return best[1] if best else []

    @staticmethod
    def _reroll_worth(state: DungeonState, gap: int) -> bool:
        """Reroll while one die can still close the gap."""
        fight = state.fight
        assert fight is not None
        heroes = max(1, len(fight["dice"]))
        sides = state.data.rules.fight_die.sides
        return (sides - min(fight["dice"])) >= (gap - 1) * heroes + 1

    @staticmethod
    def _soften(state: DungeonState, damage: int, reducers: list[Action]) -> Action | None:
        if damage <= 0 or not reducers:
            return None
        pool = sum(state.health(h) for h in state.living())
        weakest = min(state.health(h) for h in state.living())
        if damage >= weakest or damage >= pool // 2 or len(reducers) > 1:
            return min(reducers, key=lambda a: _ability(state, a).cost)
        return None

    def _wound(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        """The healthiest hero takes the point (so nobody dies who need not)."""
        return max(actions, key=lambda a: (state.health(state.heroes[int(a.get("hero"))]),
                                           -int(a.get("hero"))))

    # ----- chests -----------------------------------------------------------------------------
    def _open_chest(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        index = int(step["chest"])
        kinds = {a.kind: a for a in actions}
        plan = Planner(state)
        if "unlock" in kinds:
            heroes = [a for a in actions if a.kind == "unlock" and a.get("hero") is not None]
            wanted = step.get("why") == "number" or plan.open_now(index)
            return (heroes or [kinds["unlock"]])[0] if wanted else kinds["leave"]
        if "disarm" in kinds:
            return kinds["disarm"]
        if step.get("why") == "number" or plan.open_now(index):
            trap = chest_of(state, index).trap_damage if chest_of(state, index).trapped else 0
            if trap and trap >= sum(state.health(h) for h in state.living()):
                return kinds["leave"]
            return kinds["open"]
        return kinds["leave"]

    # ----- the end of the turn ----------------------------------------------------------------
    def _end_turn(self, state: DungeonState, step: dict, actions: list[Action]) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        dead = [a for a in by_kind.get("level-up", [])
                if not state.alive(state.heroes[int(a.get("hero"))])]
        if dead:
            return dead[0]
        for kind in ("ability", "potion"):
            for a in by_kind.get(kind, []):
                target = state.heroes[int(a.get("target"))]
                heal = _ability(state, a).heal if kind == "ability" else \
                    state.data.items[str(a.get("item"))].heal
                if target.wounds >= heal or state.health(target) <= 1:
                    return a
        reserve = 2 if state.turn < state.adventure.max_turns - 2 else 0
        ups = [a for a in by_kind.get("level-up", [])
               if state.gold - level_cost(state, state.heroes[int(a.get("hero"))]) >= reserve]
        if ups:
            return min(ups, key=lambda a: (state.health(state.heroes[int(a.get("hero"))]),
                                           int(a.get("hero"))))
        for a in by_kind.get("unlock", []):
            if a.get("hero") is not None:
                return a
        return Action.of("done")


def _neg(action: Action) -> tuple:
    return tuple(-int(v) if isinstance(v, int) else 0 for _, v in action.args)


def _ability(state: DungeonState, action: Action) -> Any:
    hero = state.heroes[int(action.get("hero"))]
    return next(a for a in state.hero_class(hero).abilities if a.id == action.get("ability"))


def _same_hero_cost(state: DungeonState, combo: tuple[Action, ...]) -> bool:
    """Two abilities of one hero that together cost more points than the hero has."""
    by_hero: dict[int, int] = {}
    for a in combo:
        hero = int(a.get("hero"))
        by_hero[hero] = by_hero.get(hero, 0) + _ability(state, a).cost
    return any(cost > state.ability_points(state.heroes[h]) for h, cost in by_hero.items())


class Planner:
    """What things are worth to the party in the current position (a points-like scale)."""

    def __init__(self, state: DungeonState):
        self.state = state
        self.adventure = state.adventure
        self.grid = state.adventure.grid
        self.turns_left = self.adventure.max_turns - state.turn
        self._memo: dict[tuple, float] = {}
        self._explore: dict[int, float] = {}
        self._targets: list[tuple[Cell, float]] | None = None

    # ----- fights -------------------------------------------------------------------------
    def potential_bonus(self) -> int:
        s = self.state
        weapons = s.count_type(WEAPON) * s.data.rules.weapon_bonus
        abilities = sum(a.attack_bonus for _, _, a in abilities_of(s, "fight"))
        return weapons + abilities

    def win_chance(self, index: int) -> float:
        key = ("win", index, self.state.monsters[index].health_boxes)
        if key not in self._memo:
            self._memo[key] = self._win_chance(index)
        return self._memo[key]

    def _win_chance(self, index: int) -> float:
        s = self.state
        heroes = len(s.living())
        if not heroes:
            return 0.0
        monster = s.monster(index)
        bonus = 0 if monster.has("no-abilities") else sum(
            a.attack_bonus for _, _, a in abilities_of(s, "fight"))
        if not monster.has("ignore-weapons"):
            bonus += s.count_type(WEAPON) * s.data.rules.weapon_bonus
        price = s.data.rules.reroll_cost if not monster.has("reroll-cost") else \
            monster.amount("reroll-cost")
        rerolls = 0 if monster.has("no-rerolls") else min(3, s.gold // max(1, price))
        rerolls += sum(1 for _, _, a in abilities_of(s, "fight") if a.reroll == "fight-die")
        need = s.monster_value(index, "health") - bonus
        return win_chance_float(heroes, need, min(rerolls, 3), s.data.rules.fight_die.sides)

    def expected_damage(self, index: int) -> int:
        s = self.state
        monster = s.monster(index)
        r = s.data.rules
        shields = 0 if monster.has("ignore-shields") else min(
            s.count_type(SHIELD), len(s.living()) * r.shields_per_hero) * r.shield_reduction
        shields = min(shields, r.max_shield_reduction)
        reduction = 0 if monster.has("no-abilities") else max(
            (a.damage_reduction for _, _, a in abilities_of(s, "fight")), default=0)
        attack = s.monster_value(index, "attack") + monster.amount("extra-damage")
        return max(0, attack - shields - reduction)

    def monster_worth(self, index: int) -> float:
        s, a = self.state, self.adventure
        worth = a.scoring.monster + 4.0
        if a.boss == index:
            worth += a.scoring.boss + 10.0
            if a.unique_treasure:
                worth += s.data.items[a.unique_treasure].points
        monster = s.monster(index)
        if monster.drops:
            worth += ITEM_VALUE.get(s.data.items[monster.drops].type, 2.0)
        chest = s.chest_in_room(s.room_of_monster(index))
        worth += 0.8 * stars(s, chest) + 0.5 * s.chests[chest].boxes
        return worth

    def deaths(self, damage: int) -> int:
        """Heroes who must die when the party takes this damage, spread as kindly as can be."""
        return max(0, damage - sum(self.state.health(h) - 1 for h in self.state.living()))

    def damage_cost(self, damage: int) -> float:
        """Damage is cheap while it kills nobody; a death costs the hero's abilities, shield
        and dice (a level brings the hero back); losing everyone loses the level."""
        s = self.state
        if damage <= 0:
            return 0.0
        if damage >= sum(s.health(h) for h in s.living()):
            return 60.0
        deaths = self.deaths(damage)
        revive = 0.0 if s.gold >= s.data.rules.level_cost_base + 1 else 3.0
        return 1.0 * damage + (4.0 + revive + self.adventure.scoring.hero_alive) * deaths

    def attack_value(self, index: int) -> float:
        p = self.win_chance(index)
        urgency = 1.0 + (2.0 if self.turns_left <= 5 else 0.0)
        return p * self.monster_worth(index) * urgency - self.damage_cost(
            self.expected_damage(index))

    def upgrade_cost(self, index: int, track: str) -> float:
        key = ("upgrade", index, track)
        if key not in self._memo:
            self._memo[key] = self._upgrade_cost(index, track)
        return self._memo[key]

    def _upgrade_cost(self, index: int, track: str) -> float:
        """What one more box costs the party: health makes the monster harder to beat (with
        the bonus the party may yet find), attack makes its fights hurt more; a monster the
        party must beat (the boss) or can reach now matters more."""
        s = self.state
        if track not in upgradable_tracks(s, index):
            return 0.0
        weight = (1.0 if self.door_reached(index) else 0.6) * (
            2.0 if self.adventure.boss == index else 1.0)
        if track == "health":
            health = s.monster_value(index, "health")
            need = health - self.potential_bonus() - 1
            heroes = max(1, len(s.living()))
            sides = s.data.rules.fight_die.sides
            drop = win_chance_float(heroes, need, 1, sides) - win_chance_float(heroes, need + 1,
                                                                               1, sides)
            return weight * (1.0 + drop * self.monster_worth(index))
        now = self.expected_damage(index)
        return weight * (1.0 + self.damage_cost(now + 1) - self.damage_cost(now))

    def door_reached(self, index: int) -> bool:
        room = self.grid.room(self.state.room_of_monster(index))
        return room.doorstep in self.state.painted

    # ----- the numbers ----------------------------------------------------------------------
    def assignment_value(self, action: Action) -> float:
        return (self.explore_value(int(action.get("explore")))
                + self.treasure_value(int(action.get("treasure")) - 1)
                + self.monster_value(int(action.get("monster")) - 1))

    def ability_gain(self, action: Action) -> float:
        """The best assignment after a roll ability, less what its point is worth."""
        s = self.state
        dice = list(s.dice)
        face = int(action.get("die"))
        dice.remove(face)
        if action.get("to") is not None:
            results = [([*dice, int(action.get("to"))], 1.0)]
        else:
            sides = s.data.rules.turn_dice.sides
            results = [([*dice, v], 1.0 / sides) for v in range(1, sides + 1)]
        total = 0.0
        for faces, weight in results:
            total += weight * max(
                self.explore_value(e) + self.treasure_value(t - 1) + self.monster_value(m - 1)
                for e, t, m in set(itertools.permutations(faces)))
        return total - 1.5

    def explore_value(self, face: int) -> float:
        if face in self._explore:
            return self._explore[face]
        rules = self.state.data.rules
        if face in rules.reroll_faces:
            others = [f for f in self.state.data.shapes if f not in rules.reroll_faces]
            value = sum(self.explore_value(f) for f in others) / len(others)
        else:
            shape = self.state.data.shapes[face]
            moves = legal_placements(self.grid, self.state.painted, shape, rules)
            value = max((self.placement_value(p) for p in moves), default=0.0)
        self._explore[face] = value
        return value

    def targets(self) -> list[tuple[Cell, float]]:
        """Doorsteps the party wants to reach, with how much each matters."""
        if self._targets is None:
            s = self.state
            out = []
            for index, sheet in enumerate(s.monsters):
                if sheet.defeated or self.door_reached(index):
                    continue
                room = self.grid.room(s.room_of_monster(index))
                weight = 6.0
                if room.locked and not _can_open_door(s):
                    weight = 1.0
                if self.adventure.boss == index:
                    weight += 3.0
                out.append((room.doorstep, weight))
            self._targets = out
        return self._targets

    def distances(self, target: Cell) -> dict[Cell, int]:
        """Steps over floor squares from the target doorstep (painted or not)."""
        return _distances(self.grid, target)

    def reach(self, target: Cell, cells: Any) -> int:
        dist = self.distances(target)
        return min((dist.get(c, FAR) for c in cells), default=FAR)

    def reach_now(self, target: Cell) -> int:
        """Steps from the painted area (and the start) to the target, before this turn."""
        key = ("reach", target)
        if key not in self._memo:
            base = self.state.painted | self.grid.start
            self._memo[key] = self.reach(target, base) if base else FAR
        return int(self._memo[key])

    def placement_value(self, placement: Placement) -> float:
        """Progress towards the wanted doorsteps; a doorstep that would end up between two
        painted squares can never be painted, which costs its whole worth."""
        s = self.state
        painted, start = s.painted, self.grid.start
        cells = set(placement.cells)
        value = 0.1 * len(placement.cells)
        for target, weight in self.targets():
            if target in cells:
                value += weight * 3.0
                continue
            touching = 0
            for dx, dy in NEIGHBOURS:
                n = (target[0] + dx, target[1] + dy)
                touching += n in cells or n in painted or n in start
            if touching >= 2:
                value -= weight * 4.0
                continue
            before = self.reach_now(target)
            after = min(before, self.reach(target, placement.cells))
            value += weight * max(0, before - after) / max(1, before)
        if self.adventure.scoring.tomb:
            near = {(x + dx, y + dy) for x, y in placement.cells for dx, dy in NEIGHBOURS}
            value += self.adventure.scoring.tomb * sum(
                1 for t in self.grid.tombs if t in near and not any(
                    (t[0] + dx, t[1] + dy) in s.painted for dx, dy in NEIGHBOURS))
        return value

    def reward_value(self, reward: Reward) -> float:
        s = self.state
        if reward.points:
            return reward.points * max(1, self.adventure.scoring.chest_points)
        if reward.gold:
            return reward.gold * (1.0 + self.adventure.scoring.gold)
        if reward.item:
            item = s.data.items[reward.item]
            if item.type == "key":
                return 0.0 if s.has(item.id) else ITEM_VALUE["key"]
            return ITEM_VALUE.get(item.type, 1.0)
        return 0.0

    def treasure_value(self, index: int) -> float:
        s = self.state
        chest, sheet = chest_of(s, index), s.chests[index]
        if sheet.opened or sheet.boxes >= len(chest.boxes):
            return 0.0
        value = self.reward_value(chest.boxes[sheet.boxes])
        if chest.locked and not sheet.unlocked and not _can_open_chest(s):
            value *= 0.3
        monster = s.monster_in_room(s.chest_rooms[index])
        if not s.monsters[monster].defeated and self.turns_left < 6:
            value *= 0.5
        return value

    def immediate_value(self, index: int) -> float:
        """What opening a chest now gives that waiting would not: gold and items."""
        s = self.state
        chest, sheet = chest_of(s, index), s.chests[index]
        value = 0.0
        for reward in chest.boxes[:sheet.boxes]:
            if reward.gold or reward.item:
                value += self.reward_value(reward)
            elif locked(s, index):
                value += reward.points
        if chest.trapped and not sheet.disarmed and chest.trap_damage:
            value -= self.damage_cost(chest.trap_damage)
        return value

    def open_now(self, index: int) -> bool:
        s = self.state
        chest, sheet = chest_of(s, index), s.chests[index]
        if sheet.boxes >= len(chest.boxes) or self.turns_left <= 3:
            return True
        keys = any(r.item and s.data.items[r.item].type == "key" and not s.has(r.item)
                   for r in chest.boxes[:sheet.boxes])
        return keys or self.immediate_value(index) >= 3.5

    def monster_value(self, index: int) -> float:
        s = self.state
        if s.monsters[index].defeated:
            chest = s.chest_in_room(s.room_of_monster(index))
            sheet = s.chests[chest]
            if sheet.opened or not sheet.boxes or guarded(s, chest):
                return 0.0
            return max(0.0, self.immediate_value(chest) - 1.0) if self.open_now(chest) else 0.0
        tracks = upgradable_tracks(s, index)
        if not tracks:
            return 0.0
        return -min(self.upgrade_cost(index, t) for t in tracks)


_DISTANCES: dict[tuple[int, Cell], tuple[Grid, dict[Cell, int]]] = {}


def _distances(grid: Grid, target: Cell) -> dict[Cell, int]:
    hit = _DISTANCES.get((id(grid), target))
    if hit is not None and hit[0] is grid:
        return hit[1]
    found = {target: 0}
    todo = deque([target])
    while todo:
        x, y = todo.popleft()
        for dx, dy in NEIGHBOURS:
            n = (x + dx, y + dy)
            if n in grid.floor and n not in found:
                found[n] = found[(x, y)] + 1
                todo.append(n)
    _DISTANCES[(id(grid), target)] = (grid, found)
    return found


def _can_open_door(state: DungeonState) -> bool:
    return bool(state.count_type("lockpick")) or any(
        "locked-door" in a.opens for _, _, a in abilities_of(state, "lock"))


def _can_open_chest(state: DungeonState) -> bool:
    return bool(state.count_type("lockpick")) or any(
        "locked-chest" in a.opens for h in state.heroes if h.cls
        for a in state.hero_class(h).abilities)
