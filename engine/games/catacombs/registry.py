"""Where the rules modules plug into the state machine.

- `rule`: `@rule("trace-id")` marks a function as the rule of a trace entry, in the
  catacombs' own `RULES` registry;
- `actions`: generators of a hero's legal actions (`@actions_of`), always in the order of
  `ACTION_ORDER` (the legal-action order), whatever order the modules are imported in;
- `handlers`: what a player action does, by action kind (`@handles("move")`); returns the
  number of actions it spent;
- `tasks`: what a queued step does, by its kind (`@task(TrapRoll)`): automatic steps, chance
  resolutions and decisions (the step kinds are in `steps.py`);
- `options`: the choices offered at a queued decision (`@options(RotateTile)`);
- `arrivals`: what ending a move on a cell sets off, by stage (`@on_arrival("trap")`); the
  stages run in the order `board.arrive` calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.rules import RuleRegistry
from engine.games.catacombs.steps import Step

ActionGen = Callable[[Any, Any], list]
Handler = Callable[[Any, Any, Any], int]
TaskFn = Callable[[Any, Any, Any], None]
OptionsFn = Callable[[Any, Any], list]
ArrivalFn = Callable[..., None]

ACTION_ORDER = (
    "movement.move_actions",
    "doors.door_actions",
    "doors.lock_actions",
    "doors.lever_actions",
    "cards.card_actions",
    "cards.defect_actions",
    "shelters.shelter_actions",
    "shelters.force_out_actions",
    "shelters.blow_up_actions",
    "combat.combat_actions",
    "combat.fight_actions",
    "combat.use_actions",
    "crevices.crevice_actions",
    "crevices.bridge_actions",
    "crevices.scrape_actions",
    "crevices.dive_actions",
    "ending.leave_actions",
    "ending.pick_up_actions",
    "exploration.explore_actions",
    "inventory.inventory_actions",
    "labyrinths.labyrinth_actions",
    "relationships.befriend_actions",
    "relationships.forgive_actions",
    "relationships.push_actions",
    "sarcophagi.sarcophagus_actions",
    "search.search_actions",
    "statues.statue_actions",
    "traps.trap_actions",
    "traps.run_up_actions",
    "turn.pass_action",
)
"""Every action generator as `module.function`, in the order a hero's legal actions are
listed (bots and replays depend on it: a new generator takes its place here)."""

ACTIONS: list[ActionGen] = []
HANDLERS: dict[str, Handler] = {}
TASKS: dict[str, TaskFn] = {}
OPTIONS: dict[str, OptionsFn] = {}
ARRIVALS: dict[str, ArrivalFn] = {}
RULES = RuleRegistry("catacombs")
rule = RULES.rule


def _generator_name(fn: ActionGen) -> str:
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


def actions_of(fn: ActionGen) -> ActionGen:
    """Register a generator of legal actions at its place in `ACTION_ORDER`."""
    name = _generator_name(fn)
    if name not in ACTION_ORDER:
        raise ValueError(f"action generator {name} has no place in registry.ACTION_ORDER")
    rank = ACTION_ORDER.index(name)
    at = sum(1 for g in ACTIONS if ACTION_ORDER.index(_generator_name(g)) < rank)
    ACTIONS.insert(at, fn)
    return fn


def handles(kind: str) -> Callable[[Handler], Handler]:
    def mark(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return mark


def task(step: type[Step]) -> Callable[[TaskFn], TaskFn]:
    """The function carries out steps of this kind: `fn(state, step, outcome)`, the outcome being
    the rolled total, the drawn card, the chosen action or None."""

    def mark(fn: TaskFn) -> TaskFn:
        TASKS[step.fn] = fn
        return fn

    return mark


def options(step: type[Step]) -> Callable[[OptionsFn], OptionsFn]:
    """The function lists the actions offered at decisions of this kind: `fn(state, step)`."""

    def mark(fn: OptionsFn) -> OptionsFn:
        OPTIONS[step.fn] = fn
        return fn

    return mark


def on_arrival(stage: str) -> Callable[[ArrivalFn], ArrivalFn]:
    def mark(fn: ArrivalFn) -> ArrivalFn:
        ARRIVALS[stage] = fn
        return fn

    return mark
