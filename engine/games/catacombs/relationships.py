"""Relationships: the sliders between heroes, how they change and what they do."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import cell_traps, parse_pos, pos_key, steps_graph
from engine.games.catacombs.checks_util import may_try
from engine.games.catacombs.registry import actions_of, handles, rule, task
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import Repay
from engine.games.catacombs.traps import run_into


def _step(state: CatacombsState) -> int:
    """How far raising sympathy moves the slider (the rule that sees the improve check)."""
    entry = state.data.sympathy_rule
    if entry is None or entry.relationship_change is None:
        return 1
    return entry.relationship_change


def goodwill_check(state: CatacombsState, hero: Hero):
    """How this hero raises sympathy: for free with the improve check's thresholds
    (communication 4+), else by the gift check (a treasure to the partner); None if neither."""
    free = state.data.check("relationship", "improve")
    if free is not None and may_try(state, hero, free):
        return free
    gift = state.data.check("relationship", "gift")
    if gift is not None and hero.treasures >= gift.cost_treasures:
        return gift
    return None


def pair_key(a: int, b: int) -> str:
    return f"{min(a, b)}|{max(a, b)}"


@actions_of
def befriend_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    others = [h for h in state.heroes_on(hero.pos[:2]) if h.seat != hero.seat and not h.hidden]
    if not others:
        return []
    check = goodwill_check(state, hero)
    if check is None or state.actions_left < max(1, check.actions):
        return []
    top = min(state.data.scale.max, friendly_level(state))
    return [
        Action.of("befriend", seat=other.seat)
        for other in others
        if state.relation(hero.seat, other.seat) < top
        and pair_key(hero.seat, other.seat) not in state.goodwill
    ]


def friendly_level(state: CatacombsState) -> int:
    """The lowest slider level that counts as friendly."""
    return state.data.scale.friendly


@handles("befriend")
@rule("setup.communication-free-sympathy", "station.sliders-move", "table.raise-sympathy")
def do_befriend(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Goodwill towards a hero on the same tile (one action): a treasure given to them, or
    nothing with communication 4+; the slider rises, once per pair and never above the
    friendly mark."""
    check = goodwill_check(state, hero)
    other = state.heroes[int(action.get("seat"))]
    hero.treasures -= check.cost_treasures
    other.treasures += check.cost_treasures
    top = min(state.data.scale.max, friendly_level(state))
    level = min(top, state.relation(hero.seat, other.seat) + _step(state))
    state.set_relation(hero.seat, other.seat, level)
    state.goodwill.append(pair_key(hero.seat, other.seat))
    gift = f" with a gift of {check.cost_treasures} treasure(s)" if check.cost_treasures else ""
    state.log(f"{hero.character} befriends {other.character}{gift}: the slider is at {level}")
    return max(1, check.actions)


def loan_terms(state: CatacombsState) -> tuple[int, int, int, int]:
    """(treasures per banknote, forgiveness change, usury change, usury banknotes per turn)."""
    loan, usury = state.data.loan_rule, state.data.usury_rule
    per = (loan.treasures_per_banknote or 0) if loan else 0
    forgive = (loan.relationship_change or 0) if loan else 0
    slide = (usury.relationship_change or 0) if usury else 0
    interest = (usury.banknotes_per_turn or 0) if usury else 0
    return per, forgive, slide, interest


@rule("loan.lend", "usury.terms", "usury.slider")
def lend(state: CatacombsState, borrower: Hero, lender: Hero) -> None:
    """The lender puts a banknote on the borrower's board; the debt is kept in treasures.
    Engine assumption: a lender with antipathy lends only at usury (the slider drops)."""
    per, _, slide, _ = loan_terms(state)
    lender.banknotes -= 1
    borrower.banknotes += 1
    borrower.debt += per
    borrower.lender = lender.seat
    if state.relation(borrower.seat, lender.seat) < 0:
        borrower.usury = True
        state.set_relation(
            borrower.seat, lender.seat, state.relation(borrower.seat, lender.seat) + slide
        )
    state.log(
        f"{lender.character} lends {borrower.character} a banknote"
        + (" at usury" if borrower.usury else "")
    )


@task(Repay)
@rule("loan.repay")
def repay(state: CatacombsState, t: Repay, _: object) -> None:
    """Treasures go straight to the lender until the debt is paid."""
    hero = state.heroes[t.seat]
    if hero.lender < 0 or not hero.debt:
        return
    pay = min(hero.treasures, hero.debt)
    hero.treasures -= pay
    hero.debt -= pay
    state.heroes[hero.lender].treasures += pay
    state.log(f"{hero.character} repays {pay} treasure(s), {hero.debt} still owed")
    if not hero.debt:
        hero.lender, hero.usury = -1, False


@rule("usury.interest")
def interest(state: CatacombsState, hero: Hero) -> None:
    """At usury the debt grows by banknotes each of the borrower's turns."""
    per, _, _, banknotes = loan_terms(state)
    if hero.usury and hero.debt:
        hero.debt += banknotes * per


@actions_of
def forgive_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active:
        return []
    return [
        Action.of("forgive", seat=other.seat)
        for other in state.heroes
        if other.lender == hero.seat and other.debt and other.alive
    ]


@handles("forgive")
@rule("loan.forgive", "usury.forgive")
def do_forgive(state: CatacombsState, hero: Hero, action: Action) -> int:
    """The lender forgives the debt (a free action); the debtor's sympathy rises."""
    _, change, _, _ = loan_terms(state)
    debtor = state.heroes[int(action.get("seat"))]
    debtor.debt, debtor.lender, debtor.usury = 0, -1, False
    state.set_relation(hero.seat, debtor.seat, state.relation(hero.seat, debtor.seat) + change)
    state.log(f"{hero.character} forgives {debtor.character}'s debt")
    return 0


@rule("loan.death")
def loans(state: CatacombsState, dead: Hero) -> None:
    """Debts vanish when the lender dies."""
    for other in state.heroes:
        if other.lender == dead.seat:
            other.debt, other.lender, other.usury = 0, -1, False


def hostile(state: CatacombsState, a: Hero, b: Hero) -> bool:
    """Engine assumption: heroes at antipathy or below are hostile to each other."""
    antipathy = state.data.scale.levels.get("antipathy", -1)
    return state.relation(a.seat, b.seat) <= antipathy


@actions_of
def push_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """A hostile hero next to another may shove them onto a neighbouring open trap."""
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    traps = cell_traps(state)
    if not traps:
        return []
    graph = steps_graph(state)
    out = []
    for other in state.heroes:
        if other is hero or not other.active or other.hidden or not hostile(state, hero, other):
            continue
        if other.pos != hero.pos and other.pos not in {n for n, _ in graph.get(hero.pos, ())}:
            continue
        for nxt, _ in graph.get(other.pos, ()):
            if nxt in traps:
                out.append(Action.of("push", seat=other.seat, to=pos_key(nxt)))
    return out


@handles("push")
@rule("engine.push", "table.push")
def do_push(state: CatacombsState, hero: Hero, action: Action) -> int:
    """The shove costs an action; the victim runs into the trap against their will."""
    victim = state.heroes[int(action.get("seat"))]
    victim.pos = parse_pos(action.get("to"))
    state.log(f"{hero.character} shoves {victim.character} into a trap")
    run_into(state, victim, f"shoved by {hero.character}")
    state.set_relation(hero.seat, victim.seat, state.relation(hero.seat, victim.seat) - 1)
    return 1
