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
    """The weight of a file is what it places and the pages it writes: a shop file, one page
    per face, weighs more than the sheets that place the same faces nine to a page."""
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
    sheets: dict[str, int] = {}
    for file in plan.files:
        if file.kind == "shop":
            assert file.weight == 2 * sum(1 + (b is not None) for _, b in file.items)
            assert set(file.rendered) == {f for pair in file.items for f in pair if f}
        else:
            pages = file.layout.pages
            assert file.weight == sum(len(p.placements) for p in pages) + len(pages)
            sheets[file.name.split("/")[1].split("-a4")[0]] = file.weight
    compared = 0
    for file in plan.files:
        fmt = file.name.removeprefix("shop/").removesuffix(".pdf")
        if file.kind == "shop" and fmt in sheets and file.weight > 4:
            assert file.weight > sheets[fmt], fmt
            compared += 1
    assert compared
    assert len({f.key for f in plan.files}) == len(plan.files)


def test_writers_read_icons_from_the_cache_without_svglib(built: Path, mini_model: Model,
                                                          tmp_path: Path) -> None:
    """Once a build has drawn its icons, a build that must write every file again (its
    finished files gone from the cache) reads them from the cache: svglib is never imported,
    and the files are the same bytes."""
    import shutil
    import subprocess
    import sys

    from tests.cards.conftest import FIXTURE

    cache = tmp_path / "cache"
    build(mini_model, BuildOptions(out_root=tmp_path / "first", cache_dir=cache, png=True))
    assert list((cache / "icons").glob("*.ops"))
    shutil.rmtree(cache / "outputs")
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pipeline.cards import BuildOptions, build\n"
        "from pipeline.stages import load_model\n"
        f"build(load_model(Path({str(FIXTURE)!r})), BuildOptions(out_root=Path("
        f"{str(tmp_path / 'again')!r}), cache_dir=Path({str(cache)!r}), png=True, workers=2))\n"
        "print('svglib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], check=True)
    assert done.stdout.strip() == "False", done.stderr
    assert _hashes(tmp_path / "again") == _hashes(built)


def test_files_are_dealt_into_shares_of_about_equal_weight() -> None:
    from types import SimpleNamespace

    jobs = [(SimpleNamespace(weight=w), w) for w in (9, 7, 6, 5, 4, 1)]
    shares = write._shares(jobs, 2)
    assert [[w for _, w in share] for share in shares] == [[9, 5, 1], [7, 6, 4]]
    assert [len(s) for s in write._shares(jobs[:1], 2)] == [1, 0]


def test_the_drawn_hook_sees_every_face_in_the_cache_before_any_file_is_written(
        mini_model: Model, tmp_path: Path) -> None:
    """`build(drawn=...)` is called once every face is drawn and in the render cache (a book
    made beside the cards takes its pictures from there), before the writers start."""
    from dataclasses import replace

    from pipeline.cards import prepare
    from pipeline.cards.render import RenderSettings, lookup

    options = BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache",
                           langs=("ru",), workers=2)
    seen: list[tuple[int, int, bool]] = []

    def drawn() -> None:
        print_set = prepare(mini_model, options)
        components = print_set.expanded["ru"]
        base = RenderSettings.of(print_set.profile, components, "ru",
                                 charset=print_set.charset,
                                 pack_root=str(mini_model.pack.root.resolve()),
                                 cache_dir=str(options.cache_dir.resolve()), png=False)
        settings = replace(base, salt=base.key())
        faces = list(components.faces.values())
        found = sum(lookup(face, faces, settings) is not None for face in faces)
        seen.append((found, len(faces), (tmp_path / "out").exists()))

    build(mini_model, options, drawn=drawn)
    assert seen and seen[0][0] == seen[0][1] > 0, seen  # every face, from the cache
    assert seen == [(seen[0][0], seen[0][1], False)]  # once, and no file written yet
    assert (tmp_path / "out" / "ru").is_dir()


def _writers_job(weight: int, name: str):
    from types import SimpleNamespace

    return (SimpleNamespace(weight=weight), name)


def test_forked_writers_report_each_file_and_a_failure_ends_the_run(monkeypatch) -> None:
    """The second share is written in a forked process (it has its files from the fork); what
    it wrote comes back through its pipe, and its error ends the run as an error."""
    import os

    import pytest

    def fake_write(job):
        if job[1] == "boom":
            raise ValueError("no room on the sheet")
        if job[1] == "die":
            os._exit(3)
        return f"{job[1]} by {'parent' if os.getpid() == parent else 'child'}"

    parent = os.getpid()
    monkeypatch.setattr(write, "_write_file", fake_write)
    done = list(write._run([_writers_job(9, "a"), _writers_job(7, "b"), _writers_job(1, "c")], 2))
    assert sorted(done) == ["a by parent", "b by child", "c by child"]
    with pytest.raises(RuntimeError, match="ValueError: no room on the sheet"):
        list(write._run([_writers_job(9, "a"), _writers_job(7, "boom")], 2))
    with pytest.raises(RuntimeError, match="exit code 3"):
        list(write._run([_writers_job(9, "a"), _writers_job(7, "die")], 2))
