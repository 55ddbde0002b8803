"""The canonical pack's print profile: every printed entity becomes the right number of copies.

These tests stop before rendering (the full build is `make pnp` and bench/build_bench.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards.components import expand
from pipeline.cards.faces.spec import find
from pipeline.cards.formats import load_labels, load_profile
from pipeline.cards.layout import layout

CANONICAL = Path(__file__).resolve().parents[2] / "content" / "catacombs"


@pytest.fixture(scope="module")
def model():
    if not (CANONICAL / "pack.yaml").is_file():
        pytest.skip("no canonical content")
    from pipeline.stages import load_model

    return load_model(CANONICAL)


def test_profile_loads_and_every_layout_exists(model) -> None:
    profile = load_profile(model.pack)
    assert profile.kinds
    for spec in profile.kinds:
        assert find(spec.template, model.pack.root) is not None, spec.kind
        if spec.back:
            assert find(f"backs/{spec.back}", model.pack.root) is not None, spec.kind
        for v in spec.variants:
            assert v.format is None or v.format in profile.formats


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_components_agree_with_content_counts(model, lang: str) -> None:
    profile = load_profile(model.pack)
    components = expand(model, profile, lang, False, load_labels(model.pack, lang))
    printed = {spec.kind for spec in profile.kinds}
    expected = {e.id: e.count for e in model.entities if e.kind in printed}
    assert components.counts() == expected
    for fmt in components.formats():
        lay = layout(components.of_format(fmt), profile.formats[fmt], profile.sheet, True)
        placed = sum(len(p.placements) for p in lay.pages if p.side == "front")
        assert placed == len(components.of_format(fmt))
