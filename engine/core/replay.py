"""Replay logs: the game and engine version, the initial state, every action and who took it;
enough to replay exactly (`relic replay --verify` uses the game the log names)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core.api import Action


@dataclass
class ReplayLog:
    game: str
    players: int
    seed: int
    setup: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    engine: str = ""
    """The game's name and engine version that wrote the log ("catacombs 1.0")."""

    def record(self, player: int, action: Action, turn: int, note: str = "") -> None:
        self.steps.append(
            {"turn": turn, "player": player, "action": action.to_json(), "note": note}
        )

    def to_json(self) -> str:
        payload = {
            "format": "relic-replay/1",
            "game": self.game,
            "engine": self.engine,
            "players": self.players,
            "seed": self.seed,
            "setup": self.setup,
            "steps": self.steps,
            "result": self.result,
        }
        return json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ReplayLog:
        raw = json.loads(text)
        if raw.get("format") != "relic-replay/1":
            raise ValueError(f"not a relic replay log (format {raw.get('format')!r})")
        return cls(raw["game"], raw["players"], raw["seed"], raw["setup"], raw["steps"],
                   raw["result"], raw.get("engine", ""))
