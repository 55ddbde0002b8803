"""The mixed-script check (pipeline/checks/mixed_script.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.checks import mixed_script
from pipeline.checks.mixed_script import foreign_words
from pipeline.stages import analyze, find_packs

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
HINT = (
    "translate it, or, if it is a proper name or a symbol, list it under "
    "`foreign_words: {ru: [...]}` in pack.yaml"
)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Diagnostics name files relative to the working folder."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    pack = tmp_path / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", pack, symlinks=False)
    return pack


def mixed(pack: Path) -> list[str]:
    return [d.text() for d in analyze(pack).diagnostics if d.code == "mixed-script"]


def located(pack: Path) -> list[tuple[str, int, int, str]]:
    return sorted(
        (Path(d.span.file).name, d.span.line, d.span.col, d.message)
        for d in analyze(pack).diagnostics
        if d.code == "mixed-script"
    )


def words(text: str, script: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    return [f.word for f in foreign_words(text, script, allowed)]


# ----- what counts as a foreign word ------------------------------------------------------------


def test_a_latin_word_in_cyrillic_text_and_a_cyrillic_word_in_latin_text() -> None:
    assert words("2 × intrigue, 1 × тайные знания", "Cyrillic") == ["intrigue"]
    assert words("The hero draws a карта", "Latin") == ["карта"]
    assert words("Зомби, the zombie", "Cyrillic") == ["the", "zombie"]
    assert words("Всё по-русски, с дефисами и «кавычками».", "Cyrillic") == []


def test_a_look_alike_letter_is_found_and_named() -> None:
    [found] = foreign_words("Cтатуя с секретом", "Cyrillic")  # a Latin C
    assert (found.word, found.script, found.offset, found.mixed) == ("Cтатуя", "Latin", 0, True)
    message, hint = mixed_script.describe([found], "ru")
    assert message == "Latin word 'Cтатуя' in the ru text"
    assert "look-alike letter" in hint


def test_symbols_are_not_words() -> None:
    text = "Бросьте 2d6, d6+1 или 3D6; :skull: и :antidote:, глава XIV, том IV, век X, 25 mm, 10 pt"
    assert words(text, "Cyrillic") == []


def test_single_letters_other_than_i_v_x_are_words() -> None:
    assert words("люк A, люк C, план B", "Cyrillic") == ["A", "C", "B"]


def test_the_allowed_words_are_whole_and_case_sensitive() -> None:
    allowed = frozenset({"A", "Wi-Fi"})
    assert words("люк A, сеть Wi-Fi, люк a, сеть Wi", "Cyrillic", allowed) == ["a", "Wi"]


# ----- the check on packs -----------------------------------------------------------------------


def test_the_fixture_gives_the_exact_diagnostic() -> None:
    assert mixed(FIXTURES / "invalid" / "mixed-script") == [
        "tests/fixtures/packs/invalid/mixed-script/lairs.yaml:3:14: warning[mixed-script]: "
        "name: Latin word 'den' in the ru text\n  hint: " + HINT
    ]


def test_a_cyrillic_word_in_english_is_found_at_its_string(mini: Path) -> None:
    lairs = mini / "lairs.yaml"
    lairs.write_text(lairs.read_text("utf-8").replace("en: Den}", "en: Den of the крыса}"), "utf-8")
    assert located(mini) == [("lairs.yaml", 3, 24, "name: Cyrillic word 'крыса' in the en text")]


def test_the_pack_may_allow_words(mini: Path) -> None:
    shutil.copy(FIXTURES / "invalid" / "mixed-script" / "lairs.yaml", mini / "lairs.yaml")
    assert len(mixed(mini)) == 1
    manifest = mini / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8") + "foreign_words: {ru: [den]}\n", "utf-8")
    assert mixed(mini) == []
    assert analyze(mini).diagnostics == []


def test_the_allow_list_is_checked_by_the_schema(mini: Path) -> None:
    manifest = mini / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8") + "foreign_words: {ru: den}\n", "utf-8")
    [diag] = analyze(mini).diagnostics
    assert (diag.code, diag.span.line) == ("schema-type", 7)


def test_the_manifest_and_print_labels_are_read(mini: Path) -> None:
    manifest = mini / "pack.yaml"
    manifest.write_text(
        manifest.read_text("utf-8").replace("{ru: Мини, en: Mini}", "{ru: Мини mini, en: Mini}"),
        "utf-8",
    )
    (mini / "print").mkdir()
    (mini / "print" / "labels.yaml").write_text(
        "labels:\n  intrigues: {ru: intrigue, en: intrigues}\n", "utf-8"
    )
    assert located(mini) == [
        ("labels.yaml", 2, 19, "labels.intrigues: Latin word 'intrigue' in the ru text"),
        ("pack.yaml", 2, 13, "title: Latin word 'mini' in the ru text"),
    ]


def test_the_project_captions_are_read_without_the_pack_list(
    mini: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = tmp_path / "labels.yaml"
    labels.write_text("labels:\n  intrigues: {ru: intrigue, en: intrigues}\n", "utf-8")
    monkeypatch.setattr(mixed_script, "PROJECT_LABELS", labels)
    manifest = mini / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8") + "foreign_words: {ru: [intrigue]}\n", "utf-8")
    assert located(mini) == [
        ("labels.yaml", 2, 19, "labels.intrigues: Latin word 'intrigue' in the ru text")
    ]


def test_chapters_are_read_without_references_and_glossary_translations(mini: Path) -> None:
    ru, en = mini / "rules" / "ru", mini / "rules" / "en"
    ru.mkdir(parents=True)
    en.mkdir()
    (ru / "01-play.md").write_text(
        '# Игра {#play-rules}\n\nКрыса {{ name("rat") }} бежит ([ссылка](https://x.org/a)) '
        "и бросает `d6`.\n\nПотом она делает skip и ещё раз skip.\n",
        "utf-8",
    )
    (ru / "glossary.md").write_text(
        "# Словарь {#glossary}\n\n- **Крыса** (rat) / **Нора** (den) — кто где живёт, den.\n",
        "utf-8",
    )
    (en / "01-play.md").write_text("# Play {#play-rules}\n\nThe rat runs to its нора.\n", "utf-8")
    assert located(mini) == [
        ("01-play.md", 3, 21, "Cyrillic word 'нора' in the en text"),
        ("01-play.md", 5, 18, "Latin words 'skip', 'skip' in the ru text"),
        ("glossary.md", 3, 53, "Latin word 'den' in the ru text"),
    ]


def test_the_content_packs_are_clean() -> None:
    """The Russian Demon and Ghost cards printed "intrigue" before the caption came from labels."""
    found = [text for pack in find_packs(ROOT / "content") for text in mixed(pack)]
    assert found == []
    labels = (ROOT / "templates" / "print" / "labels.yaml").read_text("utf-8")
    assert "intrigues: {ru: козни, en: intrigues}" in labels
    macros = (ROOT / "templates" / "layouts" / "macros.j2").read_text("utf-8")
    assert "labels.intrigues" in macros and '"intrigue"' not in macros
