"""The cache of checked layouts gives a layout back as written (pipeline/cards/faces/spec)."""

from __future__ import annotations

from pathlib import Path

from pipeline.cards import formats
from pipeline.cards.faces import spec

LAYOUT = """\
let:
  zeta: "entity.hits"
  alpha: "zeta * 2"
elements:
  - {type: rect, fill: frame, bleed: true}
"""


def test_let_keeps_its_written_order_through_the_cache(tmp_path: Path, monkeypatch) -> None:
    """A `let` may read the names above it, so their order is part of the layout: the checked
    copy a later process reads from the cache must not sort them (it once did, and every
    tunnels warrior card failed with 'ChainableUndefined' ... integer)."""
    pack = tmp_path / "pack"
    (pack / "print" / "layouts").mkdir(parents=True)
    (pack / "print" / "layouts" / "ordered.yaml").write_text(LAYOUT, encoding="utf-8")
    monkeypatch.setitem(spec.VALIDATED, "dir", tmp_path / "cache")
    first = spec.load_layout("ordered", pack)
    assert list(first.let) == ["zeta", "alpha"]
    [entry] = (tmp_path / "cache" / "layouts").iterdir()  # written by the first load
    spec._load.cache_clear()  # a later process: the layout comes from the cache entry
    again = spec.load_layout("ordered", pack)
    assert list(again.let) == ["zeta", "alpha"]
    assert entry in formats.ENTRIES  # the checked copies' home
