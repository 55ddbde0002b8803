"""What a build works out once per process: a language's face measures (`render.measures_of`)
and a folder's tree hash (`render.tree_hash`), each again when what it is made of changes."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from pipeline.cards import BuildOptions, prepare, render
from pipeline.model import Model


def _faces_and_settings(model: Model, cache: Path):
    print_set = prepare(model, BuildOptions(cache / "out", cache, langs=("ru",)))
    components = print_set.expanded["ru"]
    base = render.RenderSettings.of(print_set.profile, components, "ru",
                                    charset=print_set.charset,
                                    pack_root=str(model.pack.root.resolve()),
                                    cache_dir=str(cache.resolve()))
    return list(components.faces.values()), replace(base, salt=base.key())


def test_a_language_s_measures_are_read_once_a_process(mini_model: Model, tmp_path: Path,
                                                       monkeypatch) -> None:
    faces, settings = _faces_and_settings(mini_model, tmp_path / "cache")
    opened = []
    real = render.MeasureCache.__init__

    def counting(self, settings):
        opened.append(settings.salt)
        real(self, settings)

    monkeypatch.setattr(render.MeasureCache, "__init__", counting)
    first = render.measures_of(faces, settings)
    assert render.MeasureCache.path_of(settings).is_file()  # measured, and kept
    again = render.measures_of(faces, settings)
    assert again is first and len(opened) == 1
    render.measures_of(faces[1:], settings)  # other faces: read again
    assert len(opened) == 2
    assert set(first) == {f.key for f in faces}


def test_a_tree_hash_changes_with_a_file_and_only_then(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("one", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yaml").write_text("two", encoding="utf-8")
    first = render.tree_hash(tmp_path)
    assert render.tree_hash(tmp_path) == first
    (tmp_path / "sub" / "b.yaml").write_text("three", encoding="utf-8")
    changed = render.tree_hash(tmp_path)
    assert changed != first
    stat = (tmp_path / "sub" / "b.yaml").stat()
    (tmp_path / "sub" / "b.yaml").write_text("thre3", encoding="utf-8")  # same size,
    os.utime(tmp_path / "sub" / "b.yaml", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # later
    assert render.tree_hash(tmp_path) not in (first, changed)
