"""Simulated play: many seeded games with bots, a balance report, replay logs."""

from __future__ import annotations

import html
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.core.bots import MCTSBot, RandomBot
from engine.core.replay import ReplayLog
from engine.core.rng import derive_seed
from engine.core.runner import parallel_map
from engine.games.catacombs.bots import HeuristicBot
from engine.games.catacombs.data import Catacombs, from_plain
from engine.games.catacombs.game import DEFAULT_MAX_ROUNDS, Game
from engine.games.catacombs.state import CatacombsState

BOTS = ("random", "heuristic", "mcts")
MAX_STEPS = 200_000


@dataclass(frozen=True)
class SimConfig:
    players: int
    games: int
    seed: int
    bot: str = "heuristic"
    max_rounds: int = DEFAULT_MAX_ROUNDS
    jobs: int = 1
    keep_replays: int = 0
    teams: bool = False
    monster_players: bool = False


def make_bots(kind: str, seed: int, players: int) -> list:
    if kind == "random":
        return [RandomBot(derive_seed(seed, 1000 + i)) for i in range(players)]
    if kind == "mcts":
        return [
            MCTSBot(
                derive_seed(seed, 2000 + i), i, iterations=16, rollout_steps=60, evaluate=progress
            )
            for i in range(players)
        ]
    return [HeuristicBot(derive_seed(seed, 3000 + i)) for i in range(players)]


def progress(state: CatacombsState, seat: int) -> float:
    """A rollout's value short of the end: alive, health, treasure, tiles laid, the artifact."""
    hero = state.heroes[seat]
    if not hero.alive:
        return 0.0
    value = 0.2 + 0.1 * hero.hp / max(1, hero.max_hp) + 0.005 * min(hero.treasures, 40)
    value += 0.005 * len(state.tiles) + (0.4 if hero.artifact else 0.0)
    return min(value, 0.95)


_DATA: Catacombs | None = None


def _init_worker(plain: dict[str, Any]) -> None:
    global _DATA
    _DATA = from_plain(plain)


def play_one(job: tuple) -> dict[str, Any]:
    """Play game `index` of a run; its seed derives from the run's seed and the index."""
    index, run_seed, players, bot, max_rounds, keep, teams, monster_players = job
    assert _DATA is not None
    seed = derive_seed(run_seed, index)
    game = Game(
        _DATA,
        players=players,
        seed=seed,
        max_rounds=max_rounds,
        teams=teams,
        monster_players=monster_players,
    )
    state = game.new_initial_state()
    return play_state(state, make_bots(bot, seed, players), index, keep, bot)


def play_state(
    state: CatacombsState, bots: list, index: int, keep: bool, bot: str
) -> dict[str, Any]:
    decisions = branching = steps = 0
    log = ReplayLog(
        "catacombs",
        state.players,
        state.seed,
        {
            "max_rounds": state.max_rounds,
            "bot": bot,
            "index": index,
            "teams": state.team_play,
            "monster_players": state.monster_players,
        },
    )
    seen = len(state.events)
    if keep:
        log.steps.append(
            {
                "turn": 0,
                "player": -1,
                "action": None,
                "events": state.events[:seen],
                "note": "setup",
            }
        )
    while not state.is_terminal and steps < MAX_STEPS:
        player = state.current_player
        turn = state.round
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            options = len(state.legal_actions())
            decisions += 1
            branching += options
            action = bots[player].choose(state)
        state.apply(action)
        steps += 1
        if keep:
            log.steps.append(
                {
                    "turn": turn,
                    "player": player,
                    "action": action.to_json(),
                    "events": state.events[seen:],
                }
            )
        seen = len(state.events)
    heroes = [
        {
            "seat": h.seat,
            "character": h.character,
            "alive": h.alive,
            "cause": h.cause,
            "treasures": h.gathered,
            "met": sorted(m.split(":")[0] for m in h.met),
            "kills": sorted(h.kills),
        }
        for h in state.heroes
    ]
    result = {
        "index": index,
        "seed": state.seed,
        "rounds": min(state.round, state.max_rounds),
        "ended_by": state.ended_by or "step-limit",
        "winners": list(state.winners),
        "heroes": heroes,
        "decisions": decisions,
        "branching": branching,
        "steps": steps,
    }
    if keep:
        log.result = result
        result["replay"] = log.to_json()
    return result


def run(plain: dict[str, Any], config: SimConfig) -> dict[str, Any]:
    jobs = [
        (
            i,
            config.seed,
            config.players,
            config.bot,
            config.max_rounds,
            i < config.keep_replays,
            config.teams,
            config.monster_players,
        )
        for i in range(config.games)
    ]
    results = parallel_map(play_one, jobs, config.jobs, _init_worker, (plain,))
    return {"config": config.__dict__, "report": report(results, config), "games": results}


def _rate(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def report(results: list[dict[str, Any]], config: SimConfig) -> dict[str, Any]:
    """Win rates, lengths, deaths, treasure, monsters and Ludii-style balance metrics."""
    n = len(results)
    wins_char: Counter = Counter()
    plays_char: Counter = Counter()
    wins_seat: Counter = Counter()
    causes: Counter = Counter()
    endings: Counter = Counter(r["ended_by"] for r in results)
    met: Counter = Counter()
    killed: Counter = Counter()
    treasure_char: Counter = Counter()
    for r in results:
        for h in r["heroes"]:
            plays_char[h["character"]] += 1
            treasure_char[h["character"]] += h["treasures"]
            met.update(h["met"])
            killed.update(h["kills"])
            if not h["alive"]:
                causes[_cause(h["cause"])] += 1
            if h["seat"] in r["winners"]:
                wins_char[h["character"]] += 1
                wins_seat[h["seat"]] += 1
    seat_rates = [_rate(wins_seat[s], n) for s in range(config.players)]
    decided = sum(1 for r in results if r["winners"])
    decisions = sum(r["decisions"] for r in results)
    return {
        "games": n,
        "players": config.players,
        "win_rate_by_character": {
            c: _rate(wins_char[c], plays_char[c]) for c in sorted(plays_char)
        },
        "win_rate_by_seat": {str(s): seat_rates[s] for s in range(config.players)},
        "length": {
            "mean_rounds": round(sum(r["rounds"] for r in results) / n, 2) if n else 0,
            "min_rounds": min((r["rounds"] for r in results), default=0),
            "max_rounds": max((r["rounds"] for r in results), default=0),
        },
        "endings": dict(sorted(endings.items())),
        "turn_bound_games": endings.get("turn-bound", 0),
        "causes_of_death": dict(causes.most_common()),
        "treasure_per_hero_by_character": {
            c: round(treasure_char[c] / plays_char[c], 2) for c in sorted(plays_char)
        },
        "mean_treasure_per_hero": round(
            sum(treasure_char.values()) / max(1, sum(plays_char.values())), 2
        ),
        "monsters_met": dict(sorted(met.items())),
        "monsters_killed": dict(sorted(killed.items())),
        "metrics": {
            "balance": round(1 - (max(seat_rates) - min(seat_rates)), 4) if seat_rates else 1.0,
            "completion": _rate(sum(1 for r in results if r["ended_by"] != "turn-bound"), n),
            "decisiveness": _rate(decided, n),
            "duration": round(sum(r["rounds"] for r in results) / n, 2) if n else 0,
            "branching_factor": round(sum(r["branching"] for r in results) / decisions, 2)
            if decisions
            else 0,
        },
    }


def _cause(cause: str) -> str:
    if cause.startswith("killed by "):
        return cause
    if cause.startswith("poison ("):
        return "poison"
    if cause.startswith("hidden trap"):
        return "hidden trap"
    return cause


def render_text(full: dict[str, Any]) -> str:
    r = full["report"]
    c = full["config"]
    lines = [
        f"catacombs: {r['games']} games, {r['players']} players, bot {c['bot']}, seed {c['seed']}"
        f", turn bound {c['max_rounds']} rounds"
        + (", team markers" if c.get("teams") else "")
        + (", monster players" if c.get("monster_players") else ""),
        "",
        "win rate by character",
    ]
    lines += [f"  {k:<18} {v:7.1%}" for k, v in r["win_rate_by_character"].items()]
    lines.append("win rate by seat")
    lines += [f"  seat {k:<13} {v:7.1%}" for k, v in r["win_rate_by_seat"].items()]
    ln = r["length"]
    lines.append(
        f"game length (rounds): mean {ln['mean_rounds']}, min {ln['min_rounds']}, "
        f"max {ln['max_rounds']}"
    )
    lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in r["endings"].items()))
    lines.append(f"games hitting the turn bound: {r['turn_bound_games']}")
    lines.append("causes of death")
    lines += [f"  {k:<32} {v}" for k, v in r["causes_of_death"].items()]
    lines.append(f"treasure per hero: {r['mean_treasure_per_hero']}")
    lines += [f"  {k:<18} {v}" for k, v in r["treasure_per_hero_by_character"].items()]
    lines.append("monsters met / killed")
    for k in sorted(set(r["monsters_met"]) | set(r["monsters_killed"])):
        met, killed = r["monsters_met"].get(k, 0), r["monsters_killed"].get(k, 0)
        lines.append(f"  {k:<18} {met:6} / {killed}")
    m = r["metrics"]
    lines.append("metrics (Ludii style)")
    lines.append(f"  balance (1 - seat win-rate spread) {m['balance']}")
    lines.append(f"  completion (not at turn bound)     {m['completion']}")
    lines.append(f"  decisiveness (games with a winner) {m['decisiveness']}")
    lines.append(f"  duration (mean rounds)             {m['duration']}")
    lines.append(f"  branching factor (mean choices)    {m['branching_factor']}")
    return "\n".join(lines) + "\n"


def _bars(title: str, values: dict[str, float], percent: bool) -> str:
    width, row = 420, 22
    top = max(values.values(), default=1) or 1
    parts = [
        f"<h2>{html.escape(title)}</h2>",
        f'<svg width="{width + 200}" height="{row * len(values) + 10}">',
    ]
    for i, (k, v) in enumerate(values.items()):
        w = int(width * v / top)
        label = f"{v:.1%}" if percent else f"{v}"
        parts.append(f'<text x="0" y="{i * row + 15}" font-size="12">{html.escape(str(k))}</text>')
        parts.append(f'<rect x="130" y="{i * row + 3}" width="{w}" height="16" fill="#7a5230"/>')
        parts.append(f'<text x="{135 + w}" y="{i * row + 15}" font-size="12">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def render_html(full: dict[str, Any]) -> str:
    r = full["report"]
    body = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Catacombs simulation</title>",
        "<style>body{font-family:sans-serif;margin:2em}pre{background:#f4efe8;padding:1em}"
        "</style></head><body>",
        "<h1>Catacombs simulation</h1>",
        f"<pre>{html.escape(render_text(full))}</pre>",
        _bars("Win rate by character", r["win_rate_by_character"], True),
        _bars("Win rate by seat", r["win_rate_by_seat"], True),
        _bars("Causes of death", {k: float(v) for k, v in r["causes_of_death"].items()}, False),
        _bars("Game endings", {k: float(v) for k, v in r["endings"].items()}, False),
        _bars("Monsters killed", {k: float(v) for k, v in r["monsters_killed"].items()}, False),
        f"<h2>Raw report</h2><pre>{html.escape(json.dumps(r, indent=2))}</pre>",
        "</body></html>",
    ]
    return "\n".join(body) + "\n"


def verify_replay(plain: dict[str, Any], log: ReplayLog) -> list[str]:
    """Replay a log's actions on a fresh game; the differences in events (none when faithful)."""
    from engine.core.api import Action

    setup = log.setup
    game = Game(
        plain,
        players=log.players,
        seed=log.seed,
        max_rounds=setup.get("max_rounds", DEFAULT_MAX_ROUNDS),
        teams=bool(setup.get("teams", False)),
        monster_players=bool(setup.get("monster_players", False)),
    )
    state = game.new_initial_state()
    problems = []
    seen = len(state.events)
    for number, step in enumerate(log.steps):
        if step.get("action") is None:
            if state.events[:seen] != step.get("events", []):
                problems.append("setup events differ")
            continue
        state.apply(Action.from_json(step["action"]))
        if state.events[seen:] != step.get("events", []):
            problems.append(f"step {number}: events differ")
        seen = len(state.events)
    return problems
