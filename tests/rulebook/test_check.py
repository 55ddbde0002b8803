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


def test_dangling_data_reference_fails_with_markdown_place(
        pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "ru" / "07-monsters.md"
    line, col = _append(md, 'Скорость зомби — {{ stat("zombie", "stats.sped") }} клетки.')
    code, out = _check(pack_copy, capsys)
    assert code == 1
    hits = [o for o in out if "error[rulebook-ref]" in o]
    assert len(hits) == 1
    assert hits[0].startswith(f"{md}:{line}:{col}: error[rulebook-ref]: ")
    assert "stats.sped" in hits[0]
    hint = out[out.index(hits[0]) + 1]
    assert "did you mean 'stats.speed'" in hint


def test_unknown_entity_fails(pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "en" / "03-play.md"
    line, col = _append(md, 'Tiny {{ monster_block("zombi") }}')
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any(o.startswith(f"{md}:{line}:{col}: error[rulebook-ref]: ") and "zombi" in o
               for o in out)


def test_dangling_cross_reference_fails(pack_copy: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "ru" / "02-setup.md"
    line, col = _append(md, 'Подробнее — {{ see("no-such-section") }}.')
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any(o.startswith(f"{md}:{line}:{col}: error[rulebook-ref]: ")
               and "no-such-section" in o for o in out)


def test_broken_reference_syntax_fails(pack_copy: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    md = pack_copy / "rules" / "en" / "01-story.md"
    line, col = _append(md, "Broken {{ stat(zombie) }} and {% if x %}")
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any(o.startswith(f"{md}:{line}:{col}: error[rulebook-syntax]") for o in out)
    stray_col = "Broken {{ stat(zombie) }} and {% if x %}".index("{%") + 1
    assert any(o.startswith(f"{md}:{line}:{stray_col}: error[rulebook-syntax]: stray '{{%'")
               for o in out)


def test_placeholder_surviving_into_output_fails(pack_copy: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = pack_copy / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Ходячие мертвецы", "Ходячие {{ мертвецы }}", 1),
                    encoding="utf-8")
    code, out = _check(pack_copy, capsys)
    assert code == 1
    assert any("error[rulebook-placeholder]" in o and "ru" in o for o in out)


def test_unexplained_printed_kind_is_a_warning(pack_copy: Path) -> None:
    model = load_model(pack_copy)
    printed = sorted(model.pack.print_profile.get("components", {}))
    assert "monster" in printed
    books = bk.books_for(pack_copy, ["ru"])
    assert bk.validate(model, books["ru"]) == []
    assert "monster" in books["ru"].explained
    assert [d for d in plugin.coverage(model, books) if "'monster'" in d.message] == []
    books["ru"].explained.discard("monster")  # as if the book never showed a monster
    found = [d for d in plugin.coverage(model, books) if "'monster'" in d.message]
    assert len(found) == 1
    assert found[0].severity == "warning" and found[0].code == "rulebook-coverage"
    assert found[0].span.file.endswith("pack.yaml")
