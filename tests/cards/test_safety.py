"""Safety: nothing outside the project is fetched; templates escape; outputs are atomic."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.cards.render import Workers
from pipeline.cli import main
from pipeline.diagnostics import RelicError
from pipeline.stages import load_model
from tests.cards.conftest import FIXTURE, copy_pack

ROOT = Path(__file__).resolve().parents[2]
POSTER_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "relic://schemas/kinds/poster.json",
    "description": "A test kind with an image field.",
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "kind", "image"],
    "properties": {
        "id": {"$ref": "../defs.json#/definitions/id", "description": "Id."},
        "kind": {"const": "poster", "description": "Kind."},
        "image": {"type": "string", "description": "An image path (deliberately unchecked)."},
    },
}
BAD = ["../../etc/passwd", "file:///etc/passwd", "http://example.invalid/x.png"]


def _poster_pack(tmp_path: Path) -> Path:
    pack = copy_pack(tmp_path)
    kinds = pack / "schemas" / "kinds"
    kinds.mkdir(parents=True)
    (kinds / "poster.json").write_text(json.dumps(POSTER_SCHEMA))
    lines = [f"- id: poster-{i}\n  kind: poster\n  image: '{url}'\n" for i, url in enumerate(BAD)]
    (pack / "posters.yaml").write_text("\n".join(lines))
    return pack


def test_images_outside_the_project_fail_check_and_build(tmp_path: Path, capsys,
                                                         monkeypatch) -> None:
    pack = _poster_pack(tmp_path)
    fetched: list[str] = []
    monkeypatch.setattr("urllib.request.OpenerDirector.open",
                        lambda self, *a, **k: fetched.append(a) or None)
    assert main(["check", str(pack)]) == 1
    out = capsys.readouterr().out
    assert out.count("error[unsafe-asset]") == len(BAD)
    for i in range(len(BAD)):
        assert f"poster-{i}" in out
    code = main(["build", "--pack", "mini", "--content", str(pack.parent), "--out",
                 str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--quiet"])
    assert code == 1
    assert capsys.readouterr().err.count("error[unsafe-asset]") == len(BAD)
    assert not (tmp_path / "out").exists() and fetched == []


def _poster_layout_pack(tmp_path: Path) -> Path:
    """The poster pack, printing posters with an image element bound to their image field."""
    pack = _poster_pack(tmp_path)
    layouts = pack / "print" / "layouts"
    layouts.mkdir(parents=True)
    (layouts / "poster.yaml").write_text(
        "elements:\n  - {type: image, src: '{{ entity.image }}'}\n", encoding="utf-8")
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "  components:\n", "  components:\n    poster: {format: poker, template: poster}\n"),
        encoding="utf-8")
    return pack


def test_an_image_element_never_reads_outside_the_pack_and_assets(tmp_path: Path) -> None:
    """The renderer resolves an image path itself and refuses what is outside the pack and
    assets/ (the same rule as the asset check): one located error per poster, no file read."""
    import sys as _sys

    pack = _poster_layout_pack(tmp_path)
    opened: list[str] = []

    def audit(event: str, args: tuple) -> None:
        if event == "open" and isinstance(args[0], str) and "passwd" in args[0]:
            opened.append(args[0])

    _sys.addaudithook(audit)
    options = BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache",
                           langs=("ru",), workers=1)
    with pytest.raises(RelicError) as caught:
        build(load_model(pack), options)
    unsafe = [d for d in caught.value.diagnostics if d.code == "unsafe-asset"]
    assert sorted(d.message.split(":")[0] for d in unsafe) == [f"poster-{i}"
                                                               for i in range(len(BAD))]
    assert all(d.span.file.endswith("posters.yaml") and d.span.line > 1 for d in unsafe)
    assert opened == [] and not (tmp_path / "out").exists()


def test_markup_in_content_text_is_escaped(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    cards = pack / "cards.yaml"
    evil = '<img src="file:///etc/passwd"> <b>bold</b>'
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "Факелы гаснут. Брось :d6:.", evil.replace('"', '\\"')), encoding="utf-8")
    options = BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache",
                           langs=("ru",), png=False, workers=1)
    build(load_model(pack), options)
    text = "".join(p.extract_text() for p in
                   PdfReader(tmp_path / "out" / "ru" / "shop" / "poker.pdf").pages)
    text = " ".join(text.split())  # printed as it is, wherever the lines break
    assert '<img src="file:///etc/passwd">' in text and "<b>bold</b>" in text


def _hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_builds_are_byte_identical(built: Path, mini_model, tmp_path: Path) -> None:
    """A second cold build, with faces drawn in other batches (3 per batch, one process),
    gives the very same bytes; so does a warm build from the cache."""
    build(mini_model, BuildOptions(png=True, out_root=tmp_path / "again",
                                   cache_dir=tmp_path / "cache", workers=1, batch_size=3))
    assert _hashes(tmp_path / "again") == _hashes(built)
    build(mini_model, BuildOptions(png=True, out_root=tmp_path / "warm",
                                   cache_dir=tmp_path / "cache", workers=1))
    assert _hashes(tmp_path / "warm") == _hashes(built)


def test_workers_started_early_give_the_same_bytes_and_stop(built: Path, mini_model,
                                                            tmp_path: Path) -> None:
    """`relic build` hands the build its worker processes. A cold build (drawn on a pool of
    processes) and then a one-card edit (drawn in this process) give the very same files as
    drawing everything in this process, and the processes stop once drawing is over."""
    with Workers(2) as workers:
        build(mini_model, BuildOptions(png=True, out_root=tmp_path / "pool",
                                       cache_dir=tmp_path / "cache", workers=2,
                                       batch_size=3), workers=workers)
        assert not workers.running
    assert _hashes(tmp_path / "pool") == _hashes(built)
    pack = copy_pack(tmp_path)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Torches go out", "Lamps go out"),
                     encoding="utf-8")
    edited = load_model(pack)
    with Workers(2) as workers:
        result = build(edited, BuildOptions(png=True, out_root=tmp_path / "edit", workers=2,
                                            cache_dir=tmp_path / "cache"), workers=workers)
        assert not workers.running
    assert result.rendered == 1  # the English face of the draught card
    build(edited, BuildOptions(png=True, out_root=tmp_path / "here",
                               cache_dir=tmp_path / "cache-here", workers=1))
    assert _hashes(tmp_path / "edit") == _hashes(tmp_path / "here")
    assert _hashes(tmp_path / "edit") != _hashes(tmp_path / "pool")


def test_killing_a_build_leaves_the_previous_outputs_intact(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    subprocess.run(["cp", "-r", str(built), str(out)], check=True)
    before = _hashes(out)
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--pack", "mini", "--content",
           str(FIXTURE.parent), "--out", str(out), "--cache", str(tmp_path / "cold-cache"),
           "--quiet", "--jobs", "1", "--proof"]
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 60
    # wait until the build is really under way: faces are being written to its cache
    while time.monotonic() < deadline and not list((tmp_path / "cold-cache").rglob("*.json")):
        time.sleep(0.01)
    assert proc.poll() is None, "the build finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    # a half-written staging folder may be left beside them (hidden; the next build drops it)
    assert {k: v for k, v in _hashes(out).items() if not k.startswith(".")} == before
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["en", "ru"]


def test_pngs_added_later_from_the_cache_are_the_same(built: Path, mini_model,
                                                       tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    build(mini_model, BuildOptions(out_root=tmp_path / "a", cache_dir=cache, png=False,
                                   langs=("ru",)))
    assert not (tmp_path / "a" / "ru" / "png").exists()
    build(mini_model, BuildOptions(out_root=tmp_path / "b", cache_dir=cache, langs=("ru",),
                                   png=True))
    pngs = {k: v for k, v in _hashes(built / "ru").items() if k.startswith("png/")}
    assert pngs and {k: v for k, v in _hashes(tmp_path / "b" / "ru").items()
                     if k.startswith("png/")} == pngs


def test_cli_build_gives_the_same_files(built: Path, tmp_path: Path, capsys) -> None:
    code = main(["build", "--pack", "mini", "--content", str(FIXTURE.parent), "--lang", "ru",
                 "--out", str(tmp_path / "out"), "--cache", str(built.parent / "cache"),
                 "--png"])
    assert code == 0
    err = capsys.readouterr().err
    assert "built" in err and "0 rendered" in err  # everything came from the cache
    assert _hashes(tmp_path / "out" / "ru") == _hashes(built / "ru")


def test_a_warm_build_in_a_fresh_process_needs_no_drawing(built: Path, tmp_path: Path) -> None:
    """Everything comes from the cache, and a new process still writes the same files (its
    fonts are registered though it draws nothing)."""
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--pack", "mini", "--content",
           str(FIXTURE.parent), "--lang", "ru", "--out", str(tmp_path / "out"), "--cache",
           str(built.parent / "cache"), "--png", "--no-rulebook"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "0 rendered" in done.stderr
    assert _hashes(tmp_path / "out" / "ru") == _hashes(built / "ru")


def test_bidi_isolates_and_zero_width_characters_print_nothing(tmp_path: Path) -> None:
    """Text pasted from a localisation tool (bidi isolates around a name, a zero-width space,
    a soft hyphen) builds: those characters need no glyph, are never drawn, and the printed
    text reads as the plain words."""
    pack = copy_pack(tmp_path)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "name: {ru: Сквозняк, en: Draught}",
        'name: {ru: "\\u2068Сквоз\\u00adняк\\u2069", en: "\\u2066Draught\\u200b\\u2069"}'),
        encoding="utf-8")
    model = load_model(pack)
    from pipeline.cards import preflight

    assert preflight(model) == []
    build(model, BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache",
                              workers=1))
    for lang, word in (("ru", "Сквозняк"), ("en", "Draught")):
        text = "".join(p.extract_text() for p in
                       PdfReader(tmp_path / "out" / lang / "shop" / "poker.pdf").pages)
        assert word in text
        assert not set(text) & {"\u2066", "\u2068", "\u2069", "\u200b", "\u00ad"}
