"""Shared helpers for the content-pack tests: the packs' folders and their resolved models."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.model import split_path
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
PACKS = ("tunnels", "dice-dungeon", "haunted-house")
MISSING = object()


@cache
def plain(pack: str) -> dict[str, Any]:
    """The pack's JSON export, loaded once per test process."""
    return load_model(CONTENT / pack).to_plain()


def entities(pack: str) -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in plain(pack)["entities"]}


def lookup(data: Any, dotted: str) -> Any:
    """The value at `rows.2.roll` in plain data, or MISSING."""
    value = data
    for part in split_path(dotted):
        if not _has(value, part):
            return MISSING
        value = value[part]
    return value


def _has(value: Any, part: str | int) -> bool:
    if isinstance(value, Mapping):
        return part in value
    return isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)


def fact(pack: str, entity_id: str, dotted: str) -> Any:
    """The value of one seed fact in the pack's export."""
    found = entities(pack).get(entity_id)
    assert found is not None, f"{pack}: no entity '{entity_id}'"
    value = lookup(found, dotted)
    assert value is not MISSING, f"{pack}: '{entity_id}' has no '{dotted}'"
    return value
