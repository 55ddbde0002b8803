"""What a simulated tunnels game tells the report (filled in below)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.game import GameSummary, Section
from engine.games.tunnels.state import TunnelsState


def details(state: TunnelsState) -> dict[str, Any]:
    return {"scenario": state.scenario.id, "stats": dict(sorted(state.stats.items()))}


def report_sections(games: Sequence[GameSummary]) -> list[Section]:
    return []
