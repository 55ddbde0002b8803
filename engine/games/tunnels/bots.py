"""Bots of both sides: heuristic ones, and MCTS through the core (with a guessed loot for the
demon). The demon's heuristic bot decides from `view.demon_view` only."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from fractions import Fraction

from engine.core.api import Action
from engine.core.bots import MCTSBot
from engine.core.rng import Rng, derive_seed
from engine.games.tunnels.board import Board
from engine.games.tunnels.combat import hits_distribution
from engine.games.tunnels.data import DEMON, MORTAL, Tunnels
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import TunnelsState
from engine.games.tunnels.treasure import LOOT, holding
from engine.games.tunnels.view import DemonView, SeenMonster, demon_view, determinize


def costs_to(board: Board, targets: Iterable[int], extra: dict[int, float]) -> list[float]:
    """Cheapest cost from every cell to the nearest target: 1 per step plus `extra[cell]` for
    stepping onto a cell."""
    inf = float("inf")
    cost = [inf] * len(board.cells)
    heap: list[tuple[float, int]] = []
    for t in targets:
        cost[t] = 0.0
        heap.append((0.0, t))
    heapq.heapify(heap)
    while heap:
        c, here = heapq.heappop(heap)
        if c > cost[here]:
            continue
        for n in board.neighbours[here]:
            # moving n -> here costs 1 plus the price of stepping onto `here`
            step = c + 1 + extra.get(here, 0.0)
            if step < cost[n]:
                cost[n] = step
                heapq.heappush(heap, (step, n))
    return cost


def goal_cells(board: Board, goal: str) -> list[int]:
    return list(board.of_square(goal))


def best_step(legal: list[Action], board: Board, cost: list[float], here: int) -> Action | None:
    """The step that lowers the cost most (None when no step helps)."""
    best, best_cost = None, cost[here]
    for a in legal:
        if a.kind == "step":
            c = cost[board.at(a.get("to"))]
            if c < best_cost:
                best, best_cost = a, c
    return best


def pick(legal: list[Action], kind: str, **match: object) -> Action | None:
    for a in legal:
        if a.kind == kind and all(a.get(k) == v for k, v in match.items()):
            return a
    return None


# ----- the mortal player ----------------------------------------------------------------------


class MortalBot:
    """Carries the loot to the goal by the cheapest way, escorts it, fights what blocks it,
    throws grenades at crowds and passes the loot to a sounder warrior."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)

    @rule("engine.mortal-bot")
    def choose(self, s: TunnelsState) -> Action:
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = legal[0].kind
        if kind == "give-loot":
            return self.give(s, legal)
        if s.phase == "swaps":
            return self.swap(s, legal)
        if kind == "activate":
            return self.order(s, legal)
        if s.act is not None:
            return self.activation(s, legal)
        return legal[0]

    def score(self, s: TunnelsState, card: str) -> float:
        c = s.data.card(card)
        return 2 * c.mov + (c.fields - s.warrior(card).damage)

    def give(self, s: TunnelsState, legal: list[Action]) -> Action:
        ranked = sorted(legal, key=lambda a: -self.score(s, a.get("warrior")))
        return ranked[self.rng.below(min(2, len(ranked)))]

    def swap(self, s: TunnelsState, legal: list[Action]) -> Action:
        carrier = loot_carrier(s)
        for a in legal:
            if a.kind != "swap" or carrier not in (a.get("a"), a.get("b")):
                continue
            other = a.get("b") if a.get("a") == carrier else a.get("a")
            if self.score(s, other) >= self.score(s, carrier) + 2:
                return a
        return legal[-1]

    def order(self, s: TunnelsState, legal: list[Action]) -> Action:
        carrier = loot_carrier(s)
        loot_cell = loot_on_ground(s)
        if loot_cell is not None:
            return min(legal, key=lambda a: s.board.distance(s.cell_of(a.get("piece")), loot_cell))
        for a in legal:
            if a.get("piece") == carrier:
                return a
        goal = goal_cells(s.board, s.scenario.goal)
        return min(legal, key=lambda a: min(s.board.distance(s.cell_of(a.get("piece")), g)
                                            for g in goal))

    def target(self, s: TunnelsState, card: str) -> list[int]:
        """The loot on the ground draws everyone; the carrier makes for the goal; the others
        keep with the carrier."""
        loot_cell = loot_on_ground(s)
        if loot_cell is not None:
            return [loot_cell]
        carrier = loot_carrier(s)
        goal = goal_cells(s.board, s.scenario.goal)
        if card == carrier or carrier is None:
            return goal
        there = s.warrior(carrier).cell
        return [there] if s.warrior(card).cell != there else goal

    def activation(self, s: TunnelsState, legal: list[Action]) -> Action:
        a = s.act
        assert a is not None
        card = a.piece
        take = pick(legal, "take", token=LOOT)
        if take is not None:
            return take
        if a.stage == "move":
            cost = costs_to(s.board, self.target(s, card), mortal_extra(s))
            here = s.warrior(card).cell
            if cost[here] == 0 and card != loot_carrier(s):
                return pick(legal, "stop") or legal[-1]
            return best_step(legal, s.board, cost, here) or pick(legal, "stop") or legal[-1]
        return self.fight(s, card, legal)

    def fight(self, s: TunnelsState, card: str, legal: list[Action]) -> Action:
        best, best_value = pick(legal, "done"), 0.0
        assert best is not None
        for a in legal:
            if a.kind == "attack":
                value = self.melee_value(s, card, a.get("target"))
            elif a.kind == "grenade":
                value = self.grenade_value(s, s.board.at(a.get("at"))) - 0.6
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        return best

    def melee_value(self, s: TunnelsState, card: str, target: str) -> float:
        hits = expected(hits_distribution(s.data.card(card).attack))
        mult = s.board.square(s.cell_of(target)).damage_multiplier
        m = s.monster(target)
        if m is not None and m.kind == "demon":
            return 1.5 * hits * mult
        crowd = sum(1 for x in s.monsters if x.cell == m.cell and x.kind == "troglodyte")
        return min(hits * mult, crowd)

    def grenade_value(self, s: TunnelsState, cell: int) -> float:
        p = float(s.data.grenade.p_explode)
        value = 0.0
        for m in s.monsters:
            if m.cell == cell:
                value += p * (1.5 if m.kind == "demon" else 1.0)
        return value


def expected(dist: dict[int, Fraction]) -> float:
    return float(sum(k * p for k, p in dist.items()))


def loot_carrier(s: TunnelsState) -> str | None:
    for w in s.alive_warriors():
        if holding(s, w.card) == LOOT:
            return w.card
    return None


def loot_on_ground(s: TunnelsState) -> int | None:
    for t in s.tokens:
        if t.value == LOOT and not t.gone and t.holder is None:
            return t.cell
    return None


def mortal_extra(s: TunnelsState) -> dict[int, float]:
    """What stepping onto a square costs the squad beyond the step: water stops the move, an
    unsprung trap may bite, enemies stop the move."""
    extra: dict[int, float] = {}
    for cell in range(len(s.board.cells)):
        sq = s.board.square(cell)
        price = 0.0
        if sq.ends_movement:
            price += 3.0
        if sq.first_entry_roll and cell not in s.triggered:
            price += 1.0
        enemies = len(s.occupants(cell, DEMON))
        if enemies:
            price += 1.0 * enemies
        if price:
            extra[cell] = price
    return extra


# ----- the demon player -----------------------------------------------------------------------


class DemonBot:
    """Hunts the token carriers nearest the way out, blocks their path with new troglodytes and
    curses the weakest carrier. It reads only `DemonView`."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)

    @rule("engine.demon-bot")
    def choose(self, s: TunnelsState) -> Action:
        return self.decide(demon_view(s))

    def decide(self, v: DemonView) -> Action:
        legal = list(v.legal)
        if len(legal) == 1:
            return legal[0]
        kind = legal[0].kind
        if kind == "place":
            return self.place(v, legal)
        if kind == "curse":
            return self.curse(v, legal)
        if kind == "activate":
            return self.order(v, legal)
        if v.acting is not None:
            return self.activation(v, legal)
        return legal[0]

    def goal(self, v: DemonView) -> list[int]:
        return goal_cells(v.board, v.scenario.goal)

    def to_goal(self, v: DemonView) -> tuple[int, ...]:
        return v.board.to_nearest(tuple(self.goal(v)))

    def quarry(self, v: DemonView) -> list[int]:
        """The cells the demon side should go for: the loot when it is known, else the token
        carriers nearest the goal (and tokens on the ground)."""
        if v.loot_cell is not None:
            return [v.loot_cell]
        if v.loot_holder is not None:
            holder = next(w for w in v.warriors if w.card == v.loot_holder)
            return [holder.cell]
        to_goal = self.to_goal(v)
        carriers = [w for w in v.alive() if w.carries] or v.alive()
        near = min(to_goal[w.cell] for w in carriers)
        cells = [w.cell for w in carriers if to_goal[w.cell] <= near + 1]
        return cells + [c for c, _ in v.ground]

    def order(self, v: DemonView, legal: list[Action]) -> Action:
        quarry = self.quarry(v)

        def distance(a: Action) -> int:
            m = v.monster(a.get("piece"))
            assert m is not None
            return min(v.board.distance(m.cell, q) for q in quarry)

        return min(legal, key=distance)

    def activation(self, v: DemonView, legal: list[Action]) -> Action:
        m = v.monster(v.acting or "")
        assert m is not None
        if v.acting_stage == "move":
            spot = self.intercept(v, m)
            if m.cell == spot:
                return pick(legal, "stop") or legal[-1]
            cost = costs_to(v.board, [spot], {})
            return best_step(legal, v.board, cost, m.cell) or pick(legal, "stop") or legal[-1]
        targets = [a for a in legal if a.kind == "attack"]
        if not targets:
            return pick(legal, "done") or legal[-1]
        return min(targets, key=lambda a: self.victim_rank(v, a.get("target")))

    def intercept(self, v: DemonView, m: SeenMonster) -> int:
        """The square to make for: the first one on a quarry's shortest way to the goal that
        this figure reaches no later than the quarry, avoiding crowds a grenade could clear;
        a badly wounded Demon keeps away from the squad."""
        if m.kind == "demon" and m.wounds >= (v.data.demon.wounds or 1) - 2:
            return self.retreat(v, m)
        mov = v.data.demon.mov if m.kind == "demon" else v.data.troglodyte.mov
        grenadiers = [w.cell for w in v.alive() if w.grenades]
        to_goal = self.to_goal(v)
        best: tuple[int, int, int] | None = None
        spot = None
        for q in self.quarry(v):
            for c in range(len(v.board.cells)):
                ahead = v.board.distance(q, c)
                if ahead + to_goal[c] != to_goal[q]:
                    continue
                mine = -(-v.board.distance(m.cell, c) // mov)
                theirs = -(-ahead // 3)
                if mine > theirs:
                    continue
                crowd = sum(1 for o in v.monsters if o.cell == c and o.key != m.key)
                exposed = crowd >= 3 and any(v.board.distance(c, g) <= 4 for g in grenadiers)
                key = (int(exposed), ahead, v.board.distance(m.cell, c))
                if best is None or key < best:
                    best, spot = key, c
        if spot is None:
            quarry = self.quarry(v)
            spot = min(quarry, key=lambda q: v.board.distance(m.cell, q))
        return spot

    def retreat(self, v: DemonView, m: SeenMonster) -> int:
        """The reachable square farthest from every warrior (ties: nearer the Demon)."""
        alive = v.alive()
        return max(range(len(v.board.cells)), key=lambda c: (
            min(v.board.distance(c, w.cell) for w in alive) if alive else 0,
            -v.board.distance(m.cell, c), -c))

    def victim_rank(self, v: DemonView, card: str) -> tuple:
        w = next(x for x in v.warriors if x.card == card)
        left = v.data.card(card).fields - w.damage
        mult = v.board.square(w.cell).damage_multiplier
        return (not w.carries, left / mult, card)

    def place(self, v: DemonView, legal: list[Action]) -> Action:
        quarry = self.quarry(v)
        to_goal = self.to_goal(v)

        def detour(a: Action) -> tuple:
            cell = v.board.at(a.get("at"))
            best = min(v.board.distance(q, cell) + to_goal[cell] - to_goal[q] for q in quarry)
            near = min(v.board.distance(q, cell) for q in quarry)
            return (best, near, cell)

        return min(legal, key=detour)

    def curse(self, v: DemonView, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: self.victim_rank(v, a.get("warrior")))


# ----- the bots the game offers -------------------------------------------------------------


def heuristic_bot(seat: int, seed: int) -> MortalBot | DemonBot:
    return MortalBot(seed) if seat == MORTAL else DemonBot(seed)


@rule("engine.mcts-progress")
def progress(s: TunnelsState, seat: int) -> float:
    """A rollout's value short of the end: the loot's way to the goal, the squad's health, the
    Demon's wounds (for the mortal player; one minus it for the demon player)."""
    data: Tunnels = s.data
    goal = goal_cells(s.board, s.scenario.goal)
    carrier = loot_carrier(s)
    cell = s.warrior(carrier).cell if carrier else loot_on_ground(s)
    far = max(min(s.board.distance(c, g) for g in goal) for c in range(len(s.board.cells)))
    way = 0.0 if cell is None else 1 - min(s.board.distance(cell, g) for g in goal) / max(1, far)
    health = sum(data.card(w.card).fields - w.damage for w in s.alive_warriors()) / max(
        1, sum(c.fields for c in data.cards))
    wounds = (s.demon.wounds if s.demon else 0) / max(1, data.demon.wounds or 1)
    mortal = 0.1 + 0.4 * way + 0.3 * health + 0.2 * wounds
    mortal = min(0.95, mortal)
    return mortal if seat == MORTAL else 1 - mortal


class DemonMCTS:
    """MCTS for the demon player on a copy where the loot is guessed (`view.determinize`)."""

    def __init__(self, seed: int, iterations: int = 24, rollout_steps: int = 80):
        self.rng = Rng(seed)
        self.inner = MCTSBot(seed, DEMON, iterations=iterations, rollout_steps=rollout_steps,
                             evaluate=progress)

    @rule("engine.demon-mcts")
    def choose(self, s: TunnelsState) -> Action:
        return self.inner.choose(determinize(s, self.rng))


def mcts_bot(seat: int, seed: int) -> MCTSBot | DemonMCTS:
    if seat == MORTAL:
        return MCTSBot(derive_seed(seed, 1), MORTAL, iterations=24, rollout_steps=80,
                       evaluate=progress)
    return DemonMCTS(derive_seed(seed, 2))
