"""`{{ legend("entity") }}`: an icon legend in the book, from the same rows the player aid prints
(pipeline/rulebook/references.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.rulebook import prepare
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_book_shows_every_icon_of_the_player_aid_with_its_caption(lang: str) -> None:
    model = load_model(ROOT / "content" / "catacombs")
    rows = model.by_id["player-aid"].get("legend")
    html = prepare(model, lang).whole()
    [block] = re.findall(r"<table class=\"icon-legend\">(.*?)</table>", html, flags=re.S)
    shown = re.findall(r'<img src="file://[^"]*/assets/icons/([\w-]+)\.svg" alt="">'
                       r"<span>([^<]*)</span>", block)
    assert shown == [(row["icon"], row["text"][lang]) for row in rows]
    assert len(shown) >= 30  # every icon of the tiles, cards and tokens


def test_an_icon_the_project_lacks_fails_check_at_the_reference(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "catacombs"
    shutil.copytree(ROOT / "content" / "catacombs", pack)
    components = pack / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("{icon: monster, text:", "{icon: monstr, text:", 1),
                          encoding="utf-8")
    md = pack / "rules" / "en" / "10-reference.md"
    lines = md.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if t.startswith('{{ legend("player-aid") }}'))
    assert main(["check", str(pack)]) == 1
    out = capsys.readouterr().out.splitlines()
    hit = [o for o in out if o.startswith(f"{md}:{line}:1: error[rulebook-ref]: ")]
    assert len(hit) == 1 and "no icon 'monstr'" in hit[0], out
    assert "did you mean 'monster'" in out[out.index(hit[0]) + 1]
