"""The catacombs state: heroes, monsters, tiles, draw piles and a queue of pending steps.

The queue drives everything that is not a free choice of the player on turn: chance steps
(`Roll`, `Draw`), decisions (`Decide`, e.g. how to turn a new tile) and automatic steps
(`Do`, e.g. a monster's move), all typed in `steps.py`. While the head of the queue is a chance
step the state is a chance node; while it is a decision, the deciding seat is the current
player.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.core.api import CHANCE, TERMINAL, Action, IllegalActionError, Outcome
from engine.core.dice import Dice
from engine.core.rng import Rng
from engine.core.state import GameState
from engine.games.catacombs import registry
from engine.games.catacombs.board import Board, Placed, Pos, slot_key
from engine.games.catacombs.data import STATS, Catacombs, Reward
from engine.games.catacombs.equipment import Arrangement, arrange
from engine.games.catacombs.registry import rule
from engine.games.catacombs.steps import (
    Death,
    Decide,
    Do,
    Draw,
    EndTurn,
    NextPhase,
    ReceiveCard,
    Repay,
    Roll,
    Step,
    step_from_dict,
)


@dataclass
class Hero:
    seat: int
    character: str = ""
    hp: int = 0
    max_hp: int = 0
    pos: tuple[int, int, int, int] | None = None
    alive: bool = True
    out: bool = False
    treasures: int = 0
    items: list[str] = field(default_factory=list)
    packed: list[str] = field(default_factory=list)
    secret_knowledge: int = 0
    spells: list[str] = field(default_factory=list)
    antidotes: int = 0
    intrigues: int = 0
    banknotes: int = 0
    poison: int = 0
    bonus: dict[str, int] = field(default_factory=dict)
    speed_set: int | None = None
    turns_lost: int = 0
    hidden: int = 0
    artifact: bool = False
    cause: str = ""
    studied: list[str] = field(default_factory=list)
    met: list[str] = field(default_factory=list)
    kills: list[str] = field(default_factory=list)
    team: str = ""
    debt: int = 0
    lender: int = -1
    usury: bool = False
    gathered: int = 0
    junk: int = 0
    ambush: int = -1  # the seat this hero forced out of a shelter this turn (surprise bonus)
    guard_wounds: int = 0  # damage the hero's bodyguard has taken

    @property
    def active(self) -> bool:
        return self.alive and not self.out and self.pos is not None


@dataclass
class Piece:
    """A monster on the table."""

    uid: int
    monster: str
    pos: tuple[int, int, int, int]
    hp: int | None
    species: str = ""
    shield: bool = False
    alive: bool = True
    awake: bool = False
    held: int = 0
    under: int = 0
    hurt: bool = False
    loot: dict[str, Any] = field(default_factory=dict)
    controlled: bool = False

    @property
    def on_map(self) -> bool:
        """Alive, awake and above ground."""
        return self.alive and self.awake and self.under == 0


STAT_NAMES = STATS
RESHUFFLED = ("event", "hidden-trap", "spell", "intrigue")
"""Decks whose discard pile is shuffled into a new deck when they run out (table.reshuffle)."""
JUNK, JUNK_POOL = "junk", "token:junk"
"""The junk token and its supply (`setup.token_pools` names every token pool by type)."""
PHASE_SETUP, PHASE_SHOP, PHASE_PLAY, PHASE_OVER = "setup", "shop", "play", "over"


class CatacombsState(GameState):
    """One position of a catacombs game (see the module docstring for the queue)."""

    def __init__(self, data: Catacombs, players: int, seed: int, max_rounds: int = 60):
        self.data = data
        self.players = players
        self.seed = seed
        self.max_rounds = max_rounds
        self.rng = Rng(seed)
        self.heroes: list[Hero] = [Hero(seat=i) for i in range(players)]
        self.pieces: list[Piece] = []
        self.tiles: dict[str, Placed] = {}
        self.pools: dict[str, dict[str, int]] = {}
        self.queue: list[Step] = []
        self.relations: dict[str, int] = {}
        self.goodwill: list[str] = []  # pairs whose slider goodwill has raised (once each)
        self.phase = PHASE_SETUP
        self.round = 0
        self.seat = 0
        self.actions_left = 0
        self.winners: list[int] = []
        self.ended_by = ""
        self.events: list[str] = []
        self.next_uid = 1
        self.start_slot: list[int] = [0, 0]
        self.hatch: list[int] = []
        self.floods: dict[str, list[int]] = {}
        """Labyrinth -> [first flooded round, damage a turn, round the water falls or 0]."""
        self.artifact_taken = False
        self.acted = False  # some hero did more than pass this round
        self.idle_rounds = 0  # rounds in a row in which every living hero only passed
        self.longest_idle = 0
        self.team_play = False
        self.monster_players = False
        self._front = []
        self._memo: dict[Any, Any] = {}
        self._chosen_in: dict[Any, Any] = {}
        self.layout_cache: dict[Any, Any] = {}
        self._stats_cache: dict[Any, Any] = {}

    # ----- the OpenSpiel interface ------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.queue:
            head = self.queue[0]
            if isinstance(head, Roll | Draw):
                return CHANCE
            if isinstance(head, Decide):
                return head.seat
        return self.seat

    def legal_actions(self) -> list[Action]:
        return list(self._legal())

    def _legal(self) -> list[Action]:
        """The legal actions, computed once per position (the list is shared: never change it)."""
        cached = self._memo.get("legal")
        if cached is None:
            cached = self._memo["legal"] = super().legal_actions()
        return cached

    def refresh(self) -> None:
        """Forget every cache; call after changing the state by hand (tests, tools)."""
        self._memo = {}
        self._chosen_in = {}
        self.layout_cache = {}
        self._stats_cache = {}

    def touch_layout(self, what: str = "tiles") -> None:
        """Forget cached path data: `tiles` (a tile laid: everything), `passage` (a door or
        crevice changed: the walking graph) or `visited` (a first step on a tile)."""
        if what == "tiles":
            self.layout_cache = {}
        elif what == "passage":
            self.layout_cache.pop("walk", None)
            self.layout_cache.pop("squeeze", None)
            self.layout_cache.pop("obstacles", None)
        else:
            self.layout_cache.pop("visited", None)

    def memo(self, key: Any, compute: Any) -> Any:
        """Per-position cache (cleared whenever an action is applied)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def memo_at_choice(self, key: Any, compute: Any) -> Any:
        """`memo` of the position the action being applied was chosen in. Only a handler may
        use it, and only before it changes the state."""
        found = self._chosen_in.get(key)
        return compute() if found is None else found

    def _player_actions(self) -> list[Action]:
        if self.queue and isinstance(self.queue[0], Decide):
            return registry.OPTIONS[self.queue[0].fn](self, self.queue[0])
        hero = self.heroes[self.seat]
        out: list[Action] = []
        for gen in registry.ACTIONS:
            out.extend(gen(self, hero))
        return out

    def chance_outcomes(self) -> list[Outcome]:
        head = self.queue[0] if self.queue else None
        if isinstance(head, Roll):
            return list(_roll_outcomes(head.dice))
        if not isinstance(head, Draw):
            return []
        pool = self.pools.get(head.pool, {})
        total = sum(pool.values())
        return [
            Outcome(Action.of("draw", card=card), Fraction(n, total))
            for card, n in sorted(pool.items())
            if n > 0
        ]

    def sample_chance(self) -> Action:
        """Draw a chance outcome with the state's own generator (integer weights: fast)."""
        head = self.queue[0]
        if isinstance(head, Draw):
            pool = self.pools.get(head.pool, {})
            cards = sorted(c for c, n in pool.items() if n > 0)
            pick = self.rng.below(sum(pool[c] for c in cards))
            for card in cards:
                if pick < pool[card]:
                    return Action.of("draw", card=card)
                pick -= pool[card]
        if isinstance(head, Roll):
            dice = _parse_dice(head.dice)
            if dice.count == 1:
                return Action.of("roll", value=dice.modifier + 1 + self.rng.below(dice.sides))
        return super().sample_chance()

    def _apply(self, action: Action) -> None:
        self._chosen_in, self._memo = self._memo, {}
        if self.queue and not isinstance(self.queue[0], Do):
            head = self.queue.pop(0)
            if isinstance(head, Draw):
                card = action.get("card")
                self.pools[head.pool][card] -= 1
                registry.TASKS[head.fn](self, head, card)
            elif isinstance(head, Roll):
                registry.TASKS[head.fn](self, head, action.get("value"))
            else:
                registry.TASKS[head.fn](self, head, action)
        else:
            hero = self.heroes[self.seat]
            if action.kind != "pass":
                self.acted = True
            spent = registry.HANDLERS[action.kind](self, hero, action)
            self.actions_left = max(0, self.actions_left - spent)
        self._chosen_in = {}
        self.advance()

    def apply(self, action: Action) -> None:
        if self.is_terminal:
            raise IllegalActionError(action, self.summary(), "the game is over")
        if not self._is_legal(action):
            legal = self.legal_actions()
            who = "chance" if self.is_chance_node else f"seat {self.current_player}"
            raise IllegalActionError(
                action, self.summary(), f"not among the {len(legal)} legal actions of {who}"
            )
        self._apply(action)

    def _is_legal(self, action: Action) -> bool:
        """`action in legal_actions()`, without building the exact chance fractions."""
        head = self.queue[0] if self.queue else None
        if isinstance(head, Draw):
            card = action.get("card")
            pool = self.pools.get(head.pool, {})
            return action == Action.of("draw", card=card) and pool.get(card, 0) > 0
        if isinstance(head, Roll):
            return action in _roll_actions(head.dice)
        return action in self._legal()

    @property
    def returns(self) -> list[float]:
        if self.phase != PHASE_OVER:
            return [0.0] * self.players
        return [1.0 if i in self.winners else 0.0 for i in range(self.players)]

    def summary(self) -> str:
        head = self.queue[0].fn if self.queue else "-"
        hero = self.heroes[self.seat] if self.heroes else None
        where = f"{hero.character}@{hero.pos}" if hero else "-"
        return (
            f"round {self.round}, phase {self.phase}, seat {self.seat} ({where}), "
            f"actions left {self.actions_left}, pending {head}"
        )

    # ----- the machine ------------------------------------------------------------------------
    def push(self, step: Step, front: bool = True) -> None:
        """Queue a step: before the steps already queued (`front`, the default: it follows from
        what is being resolved) or after them."""
        if front:
            self._front.append(step)
        else:
            self.queue.append(step)

    def run(self, step: Step) -> None:
        """Carry out an automatic step at once instead of queueing it."""
        registry.TASKS[step.fn](self, step, None)

    def advance(self) -> None:
        """Run automatic steps until a chance node, a decision or a player's free choice."""
        guard = 0
        while True:
            guard += 1
            if guard > 10_000:
                raise RuntimeError(f"the catacombs state machine does not settle: {self.summary()}")
            self._flush_front()
            if self.phase == PHASE_OVER:
                self.queue.clear()
                return
            if self.queue:
                head = self.queue[0]
                if not isinstance(head, Do):
                    return
                self.queue.pop(0)
                registry.TASKS[head.fn](self, head, None)
                continue
            if self.phase != PHASE_PLAY:
                self.run(NextPhase())
                continue
            hero = self.heroes[self.seat]
            self._memo = {}
            if hero.active and self.actions_left > 0 and self._legal():
                return
            self.run(EndTurn())

    _front: list[Step]

    def _flush_front(self) -> None:
        if self._front:
            self.queue[0:0] = self._front
            self._front = []

    # ----- shared helpers for rules modules --------------------------------------------------
    @property
    def board(self) -> Board:
        return Board(self.tiles)

    def tile_of(self, pos: Pos) -> Placed:
        slots = self.layout_cache.get("slots")
        if slots is None:
            slots = {(t.slot[0], t.slot[1]): t for t in self.tiles.values()}
            self.layout_cache["slots"] = slots
        found = slots.get((pos[0], pos[1]))
        return found if found is not None else self.tiles[slot_key((pos[0], pos[1]))]

    def log(self, text: str) -> None:
        self.events.append(f"r{self.round} s{self.seat}: {text}")

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    def stat(self, hero: Hero, name: str) -> int:
        if name == "health":
            return hero.hp
        return self._stats_of(hero)[name]

    def stats(self, hero: Hero) -> dict[str, int]:
        """The hero's stats with bonuses and worn equipment."""
        out = dict(self._stats_of(hero))
        out["health"] = hero.hp
        return out

    def _stats_of(self, hero: Hero) -> dict[str, int]:
        """Stats without health, cached while character, items, bonuses and speed stay the same
        (the returned dict is shared: never change it)."""
        key = (
            hero.character,
            tuple(hero.items),
            tuple(hero.packed),
            tuple(hero.bonus.items()),
            hero.speed_set,
        )
        found = self._stats_cache.get(key)
        if found is None:
            found = self._stats_cache[key] = {n: self._stat(hero, n) for n in STAT_NAMES}
        return found

    def _stat(self, hero: Hero, name: str) -> int:
        base = self.data.characters[hero.character].stats.get(name, 0) if hero.character else 0
        value = base + hero.bonus.get(name, 0) + equipment_bonus(self, hero, name)
        if name == "speed" and hero.speed_set is not None:
            value = min(value, hero.speed_set)
        return value

    def arrangement(self, hero: Hero) -> Arrangement:
        """Where the hero's items are: worn or held (their bonuses count) and packed."""
        return arrange(
            self.data,
            self._stats_cache,
            hero.character,
            tuple(hero.items),
            tuple(hero.packed),
            self.porter_room(hero),
        )

    @rule("table.porter")
    def porter_room(self, hero: Hero) -> int:
        """Compartments the hero's hired porters carry besides the backpack."""
        room = 0
        for card_id in hero.spells:
            card = self.data.cards.get(card_id)
            if card is not None and card.ability is not None and card.ability.effect == "porter":
                room += card.ability.amount
        return room

    def worn(self, hero: Hero) -> tuple[str, ...]:
        """What the hero wears or holds: the items whose bonuses count."""
        if not hero.items:
            return ()
        return self.arrangement(hero).worn

    def meet(self, hero: Hero, piece: Piece) -> None:
        """The hero has met this monster (counted once per monster)."""
        entry = f"{piece.monster}:{piece.uid}"
        if entry not in hero.met:
            hero.met.append(entry)

    def pieces_on(self, slot: tuple[int, int]) -> list[Piece]:
        return [p for p in self.pieces if p.alive and (p.pos[0], p.pos[1]) == slot]

    def heroes_on(self, slot: tuple[int, int]) -> list[Hero]:
        return [h for h in self.heroes if h.active and (h.pos[0], h.pos[1]) == slot]

    def relation(self, a: int, b: int) -> int:
        key = f"{min(a, b)}|{max(a, b)}"
        return self.relations.get(key, 0)

    def set_relation(self, a: int, b: int, level: int) -> None:
        scale = self.data.scale
        self.relations[f"{min(a, b)}|{max(a, b)}"] = max(scale.min, min(scale.max, level))

    def gain(self, hero: Hero, reward: Reward, why: str) -> None:
        """Give a reward bundle; item and card draws are queued as chance steps."""
        hero.treasures += reward.treasures
        hero.gathered += reward.treasures
        hero.antidotes += reward.antidotes
        hero.junk += self.take_junk(reward.junk)
        hero.secret_knowledge += reward.secret_knowledge
        hero.items.extend(reward.items)
        for stat, amount in reward.stat_increase:
            chosen = "strength" if stat == "any" else stat
            hero.bonus[chosen] = hero.bonus.get(chosen, 0) + amount
        for pool, n in (
            ("common-item", reward.common_items),
            ("magic-item", reward.magic_items),
            ("unique-item", reward.unique_magic_items),
            ("common-item", reward.item_cards),
            ("spell", reward.spells),
            ("intrigue", reward.intrigues),
        ):
            for _ in range(n):
                if self.stocked(pool):
                    self.push(ReceiveCard(pool=pool, seat=hero.seat))
        self.log(f"{hero.character} gains {why}: {reward_text(reward)}")
        if hero.debt and hero.lender >= 0 and reward.treasures:
            self.push(Repay(seat=hero.seat))

    @rule("table.reshuffle")
    def stocked(self, pool: str) -> bool:
        """The pool has a card to draw; an empty event, trap, spell or intrigue deck is first
        made again from its discard pile, shuffled."""
        cards = self.pools.get(pool, {})
        if sum(cards.values()) > 0:
            return True
        spent = self.pools.get(f"discard:{pool}")
        if pool not in RESHUFFLED or not spent or not sum(spent.values()):
            return False
        self.pools[pool] = {c: cards.get(c, 0) + spent.get(c, 0) for c in sorted({*cards, *spent})}
        self.pools[f"discard:{pool}"] = {}
        self.log(f"the {pool} deck is shuffled again from its discard pile")
        return True

    def discard(self, card_id: str) -> None:
        """A card carried out or played goes to its deck's discard pile (decks that reshuffle)."""
        card = self.data.cards.get(card_id)
        deck = self.data.decks.get(card.deck) if card is not None else None
        if deck is None or deck.type not in RESHUFFLED:
            return
        spent = self.pools.setdefault(f"discard:{deck.type}", {})
        spent[card_id] = spent.get(card_id, 0) + 1

    def take_junk(self, n: int) -> int:
        """Junk tokens taken from the supply: as many as asked while it lasts."""
        pool = self.pools.get(JUNK_POOL)
        if pool is None:
            return n
        taken = min(n, pool.get(JUNK, 0))
        if taken:
            pool[JUNK] -= taken
        return taken

    def hurt(self, hero: Hero, amount: int, cause: str, death: str | None = None) -> None:
        """The hero loses health for `cause` (what the log says); `death` is the cause of death
        recorded if it kills (the cause itself by default)."""
        if amount <= 0 or not hero.alive:
            return
        hero.hp -= amount
        self.log(f"{hero.character} loses {amount} health ({cause}), {max(hero.hp, 0)} left")
        if hero.hp <= 0:
            self.kill(hero, death or cause)

    def kill(self, hero: Hero, cause: str) -> None:
        if not hero.alive:
            return
        self.run(Death(seat=hero.seat, cause=cause))

    # ----- serialization ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "max_rounds": self.max_rounds,
            "rng": self.rng.state,
            "heroes": [_plain(asdict(h)) for h in self.heroes],
            "pieces": [_plain(asdict(p)) for p in self.pieces],
            "tiles": {k: _plain(asdict(t)) for k, t in sorted(self.tiles.items())},
            "pools": copy.deepcopy(self.pools),
            "queue": [step.to_dict() for step in self.queue],
            "relations": dict(self.relations),
            "goodwill": list(self.goodwill),
            "phase": self.phase,
            "round": self.round,
            "seat": self.seat,
            "actions_left": self.actions_left,
            "winners": list(self.winners),
            "ended_by": self.ended_by,
            "events": list(self.events),
            "next_uid": self.next_uid,
            "start_slot": list(self.start_slot),
            "hatch": list(self.hatch),
            "floods": {k: list(v) for k, v in sorted(self.floods.items())},
            "artifact_taken": self.artifact_taken,
            "idle": [self.acted, self.idle_rounds, self.longest_idle],
            "team_play": self.team_play,
            "monster_players": self.monster_players,
        }

    @classmethod
    def from_dict(cls, data: Catacombs, raw: dict[str, Any]) -> CatacombsState:
        s = cls(data, raw["players"], raw["seed"], raw["max_rounds"])
        s.rng = Rng(raw["rng"])
        s.heroes = [_build(Hero, h) for h in raw["heroes"]]
        s.pieces = [_build(Piece, p) for p in raw["pieces"]]
        s.tiles = {k: _build(Placed, t) for k, t in raw["tiles"].items()}
        s.pools = copy.deepcopy(raw["pools"])
        s.queue = [step_from_dict(step) for step in raw["queue"]]
        s.relations = dict(raw["relations"])
        s.goodwill = list(raw.get("goodwill", []))
        for name in ("phase", "round", "seat", "actions_left", "ended_by", "next_uid"):
            setattr(s, name, raw[name])
        s.winners = list(raw["winners"])
        s.events = list(raw["events"])
        s.start_slot = list(raw["start_slot"])
        s.hatch = list(raw["hatch"])
        s.floods = {k: list(v) for k, v in raw.get("floods", {}).items()}
        s.artifact_taken = raw["artifact_taken"]
        s.acted, s.idle_rounds, s.longest_idle = raw.get("idle", [False, 0, 0])
        s.team_play = raw.get("team_play", False)
        s.monster_players = raw.get("monster_players", False)
        return s

    def clone(self) -> CatacombsState:
        return CatacombsState.from_dict(self.data, self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CatacombsState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


@lru_cache(maxsize=64)
def _parse_dice(text: str) -> Dice:
    return Dice.parse(text)


@lru_cache(maxsize=64)
def _roll_actions(text: str) -> frozenset[Action]:
    return frozenset(o.action for o in _roll_outcomes(text))


@lru_cache(maxsize=64)
def _roll_outcomes(text: str) -> tuple[Outcome, ...]:
    dist = Dice.parse(text).distribution()
    return tuple(Outcome(Action.of("roll", value=v), p) for v, p in sorted(dist.items()))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _build(cls: type, raw: dict[str, Any]) -> Any:
    kwargs = copy.deepcopy(raw)
    names = {f.name for f in fields(cls)}
    if "pos" in kwargs and kwargs["pos"] is not None:
        kwargs["pos"] = tuple(kwargs["pos"])
    return cls(**{k: v for k, v in kwargs.items() if k in names})


@rule("shop.clothing-slots", "shop.accessories", "engine.equipment")
def equipment_bonus(state: CatacombsState, hero: Hero, name: str) -> int:
    """Stat bonuses of what the hero wears or holds; packed items add nothing (which items are
    worn, within the clothing slots, accessories, hands and backpack: `equipment.arrange`)."""
    if not hero.items:
        return 0
    items = state.data.items
    return sum(items[i].stats.get(name, 0) for i in state.worn(hero))


def reward_text(reward: Reward) -> str:
    parts = []
    for name in (
        "treasures",
        "common_items",
        "magic_items",
        "unique_magic_items",
        "item_cards",
        "secret_knowledge",
        "spells",
        "intrigues",
        "antidotes",
        "junk",
    ):
        n = getattr(reward, name)
        if n:
            parts.append(f"{n} {name.replace('_', ' ')}")
    parts.extend(reward.items)
    parts.extend(f"+{a} {s}" for s, a in reward.stat_increase)
    return ", ".join(parts) or "nothing"
