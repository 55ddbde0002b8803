"""Omens and the dread roll, the scenario's beginning (traitor, monster, tokens), the sides'
tasks and special actions, and their goals."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.haunted_house.checks import apply_effects, capped, dice_for, trait_roll
from engine.games.haunted_house.data import Scenario, Side, Task
from engine.games.haunted_house.house import OPPOSITE, orientations
from engine.games.haunted_house.machine import actions_of, handles, resolves, step
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import (
    EXPLORER,
    HERO,
    MONSTER,
    OVER,
    TOKEN,
    TRAITOR,
    HouseState,
)
from engine.games.haunted_house.traits import carried_tokens

# ----- omens and the dread roll -----------------------------------------------------------------


@resolves("omen")
@rule("house.omens")
def resolve_omen(state: HouseState, frame: dict, action: Action) -> None:
    """An omen: the finder gets its effect, it joins the row, then the dread roll."""
    seat, card = int(frame["seat"]), str(action.get("card"))
    state.decks["omens"].remove(card)
    state.omens.append(card)
    omen = state.data.omens[card]
    state.log(f"{state.who(seat)} finds the omen {omen.name} ({len(state.omens)} revealed)")
    state.push({"t": "do", "fn": "dread", "seat": seat, "omen": card})
    apply_effects(state, seat, omen.effects, omen.name)


@step("dread")
@rule("house.dread-roll")
def dread(state: HouseState, frame: dict) -> None:
    """Roll as many dice as omens revealed; on the target or more the omen's scenario begins.
    From `certain_at` omens on it begins without a roll."""
    if state.scenario:
        return
    rules = state.data.rules
    if len(state.omens) >= rules.dread_certain_at:
        state.log(f"{len(state.omens)} omens — the house wakes without a roll")
        begin(state, state.data.omens[frame["omen"]].scenario, int(frame["seat"]))
        return
    state.push({**frame, "t": "roll", "fn": "dread", "n": capped(state, len(state.omens))})


@resolves("dread")
def resolve_dread(state: HouseState, frame: dict, action: Action) -> None:
    total, target = int(action.get("total")), state.data.rules.dread_target
    woke = total >= target
    state.log(f"the dread roll with {frame['n']} dice gives {total} against {target}+ — "
              + ("the scenario begins" if woke else "the house waits"))
    if woke:
        begin(state, state.data.omens[frame["omen"]].scenario, int(frame["seat"]))


@rule("house.house-closed")
def house_closed(state: HouseState) -> None:
    """No doorway can be opened any more before the scenario: the last omen's scenario (or the
    first one) begins anyway, found by the first player or the last omen's finder."""
    if state.scenario or any(
        any(state.rooms[room][0] in state.data.rooms[r].floors for r in state.pile)
        for room, _ in state.layout.open_doorways()
    ):
        return
    last = state.omens[-1] if state.omens else ""
    scenario = state.data.omens[last].scenario if last else sorted(state.data.scenarios)[0]
    state.log("no doorway is left to open — the house wakes")
    finder = state.finder if state.finder >= 0 else state.alive_seats()[0]
    begin(state, scenario, finder)


# ----- the beginning ----------------------------------------------------------------------------


@rule("scenario.race")
def begin(state: HouseState, scenario_id: str, finder: int) -> None:
    """The scenario begins: a traitor, the sides, the monster, the tokens, the rooms needed."""
    sc = state.data.scenarios[scenario_id]
    state.scenario, state.finder, state.started = scenario_id, finder, state.round
    state.traitor = choose_traitor(state, sc, finder)
    for s in state.seats:
        s.side = TRAITOR if s.seat == state.traitor else HERO
    room = state.seats[finder].room
    where = room if sc.monster_place == "scenario-room" else sc.monster_room
    state.monster = {"id": sc.monster, "room": where, "stunned": 0, "killed": False}
    state.progress = {sc.heroes.task.id: 0, sc.traitor.task.id: 0}
    state.log(f"the scenario {sc.name} begins in the {state.room_name(room)} — "
              f"{state.who(state.traitor)} is the traitor; the "
              f"{state.data.monsters[sc.monster].name} appears in the {state.room_name(where)}")
    place_tokens(state, sc)
    for feature in needed_features(sc):
        reveal(state, feature)


@rule("house.traitor")
def choose_traitor(state: HouseState, sc: Scenario, finder: int) -> int:
    """The finder, or the lowest current value of a trait (ties: the first from the finder on,
    in turn order)."""
    order = [(finder + i) % state.players for i in range(state.players)]
    order = [s for s in order if state.seats[s].alive]
    if sc.traitor_rule == "finder":
        return finder
    return min(order, key=lambda s: (state.value(s, sc.traitor_trait), order.index(s)))


@rule("item-tokens.scenario")
def place_tokens(state: HouseState, sc: Scenario) -> None:
    """Tokens placed on the landings at the start (the others are made by a task)."""
    for spec in sc.tokens:
        if spec.place != "landings":
            continue
        for n, room in enumerate(state.data.rules.landings[:spec.count], start=1):
            state.floor_items.setdefault(room, []).append(f"{TOKEN}{spec.role}:{n}")
            state.made[spec.role] = n
        state.log(f"{spec.count} {spec.name} token(s) are placed on the landings")


def needed_features(sc: Scenario) -> list[str]:
    wanted = [sc.heroes.task.feature, sc.traitor.task.feature]
    wanted += [s.feature for s in sc.heroes.specials + sc.traitor.specials]
    return sorted({f for f in wanted if f})


@rule("house.reveal")
def reveal(state: HouseState, feature: str) -> None:
    """If no room laid has the feature a side needs, the house lays the first such tile of the
    stack at the first open doorway it fits; with no place at all the front hall stands in."""
    if state.layout.with_feature(feature):
        return
    for tile in sorted(r for r in state.pile if feature in state.data.rooms[r].features):
        for room, d in state.layout.open_doorways():
            floor, x, y = state.layout.beyond(room, d)
            if floor not in state.data.rooms[tile].floors:
                continue
            doors = orientations(state.data.rooms[tile].doorways, OPPOSITE[d])[0]
            state.pile.remove(tile)
            state.rooms[tile] = [floor, x, y, doors]
            state.touch()
            state.log(f"the house reveals the {state.room_name(tile)} ({floor} floor)")
            return


def feature_rooms(state: HouseState, feature: str) -> list[str]:
    found = state.layout.with_feature(feature)
    return found or [state.data.rules.start_room]


# ----- tasks ------------------------------------------------------------------------------------


def side_of(state: HouseState, seat: int) -> Side | None:
    if not state.scenario:
        return None
    return state.data.scenarios[state.scenario].side(state.seats[seat].side)


@rule("tasks.one-roll")
def task_open(state: HouseState, seat: int, task: Task) -> bool:
    """Where and when the side's task can be rolled: one task roll a turn."""
    s = state.seats[seat]
    if state.turn["tasks"] >= state.data.rules.task_rolls_per_turn:
        return False
    if task.where == "feature" and s.room not in feature_rooms(state, task.feature):
        return False
    if task.where == "monster-room" and (state.monster.get("killed")
                                         or state.monster["room"] != s.room):
        return False
    if task.token and not carried_tokens(state, seat, task.token):
        return False
    if task.result == "rouse-monster":
        return int(state.monster["stunned"]) > 0
    if task.result == "make-token":
        spec = state.data.scenarios[state.scenario].token(task.makes)
        return state.made.get(task.makes, 0) < (spec.count if spec else 1)
    return state.progress.get(task.id, 0) < task.needed(state.players)


@actions_of(40)
def task_actions(state: HouseState) -> list[Action]:
    seat = int(state.turn["seat"])
    side = side_of(state, seat)
    if (side is None or state.turn["phase"] != EXPLORER or not state.seats[seat].alive
            or not task_open(state, seat, side.task)):
        return []
    return [Action.of("task", trait=t) for t in side.task.traits]


@handles("task")
def do_task(state: HouseState, action: Action) -> None:
    seat = int(state.turn["seat"])
    task = side_of(state, seat).task
    trait = str(action.get("trait"))
    state.turn["tasks"] += 1
    state.push({"t": "roll", "fn": "task", "n": dice_for(state, seat, trait), "seat": seat,
                "task": task.id, "trait": trait, "target": task.target_at(state.players)})


@resolves("task")
@rule("house.task-results")
def resolve_task(state: HouseState, frame: dict, action: Action) -> None:
    """A success makes a token, spends a carried token, rouses the monster or counts."""
    seat, total = int(frame["seat"]), int(action.get("total"))
    task = side_of(state, seat).task
    target = task.target_at(state.players)
    ok = total >= target
    state.log(f"{state.who(seat)} rolls {frame['n']} dice for {frame['trait']} on the task "
              f"{task.name} and gets {total} against {target}+ — "
              f"{'success' if ok else 'failure'}")
    if not ok:
        return
    if task.result == "rouse-monster":
        state.monster["stunned"] = 0
        state.log(f"the {monster_name(state)} is roused")
        return
    if task.result == "spend-token":
        token = carried_tokens(state, seat, task.token)[0]
        state.seats[seat].items.remove(token)
    state.progress[task.id] = state.progress.get(task.id, 0) + 1
    needed = task.needed(state.players)
    state.log(f"{task.name} has {state.progress[task.id]} of {needed} successes")
    if task.result == "make-token" and state.progress[task.id] >= needed:
        n = state.made.get(task.makes, 0) + 1
        state.made[task.makes] = n
        state.seats[seat].items.append(f"{TOKEN}{task.makes}:{n}")
        state.progress[task.id] = 0
        state.log(f"{state.who(seat)} takes the {state.item_name(f'{TOKEN}{task.makes}:{n}')}")


def monster_name(state: HouseState) -> str:
    return state.data.monsters[state.monster["id"]].name


# ----- special actions --------------------------------------------------------------------------


@actions_of(45)
def special_actions(state: HouseState) -> list[Action]:
    seat = int(state.turn["seat"])
    side = side_of(state, seat)
    if side is None:
        return []
    out = []
    for sp in side.specials:
        if sp.id in state.turn["specials"]:
            continue
        if sp.type == "destroy-token" and _may_destroy(state, seat, sp.token, sp.feature):
            out.append(Action.of("special", id=sp.id))
        if sp.type == "howl" and _may_howl(state):
            out.append(Action.of("special", id=sp.id))
    return out


def _may_destroy(state: HouseState, seat: int, role: str, feature: str) -> bool:
    s = state.seats[seat]
    return (state.turn["phase"] == EXPLORER and s.alive and bool(carried_tokens(state, seat, role))
            and s.room in feature_rooms(state, feature))


def _may_howl(state: HouseState) -> bool:
    return (state.turn["phase"] == MONSTER and not state.monster.get("killed")
            and any(state.seats[h].alive and state.seats[h].room == state.monster["room"]
                    for h in state.heroes()))


@handles("special")
@rule("attack.scenario-action")
def do_special(state: HouseState, action: Action) -> None:
    """A side's special action (once a turn each; attacking the same turn is allowed)."""
    seat = int(state.turn["seat"])
    sp = next(s for s in side_of(state, seat).specials if s.id == action.get("id"))
    state.turn["specials"].append(sp.id)
    if sp.type == "destroy-token":
        destroy_token(state, seat, sp.token, sp.name)
    elif sp.type == "howl":
        howl(state, sp)


@rule("house.destroy-token")
def destroy_token(state: HouseState, seat: int, role: str, name: str) -> None:
    token = carried_tokens(state, seat, role)[0]
    state.seats[seat].items.remove(token)
    state.destroyed.append(token)
    state.log(f"{state.who(seat)} uses {name} — the {state.item_name(token)} is destroyed")


@rule("house.howl")
def howl(state: HouseState, sp) -> None:
    """Every hero in the monster's room makes the check or suffers the failure."""
    room = state.monster["room"]
    state.log(f"the {monster_name(state)} uses {sp.name}")
    for hero in reversed(state.heroes()):
        if state.seats[hero].alive and state.seats[hero].room == room:
            trait_roll(state, hero, f"special:{sp.id}", sp.check.trait, sp.check.target,
                       (), sp.failure, sp.name)


# ----- goals ------------------------------------------------------------------------------------


def tokens_left(state: HouseState, sc: Scenario) -> tuple[int, int]:
    """(tokens of the heroes' task still in play, successes the heroes still need)."""
    task = sc.heroes.task
    spec = sc.token(task.token) if task.token else None
    if spec is None:
        return (1, 0)
    done = state.progress.get(task.id, 0)
    gone = sum(1 for t in state.destroyed if t.startswith(f"{TOKEN}{task.token}:"))
    return spec.count - done - gone, task.needed(state.players) - done


def achieved(state: HouseState, sc: Scenario, side: Side, win: str) -> bool:
    if win == "kill-monster":
        return bool(state.monster.get("killed"))
    if win == "task-complete":
        return (side.task.result != "make-token"
                and state.progress.get(side.task.id, 0) >= side.task.needed(state.players))
    if win == "kill-heroes":
        heroes = state.heroes()
        return bool(heroes) and not any(state.seats[h].alive for h in heroes)
    if win == "tokens-short":
        left, needed = tokens_left(state, sc)
        return left < needed
    raise ValueError(f"unknown win condition {win}")


@rule("house.goals")
def check_goals(state: HouseState) -> None:
    """The scenario's win conditions end the game (the heroes' are checked first)."""
    if not state.scenario or state.phase == OVER:
        return
    sc = state.data.scenarios[state.scenario]
    for name, side in ((HERO, sc.heroes), (TRAITOR, sc.traitor)):
        for win in side.wins:
            if achieved(state, sc, side, win):
                end(state, name, win)
                return


def end(state: HouseState, side: str, how: str) -> None:
    state.phase = OVER
    state.winners = state.heroes() if side == HERO else [state.traitor]
    state.ended_by = f"{'heroes' if side == HERO else 'traitor'}-{how}"
    state.log(f"the {'heroes' if side == HERO else 'traitor'} win ({how})")
