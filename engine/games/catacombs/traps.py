"""Traps: the five open traps printed on tiles, and hidden trap cards."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import arrive, parse_pos, pos_key
from engine.games.catacombs.checks_util import apply_outcome, may_try, passes, poison
from engine.games.catacombs.registry import actions_of, handles, on_arrival, rule, task
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import RunUpFirst, RunUpSecond, TrapRoll


@on_arrival("trap")
@rule("traps.darts", "traps.darts-dexterity", "traps.plant")
def stop_on_trap(state: CatacombsState, hero: Hero) -> None:
    """Stopping on a trap cell: darts poison (dexterity may dodge), the plant must be passed
    with a roll; spikes stepped on carefully and webs do no harm."""
    tile = state.tile_of(hero.pos)
    trap_id = tile.trap_at(hero.pos[2], hero.pos[3])
    trap = state.data.traps.get(trap_id or "")
    if trap is None:
        return
    for check_id in trap.checks:
        check = state.data.checks.get(check_id)
        if check is None or check.action not in ("stop", "pass"):
            continue
        if check.requires and not may_try(state, hero, check):
            for _ in range(trap.poison_per_stop):
                poison(state, hero, trap.id)
            if not trap.poison_per_stop:
                apply_outcome(state, hero, check.on_failure, trap.id)
            return
        dice = str(check.dice or "d6")
        state.push(TrapRoll(dice=dice, seat=hero.seat, check=check.id, trap=trap.id))
        return


@task(TrapRoll)
def trap_roll(state: CatacombsState, t: TrapRoll, value: int) -> None:
    hero = state.heroes[t.seat]
    check = state.data.checks[t.check]
    trap = state.data.traps[t.trap]
    if passes(state, hero, check, value):
        state.log(f"{hero.character} gets past the {trap.id} ({value})")
        return
    if trap.poison_per_stop:
        for _ in range(trap.poison_per_stop):
            poison(state, hero, trap.id)
    else:
        apply_outcome(state, hero, check.on_failure, trap.id)


def cutter_jumps(state: CatacombsState, hero: Hero) -> list[tuple[str, int, int, int]]:
    """Jumps over a jumpable trap in a straight line: (trap, landing col, row, cells needed)."""
    out = []
    tile = state.tile_of(hero.pos)
    _, _, c, r = hero.pos
    for trap_id, tc, tr in tile.traps:
        trap = state.data.traps.get(trap_id)
        if trap is None or not trap.jumpable:
            continue
        for distance, cells in trap.jump:
            for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                if (c + dc * (distance + 1), r + dr * (distance + 1)) != (tc, tr):
                    continue
                lc, lr = tc + dc, tr + dr
                if tile.floor(lc, lr) and tile.trap_at(lc, lr) is None:
                    out.append((trap_id, lc, lr, cells))
    return out


@actions_of
def trap_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden or not state.tile_of(hero.pos).traps:
        return []
    speed = state.stat(hero, "speed")
    return [
        Action.of("jump-trap", trap=trap_id, to=pos_key((*hero.pos[:2], lc, lr)))
        for trap_id, lc, lr, cells in cutter_jumps(state, hero)
        if speed >= cells
    ]


@handles("jump-trap")
@rule("traps.cutter-jump")
def do_jump_trap(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A standing jump over the cutter: 2 cells from right before it, 3 from one cell away."""
    hero.pos = parse_pos(action.get("to"))
    state.log(f"{hero.character} jumps over the {action.get('trap')}")
    arrive(state, hero)
    return 1


def run_ups(state: CatacombsState, hero: Hero) -> list[tuple[str, int, int]]:
    """Run-up jumps through a cutter: (trap, landing col, row) for a cutter 2+ cells ahead in a
    straight line, free floor up to it, and a move long enough to stop beyond it."""
    out = []
    tile = state.tile_of(hero.pos)
    if not tile.traps:
        return out
    _, _, c, r = hero.pos
    speed = state.stat(hero, "speed")
    for trap_id, tc, tr in tile.traps:
        trap = state.data.traps.get(trap_id)
        if (
            trap is None
            or not trap.jumpable
            or not any(
                state.data.checks.get(k) and state.data.checks[k].parity for k in trap.checks
            )
        ):
            continue
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            gap = _cells_between((c, r), (tc, tr), (dc, dr))
            if gap is None or gap < 2 or speed < gap + 2:
                continue
            if not all(
                tile.floor(c + dc * k, r + dr * k) and tile.trap_at(c + dc * k, r + dr * k) is None
                for k in range(1, gap + 1)
            ):
                continue
            lc, lr = tc + dc, tr + dr
            if tile.floor(lc, lr) and tile.trap_at(lc, lr) is None:
                out.append((trap_id, lc, lr))
    return out


def _cells_between(a: tuple[int, int], b: tuple[int, int], d: tuple[int, int]) -> int | None:
    """Cells strictly between a and b if b lies straight ahead of a in direction d."""
    for k in range(1, 12):
        if (a[0] + d[0] * k, a[1] + d[1] * k) == b:
            return k - 1
    return None


@actions_of
def run_up_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    return [
        Action.of("run-jump", trap=trap_id, to=pos_key((*hero.pos[:2], lc, lr)))
        for trap_id, lc, lr in run_ups(state, hero)
    ]


@handles("run-jump")
@rule("traps.cutter-run-up", "traps.cutter-luck")
def do_run_jump(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A run-up jump through the cutter in one move: a die before the jump gives the blades'
    parity; a die after it with the same parity kills (luck 5+ may roll the second die again)."""
    trap = state.data.traps[action.get("trap")]
    check = next(state.data.checks[k] for k in trap.checks if state.data.checks[k].parity)
    dice = str(check.dice or "d6")
    state.push(RunUpFirst(dice=dice, seat=hero.seat, check=check.id, to=action.get("to")))
    return 1


@task(RunUpFirst)
def run_up_first(state: CatacombsState, t: RunUpFirst, value: int) -> None:
    state.push(RunUpSecond(dice="d6", seat=t.seat, check=t.check, to=t.to, first=value,
                           rerolled=False))


@task(RunUpSecond)
def run_up_second(state: CatacombsState, t: RunUpSecond, value: int) -> None:
    hero = state.heroes[t.seat]
    check = state.data.checks[t.check]
    if value % 2 == t.first % 2:
        reroll = any(m.reroll for m in check.active_modifiers(state.stats(hero), tuple(hero.items)))
        if reroll and not t.rerolled:
            state.push(RunUpSecond(dice="d6", seat=t.seat, check=t.check, to=t.to, first=t.first,
                                   rerolled=True))
            return
        apply_outcome(state, hero, check.on_failure, "the cutter")
        if not hero.alive:
            return
    hero.pos = parse_pos(t.to)
    state.log(f"{hero.character} runs through the cutter")
    arrive(state, hero)


@rule("traps.kinds")
def spring_hidden_trap(state: CatacombsState, hero: Hero, card_id: str) -> None:
    """A hidden trap card springs on the hero: its outcome, or the open trap it names."""
    card = state.data.cards.get(card_id)
    state.log(f"hidden trap {card_id} springs on {hero.character}")
    state.discard(card_id)
    if card is None:
        return
    if card.has_outcome:
        apply_outcome(state, hero, card.outcome, f"hidden trap {card_id}")
        return
    trap = state.data.traps.get(card.trap or "")
    if trap is not None:
        for _ in range(trap.poison_per_stop):
            poison(state, hero, trap.id)
        if trap.deadly:
            state.kill(hero, f"hidden trap {card_id}")
        elif trap.health:
            state.hurt(hero, -trap.health, f"hidden trap {card_id}")


@rule("traps.spikes-harm", "traps.cutter-deadly")
def run_into(state: CatacombsState, hero: Hero, cause: str) -> None:
    """A hero driven onto an open trap against their will: spikes wound, the cutter kills,
    darts poison; the plant's and the darts' own checks still apply; a web only slows."""
    tile = state.tile_of(hero.pos)
    trap = state.data.traps.get(tile.trap_at(hero.pos[2], hero.pos[3]) or "")
    if trap is None:
        return
    if trap.deadly:
        state.kill(hero, f"{trap.id} ({cause})")
        return
    if trap.health:
        state.hurt(hero, -trap.health, f"{trap.id} ({cause})")
    if hero.alive:
        stop_on_trap(state, hero)
