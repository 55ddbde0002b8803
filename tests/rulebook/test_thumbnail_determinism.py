"""Books with component thumbnails are byte-identical, wherever the thumbnails were made."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from pipeline.rulebook import build_rulebook
from pipeline.stages import load_model

PACK = Path(__file__).resolve().parents[2] / "content" / "catacombs"


def _with_picture(folder: Path, entity_id: str, colour: str) -> Path:
    (folder / "png").mkdir(parents=True)
    Image.new("RGB", (60, 84), colour).save(folder / "png" / f"{entity_id}-1.png")
    return folder


def test_two_builds_with_thumbnails_in_different_folders_are_identical(tmp_path: Path) -> None:
    model = load_model(PACK)
    monster = model.of_kind("monster")[0].id
    first = _with_picture(tmp_path / "one" / "ru", monster, "red")
    second = _with_picture(tmp_path / "two" / "ru", monster, "red")
    [a] = build_rulebook(model, "ru", first)
    [b] = build_rulebook(model, "ru", second)
    assert b"/Subtype /Image" in a.read_bytes()  # the thumbnail is really in the book
    assert a.read_bytes() == b.read_bytes()
