"""The dice dungeon's rulebook: Russian chapters with a complete English translation, no number
typed into the prose, every provisional decision flagged where players read it, and a PDF in
both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dd_support import PACK
from pypdf import PdfReader

from pipeline.cli import main
from pipeline.loader import load_yaml

RULES = PACK / "rules"
REF = re.compile(r"\{\{.*?\}\}|\{#[a-z0-9-]+\}")
LIST_MARK = re.compile(r"^\s*\d+\.\s")
SECTION = re.compile(r"\{#([a-z0-9-]+)\}")
DECISION = re.compile(r'decision\("([^"]+)"\)')


def _chapters(lang: str) -> list[Path]:
    return sorted((RULES / lang).glob("*.md"))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_number_is_typed_in_the_prose(lang: str) -> None:
    for path in _chapters(lang):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            bare = LIST_MARK.sub("", REF.sub("", line))
            assert not re.search(r"\d", bare), f"{path.name}:{n}: a typed number: {line!r}"


def test_the_translation_has_every_chapter_and_section() -> None:
    ru, en = _chapters("ru"), _chapters("en")
    assert [p.name for p in ru] == [p.name for p in en]
    for a, b in zip(ru, en, strict=True):
        ids = [SECTION.findall(p.read_text(encoding="utf-8")) for p in (a, b)]
        assert ids[0] == ids[1], a.name
        refs = [sorted(re.findall(r"\{\{.*?\}\}", p.read_text(encoding="utf-8"))) for p in (a, b)]
        assert len(refs[0]) == len(refs[1]), a.name


def test_every_provisional_decision_is_flagged_in_the_book() -> None:
    """Decisions that change how the game is played are marked where the rule is told."""
    flagged = set(DECISION.findall(" ".join(p.read_text(encoding="utf-8")
                                            for p in _chapters("ru"))))
    trace = [d for f in sorted(PACK.glob("trace*.yaml")) for d in load_yaml(f).data["decisions"]]
    playable = {d["id"] for d in trace if d["type"] == "provisional"}
    playable -= {"sheet-tracks", "turn-record"}  # the sheet's own size, printed on the sheet
    assert playable <= flagged, sorted(playable - flagged)


def test_the_book_is_written_in_both_languages(tmp_path: Path) -> None:
    assert main(["rulebook", "--pack", "dice-dungeon", "--lang", "all",
                 "--content", str(PACK.parent), "--out", str(tmp_path)]) == 0
    for lang, words in (("ru", ("Содержание", "Пример боя", "Указатель", "Словарь терминов")),
                        ("en", ("Contents", "A fight, step by step", "Index", "Glossary"))):
        reader = PdfReader(tmp_path / "dice-dungeon" / lang / "rulebook.pdf")
        text = "\n".join(page.extract_text() for page in reader.pages)
        for word in words:
            assert word in text, (lang, word)
        assert len(reader.pages) >= 12
