"""Simulated play for any game: seeded games with bots, the generic report, replay logs.

The generic report has results by seat and by role, game length, endings, turn-bound games and
Ludii-style metrics (balance, completion, decisiveness, duration, branching factor); each game
adds the sections it declares (`Game.report`). Results never depend on the number of jobs.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.api import Action
from engine.core.game import STEP_LIMIT, TURN_BOUND, Game, GameSummary, Options, Section
from engine.core.replay import ReplayLog
from engine.core.rng import derive_seed
from engine.core.runner import parallel_map
from engine.core.state import GameState

MAX_STEPS = 200_000
"""The runner's safety limit on actions in one game."""


@dataclass(frozen=True)
class SimConfig:
    players: int
    games: int
    seed: int
    bot: str
    max_rounds: int
    jobs: int = 1
    keep_replays: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    """The game's declared options (without `max_rounds`), as sorted pairs."""

    def game_options(self) -> dict[str, Any]:
        return {**dict(self.options), "max_rounds": self.max_rounds}

    def to_json(self) -> dict[str, Any]:
        plain = {k: v for k, v in self.__dict__.items() if k != "options"}
        return {**plain, **dict(self.options)}


@dataclass(frozen=True)
class GameRecord:
    """One simulated game: the game's summary plus what the runner counted."""

    index: int
    seed: int
    summary: GameSummary
    decisions: int
    branching: int
    steps: int
    replay: str | None = None

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        return {"index": self.index, "seed": self.seed, "rounds": s.rounds,
                "ended_by": s.ended_by, "winners": list(s.winners), **s.details,
                "decisions": self.decisions, "branching": self.branching, "steps": self.steps}


# ----- playing ----------------------------------------------------------------------------------


_GAME: Game | None = None


def _init_worker(game_class: type[Game], plain: Mapping[str, Any]) -> None:
    global _GAME
    _GAME = game_class.from_model(plain)


def _play_job(job: tuple[int, SimConfig]) -> GameRecord:
    index, config = job
    assert _GAME is not None
    return play_one(_GAME, index, config)


def play_one(game: Game, index: int, config: SimConfig) -> GameRecord:
    """Game `index` of a run; its seed derives from the run's seed and the index only."""
    seed = derive_seed(config.seed, index)
    state = game.new_initial_state(config.players, seed, config.game_options())
    bots = [game.make_bot(config.bot, seat, seed) for seat in range(config.players)]
    keep = index < config.keep_replays
    log = ReplayLog(game.name, config.players, seed,
                    {"max_rounds": config.max_rounds, "bot": config.bot, "index": index,
                     **dict(config.options)}, engine=engine_version(game)) if keep else None
    decisions = branching = steps = 0
    seen = len(state.events)
    if log is not None:
        log.steps.append({"turn": 0, "player": -1, "action": None,
                          "events": state.events[:seen], "note": "setup"})
    while not state.is_terminal and steps < MAX_STEPS:
        player, turn = state.current_player, state.round
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            decisions += 1
            branching += len(state.legal_actions())
            action = bots[player].choose(state)
        state.apply(action)
        steps += 1
        if log is not None:
            log.steps.append({"turn": turn, "player": player, "action": action.to_json(),
                              "events": state.events[seen:]})
        seen = len(state.events)
    summary = game.summarize(state)
    if not state.is_terminal and summary.ended_by != STEP_LIMIT:
        summary = GameSummary(summary.rounds, STEP_LIMIT, summary.winners, summary.roles,
                              summary.details)
    record = GameRecord(index, seed, summary, decisions, branching, steps)
    if log is None:
        return record
    log.result = record.to_json()
    return GameRecord(index, seed, summary, decisions, branching, steps, log.to_json())


def run(game_class: type[Game], plain: Mapping[str, Any], config: SimConfig) -> SimRun:
    """Play `config.games` games on `config.jobs` processes."""
    jobs = [(i, config) for i in range(config.games)]
    records = parallel_map(_play_job, jobs, config.jobs, _init_worker, (game_class, plain))
    game = _GAME if config.jobs <= 1 or len(jobs) <= 1 else game_class.from_model(plain)
    assert game is not None
    own = tuple(game.report([r.summary for r in records], config.players))
    return SimRun(game.name, config, tuple(records), report(game, own, records, config), own)


def engine_version(game: Game | type[Game]) -> str:
    return f"{game.name} {game.version}"


# ----- the report -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimRun:
    game: str
    config: SimConfig
    records: tuple[GameRecord, ...]
    report: dict[str, Any]
    own: tuple[Section, ...] = ()
    """The game's own sections, as `Game.report` declared them."""

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config.to_json(), "report": self.report,
                "games": [r.to_json() for r in self.records]}


def _rate(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def report(game: Game, own: Sequence[Section], records: Sequence[GameRecord],
           config: SimConfig) -> dict[str, Any]:
    """The generic sections, then the game's own (by their keys)."""
    summaries = [r.summary for r in records]
    n = len(summaries)
    plays: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    seat_wins: Counter[int] = Counter()
    for s in summaries:
        for seat, role in enumerate(s.roles):
            plays[role] += 1
            if seat in s.winners:
                wins[role] += 1
                seat_wins[seat] += 1
    seat_rates = [_rate(seat_wins[seat], n) for seat in range(config.players)]
    endings = Counter(s.ended_by for s in summaries)
    rounds = [s.rounds for s in summaries]
    decisions = sum(r.decisions for r in records)
    mean = round(sum(rounds) / n, 2) if n else 0
    out: dict[str, Any] = {
        "games": n,
        "players": config.players,
        f"win_rate_by_{game.role}": {r: _rate(wins[r], plays[r]) for r in sorted(plays)},
        "win_rate_by_seat": {str(seat): rate for seat, rate in enumerate(seat_rates)},
        "length": {"mean_rounds": mean, "min_rounds": min(rounds, default=0),
                   "max_rounds": max(rounds, default=0)},
        "endings": dict(sorted(endings.items())),
        "turn_bound_games": endings.get(TURN_BOUND, 0),
        "metrics": {
            "balance": round(1 - (max(seat_rates) - min(seat_rates)), 4) if seat_rates else 1.0,
            "completion": _rate(sum(1 for s in summaries if s.ended_by != TURN_BOUND), n),
            "decisiveness": _rate(sum(1 for s in summaries if s.winners), n),
            "duration": mean,
            "branching_factor": round(sum(r.branching for r in records) / decisions, 2)
            if decisions else 0,
        },
    }
    for section in own:
        if section.key in out:
            raise ValueError(f"{game.name}: report section '{section.key}' is a generic one")
        out[section.key] = section.value
    return out


def sections(game: Game, run_: SimRun) -> list[Section]:
    """The report as sections, generic ones first (for text and HTML)."""
    r = run_.report
    generic = [
        Section(f"win_rate_by_{game.role}", f"win rate by {game.role}",
                r[f"win_rate_by_{game.role}"], percent=True),
        Section("win_rate_by_seat", "win rate by seat",
                {f"seat {k}": v for k, v in r["win_rate_by_seat"].items()}, percent=True),
        Section("endings", "endings", r["endings"]),
    ]
    return generic + list(run_.own)


def render_text(game: Game, run_: SimRun) -> str:
    r, c = run_.report, run_.config
    on = [o.label or o.name for o in game.options if dict(c.options).get(o.name) is True]
    lines = [f"{game.name}: {r['games']} games, {r['players']} players, bot {c.bot}, "
             f"seed {c.seed}, turn bound {c.max_rounds} rounds"
             + "".join(f", {label}" for label in on), ""]
    ln = r["length"]
    for section in sections(game, run_):
        lines += _section_text(section)
        if section.key == "win_rate_by_seat":
            lines.append(f"game length (rounds): mean {ln['mean_rounds']}, "
                         f"min {ln['min_rounds']}, max {ln['max_rounds']}")
    lines.append(f"games hitting the turn bound: {r['turn_bound_games']}")
    m = r["metrics"]
    lines += ["metrics (Ludii style)",
              f"  balance (1 - seat win-rate spread) {m['balance']}",
              f"  completion (not at turn bound)     {m['completion']}",
              f"  decisiveness (games with a winner) {m['decisiveness']}",
              f"  duration (mean rounds)             {m['duration']}",
              f"  branching factor (mean choices)    {m['branching_factor']}"]
    return "\n".join(lines) + "\n"


def _number(value: float | int, percent: bool) -> str:
    return f"{value:7.1%}" if percent else f"{value}"


def _section_text(section: Section) -> list[str]:
    if not isinstance(section.value, Mapping):
        return [f"{section.title}: {_number(section.value, section.percent)}"]
    width = max((len(str(k)) for k in section.value), default=0) + 2
    return [section.title] + [f"  {k!s:<{max(width, 18)}} {_number(v, section.percent)}"
                              for k, v in section.value.items()]


def _bars(section: Section) -> str:
    assert isinstance(section.value, Mapping)
    values = {str(k): float(v) for k, v in section.value.items()}
    width, row = 420, 22
    top = max(values.values(), default=1) or 1
    label_width = max((len(k) for k in values), default=0) * 7 + 10
    parts = [f"<h2>{html.escape(section.title)}</h2>",
             f'<svg width="{width + label_width + 80}" height="{row * len(values) + 10}">']
    for i, (k, v) in enumerate(values.items()):
        w = int(width * v / top)
        label = f"{v:.1%}" if section.percent else f"{v:g}"
        parts.append(f'<text x="0" y="{i * row + 15}" font-size="12">{html.escape(k)}</text>')
        parts.append(f'<rect x="{label_width}" y="{i * row + 3}" width="{w}" height="16" '
                     'fill="#7a5230"/>')
        parts.append(f'<text x="{label_width + 5 + w}" y="{i * row + 15}" font-size="12">'
                     f"{label}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def render_html(game: Game, run_: SimRun) -> str:
    title = f"{game.name} simulation"
    plots = [_bars(s) for s in sections(game, run_)
             if s.plot and isinstance(s.value, Mapping) and s.value]
    body = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em}pre{background:#f4efe8;padding:1em}"
        "</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<pre>{html.escape(render_text(game, run_))}</pre>",
        *plots,
        f"<h2>Raw report</h2><pre>{html.escape(json.dumps(run_.report, indent=2))}</pre>",
        "</body></html>",
    ]
    return "\n".join(body) + "\n"


# ----- replays ----------------------------------------------------------------------------------


def verify_replay(game: Game, log: ReplayLog) -> list[str]:
    """Replay a log's actions on a fresh game; the differences in events (none when faithful)."""
    setup = dict(log.setup)
    for key in ("bot", "index"):
        setup.pop(key, None)
    state: GameState = game.new_initial_state(log.players, log.seed, setup)
    problems = []
    if log.engine and log.engine != engine_version(game):
        problems.append(f"the log was written by {log.engine}, this is {engine_version(game)}")
    seen = len(state.events)
    for number, step in enumerate(log.steps):
        if step.get("action") is None:
            if state.events[:seen] != step.get("events", []):
                problems.append("setup events differ")
            continue
        try:
            state.apply(Action.from_json(step["action"]))
        except ValueError as exc:
            problems.append(f"step {number}: {exc}")
            break
        if state.events[seen:] != step.get("events", []):
            problems.append(f"step {number}: events differ")
        seen = len(state.events)
    return problems


def options_of(game: type[Game], values: Options) -> tuple[tuple[str, Any], ...]:
    """The declared options as the sorted pairs `SimConfig.options` holds."""
    declared = {o.name for o in game.options}
    return tuple(sorted((k, v) for k, v in values.items() if k in declared))
