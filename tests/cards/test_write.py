"""The writing stage: every file planned once, written as its own job, nothing left half-done."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.cards import BuildOptions, build, write
from pipeline.model import Model


def _hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_writer_that_fails_leaves_the_previous_files_and_no_staging(
        built: Path, mini_model: Model, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "out"
    build(mini_model, BuildOptions(out_root=out, cache_dir=tmp_path / "cache", langs=("ru",)))
    before = _hashes(out)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(write, "write_shop", broken)
    with pytest.raises(OSError, match="disk full"):  # the shop files are no longer cached
        build(mini_model, BuildOptions(out_root=out, cache_dir=tmp_path / "other",
                                       langs=("ru",)))
    assert _hashes(out) == before
    assert [p.name for p in out.iterdir()] == ["ru"]


def test_files_are_planned_heaviest_first(mini_model: Model, tmp_path: Path) -> None:
    """The weight of a file is what it places: sheets count placements, shop files pages."""
    from pipeline.cards.components import expand
    from pipeline.cards.formats import load_labels, load_profile
    from pipeline.cards.layout import layout
    from pipeline.cards.render import Rendered

    profile = load_profile(mini_model.pack)
    comps = expand(mini_model, profile, "ru", False, load_labels(mini_model.pack, "ru"))
    layouts = {fmt: layout(comps.of_format(fmt), profile.formats[fmt], profile.sheet,
                           duplex=True) for fmt in comps.formats()}
    rendered = {key: Rendered(key, f"art-{key}", "batch") for key in comps.faces}
    meta = write.PackMeta(mini_model.pack.id, dict(mini_model.pack.title),
                          mini_model.pack.source_language, "abc")
    plan = write.plan_files(meta, profile, "ru", comps, layouts, rendered,
                            BuildOptions(out_root=tmp_path, cache_dir=tmp_path))
    for file in plan.files:
        if file.kind == "shop":
            assert file.weight == sum(1 + (b is not None) for _, b in file.items)
            assert set(file.rendered) == {f for pair in file.items for f in pair if f}
        else:
            assert file.weight == sum(len(p.placements) for p in file.layout.pages)
    assert len({f.key for f in plan.files}) == len(plan.files)
