"""`relic check` runs the rulebook plug-in: dangling references fail with a place in the .md."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.checks import rulebook as plugin
from pipeline.cli import main
from pipeline.rulebook import book as bk
from pipeline.stages import load_model


def _append(path: Path, line: str) -> tuple[int, int]:
    """Append a line; return the (line, column) of its `{{`."""
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    number = text.count("\n") + 1
    path.write_text(text + line + "\n", encoding="utf-8")
    return number, line.index("{{") + 1


def _check(pack: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["check", str(pack)])
    return code, capsys.readouterr().out.splitlines()


def test_the_real_book_has_no_rulebook_errors() -> None:
    model = load_model(Path(__file__).resolve().parents[2] / "content" / "catacombs")
    found = [d for d in plugin.check(model) if d.severity == "error"]
    assert found == []


def test_dangling_references_fail_relic_check_at_their_markdown_place(
        pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = pack_copy / "rules"
    data_md = rules / "ru" / "07-monsters.md"
    data = _append(data_md, 'Скорость зомби — {{ stat("zombie", "stats.sped") }} клетки.')
    entity_md = rules / "en" / "03-play.md"
    entity = _append(entity_md, 'Tiny {{ monster_block("zombi") }}')
    see_md = rules / "ru" / "02-setup.md"
    see = _append(see_md, 'Подробнее — {{ see("no-such-section") }}.')
    syntax_md = rules / "en" / "01-story.md"
    bad = "Broken {{ stat(zombie) }} and {% if x"
    syntax = _append(syntax_md, bad)

    code, out = _check(pack_copy, capsys)
    assert code == 1

    def at(md: Path, place: tuple[int, int], code: str) -> list[str]:
        return [o for o in out if o.startswith(f"{md}:{place[0]}:{place[1]}: error[{code}]: ")]

    hit = at(data_md, data, "rulebook-ref")
    assert len(hit) == 1 and "stats.sped" in hit[0]
    assert "did you mean 'stats.speed'" in out[out.index(hit[0]) + 1]
    assert len(at(entity_md, entity, "rulebook-ref")) == 1
    assert "no-such-section" in at(see_md, see, "rulebook-ref")[0]
    assert len(at(syntax_md, syntax, "rulebook-syntax")) == 1
    stray = (syntax[0], bad.index("{%") + 1)
    assert "stray '{%'" in at(syntax_md, stray, "rulebook-syntax")[0]
    assert len([o for o in out if "error[rulebook-" in o]) == 5


def test_placeholder_surviving_into_output_fails(pack_copy: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = pack_copy / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Оживших мертвецов", "Оживших {{ мертвецов }}", 1),
                    encoding="utf-8")
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any("error[rulebook-placeholder]" in o and "ru" in o for o in out)


def test_unexplained_printed_kind_is_a_warning(pack_copy: Path) -> None:
    model = load_model(pack_copy)
    printed = sorted(model.pack.print_profile.get("components", {}))
    assert "monster" in printed
    book = bk.books_for(pack_copy, ["ru"])["ru"]
    assert bk.validate(model, book) == []
    shown = bk.explained(model, book)
    assert "monster" in shown
    assert [d for d in plugin.coverage(model, shown, "ru") if "'monster'" in d.message] == []
    shown.discard("monster")  # as if the book never showed a monster
    found = [d for d in plugin.coverage(model, shown, "ru") if "'monster'" in d.message]
    assert len(found) == 1
    assert found[0].severity == "warning" and found[0].code == "rulebook-coverage"
    assert found[0].span.file.endswith("pack.yaml")


def test_chapter_that_is_not_utf8_is_reported(pack_copy: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "en" / "01-story.md"
    md.write_bytes(b"# Story\n\nCaf\xe9\n")
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any(o.startswith(f"{md}:1:1: error[rulebook-encoding]: not UTF-8") for o in out)


def test_a_character_the_books_fonts_lack_fails_check_at_its_place(
        pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "en" / "02-setup.md"
    text = md.read_text(encoding="utf-8").rstrip("\n") + "\n\nKeep smiling 😀 while you set up.\n"
    md.write_text(text, encoding="utf-8")
    line = text.count("\n")
    col = text.splitlines()[-1].index("😀") + 1
    code, out = _check(pack_copy, capsys)
    assert code == 1
    hits = [o for o in out if o.startswith(f"{md}:{line}:{col}: error[rulebook-glyph]: ")]
    assert len(hits) == 1 and "U+1F600" in hits[0] and "fallback font" in hits[0]


def test_the_box_contents_name_every_deck_and_match_the_printed_components(model) -> None:
    """Cards dealt in decks are listed deck by deck, and every count is what the card build
    prints (the components it expands from the model)."""
    from pipeline.cards.components import expand
    from pipeline.cards.formats import load_labels, load_profile
    from pipeline.rulebook.views import components_view

    groups = components_view(model, "en", None)
    decks = {e.get("deck") for kind in ("card", "item", "monster") for e in model.of_kind(kind)}
    names = {g["group"] for g in groups}
    assert {model.by_id[d].get("name")["en"] for d in decks} <= names
    assert not any(n.startswith("Other") for n in names)
    printed = expand(model, load_profile(model.pack), "en", False,
                     load_labels(model.pack, "en")).counts()
    assert sum(int(g["count"]) for g in groups) == sum(printed.values())
    by_name: dict[str, int] = {}
    for e in model.entities:
        if e.id in printed:
            name = (e.get("name") or e.get("title"))["en"]
            by_name[name] = by_name.get(name, 0) + printed[e.id]
    listed: dict[str, int] = {}
    for g in groups:
        for part in g["parts"]:
            listed[part["name"]] = listed.get(part["name"], 0) + int(part["count"])
    assert listed == by_name
