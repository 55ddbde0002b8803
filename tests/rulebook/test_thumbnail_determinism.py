"""Books with component pictures are byte-identical, wherever the pictures' files are."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from pipeline.rulebook import FilePictures, build_rulebook
from pipeline.stages import load_model

PACK = Path(__file__).resolve().parents[2] / "content" / "catacombs"


def _picture(folder: Path, colour: str) -> Path:
    folder.mkdir(parents=True)
    Image.new("RGB", (60, 84), colour).save(folder / "picture.png")
    return folder / "picture.png"


def test_two_builds_with_pictures_in_different_folders_are_identical(tmp_path: Path) -> None:
    model = load_model(PACK)
    monster = model.of_kind("monster")[0].id
    one = FilePictures({monster: _picture(tmp_path / "one", "red")})
    two = FilePictures({monster: _picture(tmp_path / "two", "red")})
    [a] = build_rulebook(model, "ru", tmp_path / "a", pictures=one,
                         cache_dir=tmp_path / "cache-a")
    [b] = build_rulebook(model, "ru", tmp_path / "b", pictures=two,
                         cache_dir=tmp_path / "cache-b")
    assert b"/Subtype /Image" in a.read_bytes()  # the picture is really in the book
    assert a.read_bytes() == b.read_bytes()
