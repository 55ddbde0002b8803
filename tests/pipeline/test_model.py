"""The model's dotted paths: digits index lists but name mapping keys (`by_players.1`)."""

from __future__ import annotations

from pipeline.loader import load_bytes
from pipeline.model import Entity, freeze, lookup, real_path, thaw

DATA = {"by_players": {"1": 4, "7-8": 8}, "rows": [{"roll": "2-3"}, {"roll": "4"}]}


def test_real_path_follows_the_container_types() -> None:
    assert real_path(DATA, "by_players.1") == ("by_players", "1")
    assert real_path(DATA, "rows.1.roll") == ("rows", 1, "roll")
    assert real_path(DATA, "rows.2") is None
    assert real_path(DATA, "by_players.2") is None
    assert real_path(DATA, "") == ()


def test_lookup_reads_frozen_and_plain_data() -> None:
    frozen = freeze(DATA)
    assert lookup(frozen, "by_players.1") == 4 == lookup(DATA, "by_players.1")
    assert lookup(frozen, "rows.0.roll") == "2-3"
    assert lookup(frozen, "rows.9.roll", "none") == "none"
    assert thaw(frozen) == DATA


def test_entity_locates_digit_keys_at_their_own_line() -> None:
    text = "- id: zombie\n  by_players:\n    1: 4\n    7-8: 8\n"
    source = load_bytes(text.encode(), "m.yaml")
    entity = Entity("zombie", "monster", freeze(source.data[0]), source, (0,))
    assert entity.get("by_players.1") == 4
    assert str(entity.locate("by_players.1")) == "m.yaml:3:8"
    assert str(entity.locate("by_players.7-8")) == "m.yaml:4:10"
    # a missing key falls back to its nearest existing ancestor (the mapping starts at 3:5)
    assert str(entity.locate("by_players.9")) == "m.yaml:3:5"


def test_a_loaded_model_pickles_whole_and_stays_read_only() -> None:
    """`relic build` loads the model in one process and builds in another."""
    import pickle
    from pathlib import Path
    from types import MappingProxyType

    import pytest

    from pipeline.stages import load_model

    model = load_model(Path(__file__).resolve().parents[2] / "content" / "catacombs")
    copy = pickle.loads(pickle.dumps(model, protocol=5))
    assert [e.id for e in copy.entities] == [e.id for e in model.entities]
    assert [thaw(e.data) for e in copy.entities] == [thaw(e.data) for e in model.entities]
    assert thaw(copy.pack.data) == thaw(model.pack.data)
    zombie = copy.by_id["zombie"]
    assert isinstance(zombie.data, MappingProxyType)
    assert zombie.locate("stats.health") == model.locate("zombie", "stats.health")
    assert zombie.source is copy.by_id["ghost"].source  # one file, one copy
    with pytest.raises(TypeError):
        zombie.data["stats"]["health"] = 1  # type: ignore[index]
