"""The heuristic bots: one for the explorers (before the scenario, and the heroes after it) and
one for the traitor (who also plays the monster); `HeuristicBot` hands each seat to the one its
side calls for.

They never stall: every turn they move or explore while that is useful and otherwise end the
turn; each free action (picking up, using, handing over) is taken at most once per item.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.api import Action
from engine.games.haunted_house.combat import BEAST
from engine.games.haunted_house.dice import at_least, win_chance
from engine.games.haunted_house.scenario import feature_rooms, side_of
from engine.games.haunted_house.state import HERO, MONSTER, TOKEN, TRAITOR, HouseState
from engine.games.haunted_house.traits import carried_tokens


class HeuristicBot:
    """The `heuristic` bot of a seat: the explorers' policy until the seat turns traitor, then
    the traitor's (who also plays the monster)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.explorer = ExplorerBot(seat)
        self.traitor = TraitorBot(seat)

    def choose(self, state: HouseState) -> Action:
        policy = self.traitor if state.seats[self.seat].side == TRAITOR else self.explorer
        return policy.choose(state)


class _Policy:
    """What both sides do alike: decisions, picking up, healing, tasks, rooms, walking."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state: HouseState) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.queue and state.queue[0]["t"] == "decide":
            return self.decide(state, state.queue[0], actions)
        if state.turn["phase"] == MONSTER:
            return self.monster_turn(state, actions)
        return self.explorer_turn(state, actions)

    def monster_turn(self, state: HouseState, actions: list[Action]) -> Action:
        return Action.of("end")

    def goal_rooms(self, state: HouseState) -> set[str]:
        """Rooms the explorer wants to reach, or an empty set to explore."""
        return set()

    def flee(self, state: HouseState, by_kind: dict, goal: set[str]) -> Action | None:
        return None

    def give(self, state: HouseState, by_kind: dict) -> Action | None:
        return None

    def need(self, state: HouseState, need: Fraction) -> Fraction:
        """The chance of winning an attack this side wants before attacking."""
        return need

    # ----- decisions --------------------------------------------------------------------------
    def decide(self, state: HouseState, frame: dict, actions: list[Action]) -> Action:
        if frame["fn"] == "split":
            return self.split(state, frame, actions)
        if frame["fn"] == "rotate":
            return max(actions, key=lambda a: _new_edges(state, frame, str(a.get("doors"))))
        if frame["fn"] == "steal":
            steals = [a for a in actions if a.kind == "steal"]
            wanted = [a for a in steals if str(a.get("item")).startswith(TOKEN)]
            wanted += [a for a in steals if state.item(str(a.get("item"))).weapon]
            return wanted[0] if wanted else actions[0]
        return actions[0]

    def split(self, state: HouseState, frame: dict, actions: list[Action]) -> Action:
        """Take each step from the trait with the most marks left above the death mark."""
        seat = int(frame["seat"])
        marks = dict(state.seats[seat].marks)
        traits = state.data.rules.groups[frame["type"]]
        taken = dict.fromkeys(traits, 0)
        for _ in range(int(frame["steps"])):
            pick = max(traits, key=lambda t: (marks[t] - taken[t], t == traits[1]))
            taken[pick] += 1
        return next((a for a in actions if all(int(a.get(t)) == taken[t] for t in traits)),
                    actions[0])

    # ----- an explorer's turn -----------------------------------------------------------------
    def explorer_turn(self, state: HouseState, actions: list[Action]) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        for take in (self.pick_up, self.use, self.attack, self.task, self.special,
                     self.room, self.give):
            found = take(state, by_kind)
            if found is not None:
                return found
        goal = self.goal_rooms(state)
        found = self.flee(state, by_kind, goal)
        if found is None:
            found = self.walk(state, by_kind, goal)
        return found if found is not None else Action.of("end")

    def pick_up(self, state: HouseState, by_kind: dict) -> Action | None:
        for a in by_kind.get("pick-up", ()):
            return a
        return None

    def use(self, state: HouseState, by_kind: dict) -> Action | None:
        s = state.seats[self.seat]
        tracks = state.data.explorers[s.explorer].tracks
        for a in by_kind.get("use", ()):
            item = state.item(str(a.get("item")))
            if any(s.marks[e.trait] < tracks[e.trait].start for e in item.use):
                return a
        return None

    def attack(self, state: HouseState, by_kind: dict) -> Action | None:
        options = by_kind.get("attack", ())
        if not options:
            return None
        sc = state.data.scenarios[state.scenario]
        best, best_score = None, Fraction(0)
        for a in options:
            target, trait = int(a.get("target")), str(a.get("trait"))
            weapon = str(a.get("weapon") or "")
            if weapon and _cost_kills(state, self.seat, weapon):
                continue
            chance = _win(state, self.seat, target, trait, weapon)
            ranged = bool(weapon and state.item(weapon).attack.ranged)
            need = Fraction(1, 3) if ranged else Fraction(11, 20)
            score = chance
            if target == BEAST:
                if int(state.monster["stunned"]) > 0 and not _kills(state, self.seat, sc):
                    continue
                if _kills(state, self.seat, sc):
                    score, need = score + 1, Fraction(0)
            elif any(i.startswith(TOKEN) for i in state.seats[target].items):
                score, need = score + Fraction(1, 4), min(need, Fraction(1, 4))
            if chance >= self.need(state, need) and score > best_score:
                best, best_score = a, score
        return best

    def task(self, state: HouseState, by_kind: dict) -> Action | None:
        options = by_kind.get("task", ())
        if not options:
            return None
        from engine.games.haunted_house.checks import dice_for

        return max(options, key=lambda a: (dice_for(state, self.seat, str(a.get("trait"))),
                                           -options.index(a)))

    def special(self, state: HouseState, by_kind: dict) -> Action | None:
        for a in by_kind.get("special", ()):
            return a
        return None

    def room(self, state: HouseState, by_kind: dict) -> Action | None:
        for a in by_kind.get("room", ()):
            effect = state.data.rooms[str(a.get("room"))].effect
            from engine.games.haunted_house.checks import dice_for

            dice = dice_for(state, self.seat, effect.check.trait)
            if at_least(dice, effect.check.target, state.data.rules.faces) >= Fraction(1, 3):
                return a
        return None

    def walk(self, state: HouseState, by_kind: dict, goal: set[str]) -> Action | None:
        here = state.seats[self.seat].room
        if goal:
            if here in goal:
                return None
            nxt = state.layout.first_step(here, goal)
            if nxt is not None:
                return next((a for a in by_kind.get("move", ()) if a.get("to") == nxt), None)
        explore = by_kind.get("explore", ())
        if explore:
            return explore[0]
        frontier = {r for r, _ in state.layout.open_doorways()
                    if r != here and _fits(state, r)}
        nxt = state.layout.first_step(here, frontier) if frontier else None
        if nxt is not None:
            return next((a for a in by_kind.get("move", ()) if a.get("to") == nxt), None)
        return None

class ExplorerBot(_Policy):
    """Explorers open the house; heroes pursue their task, carry the killing token to the
    monster, take tokens back from the traitor and keep away from a monster they cannot hurt."""

    def goal_rooms(self, state: HouseState) -> set[str]:
        side = side_of(state, self.seat)
        return set() if side is None else self.hero_goals(state, side.task)

    def flee(self, state: HouseState, by_kind: dict, goal: set[str]) -> Action | None:
        """A hero who cannot hurt the monster leaves its room (for a goal elsewhere, or for
        the neighbouring room farthest from it)."""
        s = state.seats[self.seat]
        if (s.side != HERO or not state.monster or state.monster.get("killed")
                or int(state.monster["stunned"]) > 0 or state.monster["room"] != s.room
                or _kills(state, self.seat, state.data.scenarios[state.scenario])):
            return None
        moves = by_kind.get("move", ())
        if not moves:
            return None
        if goal and s.room not in goal:
            return None
        far = state.layout.distances(state.monster["room"])
        return max(moves, key=lambda a: (far.get(str(a.get("to")), 99), -moves.index(a)))

    def give(self, state: HouseState, by_kind: dict) -> Action | None:
        """A hero hands a scenario token to a hero better placed to use it."""
        s = state.seats[self.seat]
        if s.side != HERO:
            return None
        for a in by_kind.get("give", ()):
            item, other = str(a.get("item")), int(a.get("to"))
            if (item.startswith(TOKEN) and state.seats[other].side == HERO
                    and _task_dice(state, other) > _task_dice(state, self.seat) + 1):
                return a
        return None

    def hero_goals(self, state: HouseState, task) -> set[str]:
        s = state.seats[self.seat]
        sc = state.data.scenarios[state.scenario]
        if _kills(state, self.seat, sc) and not state.monster.get("killed"):
            return {state.monster["room"]}
        if task.token:
            if carried_tokens(state, self.seat, task.token):
                return set(feature_rooms(state, task.feature))
            loose = _loose(state, task.token)
            if loose:
                return loose
            holders = [o.room for o in state.seats
                       if o.alive and o.side == TRAITOR and carried_tokens(state, o.seat,
                                                                          task.token)]
            return set(holders)
        if task.result == "make-token":
            if state.made.get(task.makes, 0) == 0:
                return set(feature_rooms(state, task.feature))
            loose = _loose(state, task.makes)
            if loose:
                return loose
            traitor = state.seats[state.traitor]
            if traitor.alive and carried_tokens(state, traitor.seat, task.makes):
                return {traitor.room}
        return {s.room}


class TraitorBot(_Policy):
    """The traitor races for the side's task and special actions, steals the heroes' tokens,
    and plays the monster: it hunts the heroes who cannot kill it."""

    def goal_rooms(self, state: HouseState) -> set[str]:
        return self.traitor_goals(state, side_of(state, self.seat))

    def need(self, state: HouseState, need: Fraction) -> Fraction:
        sc = state.data.scenarios[state.scenario]
        return max(need, Fraction(3, 5)) if sc.traitor.task.result == "progress" else need

    def traitor_goals(self, state: HouseState, side) -> set[str]:
        task = side.task
        for sp in side.specials:
            if sp.type == "destroy-token":
                if carried_tokens(state, self.seat, sp.token):
                    return set(feature_rooms(state, sp.feature))
                loose = _loose(state, sp.token)
                if loose:
                    return loose
        if task.where == "monster-room" and (task.result != "rouse-monster"
                                             or int(state.monster["stunned"]) > 0):
            return {state.monster["room"]}
        heroes = [state.seats[h].room for h in state.heroes() if state.seats[h].alive]
        holders = [state.seats[h].room for h in state.heroes()
                   if state.seats[h].alive and any(i.startswith(TOKEN)
                                                    for i in state.seats[h].items)]
        return set(holders or heroes)

    # ----- the monster's turn -----------------------------------------------------------------
    def monster_turn(self, state: HouseState, actions: list[Action]) -> Action:
        specials = [a for a in actions if a.kind == "special"]
        if specials:
            return specials[0]
        attacks = [a for a in actions if a.kind == "monster-attack"]
        if attacks:
            m = state.data.monsters[state.monster["id"]]
            trait = m.attack_trait
            sc = state.data.scenarios[state.scenario]

            def worth(a: Action) -> tuple:
                h = int(a.get("target"))
                danger = _kills(state, h, sc)
                return (not danger, -state.value(h, trait), -h)

            return max(attacks, key=worth)
        moves = [a for a in actions if a.kind == "monster-move"]
        targets = {state.seats[h].room for h in state.heroes() if state.seats[h].alive}
        sc = state.data.scenarios[state.scenario]
        if sc.traitor.task.where == "monster-room" and sc.traitor.task.result == "progress":
            traitor = state.seats[state.traitor]
            if traitor.alive:
                targets = {traitor.room} | targets
        safe = {state.seats[h].room for h in state.heroes()
                if state.seats[h].alive and not _kills(state, h, sc)}
        goal = safe or targets
        if moves and state.monster["room"] not in goal:
            nxt = state.layout.first_step(state.monster["room"], goal)
            found = next((a for a in moves if a.get("to") == nxt), None)
            if found is not None:
                return found
        return Action.of("end")


# ----- helpers ----------------------------------------------------------------------------------


def _new_edges(state: HouseState, frame: dict, doors: str) -> int:
    """Doorways of a tile laid with these doors that face an empty cell."""
    from engine.games.haunted_house.house import STEP

    floor, x, y = frame["floor"], int(frame["x"]), int(frame["y"])
    return sum(1 for d in doors
               if state.layout.at(floor, x + STEP[d][0], y + STEP[d][1]) is None)


def _fits(state: HouseState, room: str) -> bool:
    floor = state.rooms[room][0]
    return any(floor in state.data.rooms[r].floors for r in state.pile)


def _loose(state: HouseState, role: str) -> set[str]:
    return {room for room, items in state.floor_items.items()
            if any(i.startswith(f"{TOKEN}{role}:") for i in items)}


def _kills(state: HouseState, seat: int, sc) -> bool:
    """Whether this explorer's winning attack would kill the monster."""
    for sp in sc.side(state.seats[seat].side).specials:
        if sp.type == "kill-with-token" and carried_tokens(state, seat, sp.token):
            return True
    return False


def _cost_kills(state: HouseState, seat: int, weapon: str) -> bool:
    """Whether the weapon's cost would take its user to the death mark (or near it)."""
    cost = state.item(weapon).attack.cost
    return bool(cost) and state.seats[seat].marks[cost[0]] <= cost[1] + 1


def _task_dice(state: HouseState, seat: int) -> int:
    from engine.games.haunted_house.checks import dice_for

    side = side_of(state, seat)
    if side is None or not state.seats[seat].alive:
        return 0
    return max(dice_for(state, seat, t) for t in side.task.traits)


def _win(state: HouseState, seat: int, target: int, trait: str, weapon: str) -> Fraction:
    from engine.games.haunted_house.checks import capped
    from engine.games.haunted_house.combat import fight_value

    extra = state.item(weapon).attack.dice if weapon else 0
    mine = capped(state, state.value(seat, trait) + extra)
    theirs = capped(state, fight_value(state, target, trait))
    return win_chance(mine, theirs, state.data.rules.faces)

