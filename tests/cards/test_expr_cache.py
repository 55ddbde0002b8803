"""Layout templates and expressions kept in Jinja's bytecode cache (faces/expr.keep_compiled_in)
give what compiling them gives, errors included, and a later process compiles nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cards.faces import expr
from pipeline.cards.faces.expr import BindError, Scope

VALUES = {
    "entity": {"name": "Зомби", "stats": {"speed": 2, "health": 3}, "tags": ["undead", "slow"],
               "special": [{"text": "a"}, {"text": "b"}], "count": 4},
    "labels": {"speed": "Скорость"},
    "lang": "ru",
    "index": 2,
}
EXPRESSIONS = [
    "entity.stats.speed + entity.stats.health",
    "entity.stats.speed * 2 if entity.count > 3 else 0",
    "entity.tags | length",
    "entity.tags | join(', ')",
    "entity.missing",
    "entity.missing.deeper",
    "(entity.special | map(attribute='text') | list)[1:]",
    "entity.stats.items() | list | length",
    "[1, 2, 3][index]",
    "entity.stats.speed | signed",
    "-entity.stats.health | signed",
    "'x' ~ lang",
    "{'a': 1}.a",
]
TEMPLATES = [
    "{{ entity.name }} ({{ entity.stats.speed }})",
    "{% for t in entity.tags %}{{ t }}{% if not loop.last %}, {% endif %}{% endfor %}",
    "{{ labels.speed }}: {{ entity.stats.speed | signed }}",
    "{% if entity.missing %}yes{% else %}no{% endif %}",
    "{{ entity.name | upper }}",
    '{% import "macros.j2" as m %}{{ entity.name }}',  # a template layouts share
]
BROKEN = ["entity.stats.speed +", "a, b", "entity.name ) %}{% set x = 1", "{{ entity.name"]


@pytest.fixture
def fresh() -> Iterator[None]:
    """No bytecode cache and nothing compiled in this process, before and after."""
    saved = list(expr._COMPILED)
    env = expr.environment()
    saved_cache = env.bytecode_cache
    expr._COMPILED.clear()
    env.bytecode_cache = None
    _forget()
    yield
    expr._COMPILED[:] = saved
    env.bytecode_cache = saved_cache
    _forget()


def _forget() -> None:
    """As a new process would start: nothing compiled in memory (the templates Jinja loaded
    for them, `macros.j2`, neither)."""
    expr._template.cache_clear()
    expr._expression.cache_clear()
    if expr.environment().cache is not None:
        expr.environment().cache.clear()


def _results() -> list[object]:
    scope = Scope(VALUES, {"entity": ""})
    return [scope.eval(e) for e in EXPRESSIONS] + [scope.render(t) for t in TEMPLATES]


def _errors() -> list[str]:
    scope = Scope(VALUES, {"entity": ""})
    found = []
    for source in BROKEN:
        with pytest.raises(BindError) as caught:
            scope.render(source) if source.startswith("{{") else scope.eval(source)
        found.append(str(caught.value))
    return found


def test_cached_code_gives_what_compiling_gives(fresh, tmp_path: Path) -> None:
    plain = _results()
    assert plain[0] == 5 and plain[4] is None and plain[9] == "+2" and plain[10] == "\u22123"
    _forget()
    expr.keep_compiled_in(tmp_path / "jinja")
    compiled_now = _results()
    stored = sorted((tmp_path / "jinja").iterdir())
    # two are plain reads; `macros.j2`, imported by one, is kept too
    assert len(stored) == len(EXPRESSIONS) + len(TEMPLATES) - 2 + 1
    _forget()
    from_disk = _results()
    assert compiled_now == plain and from_disk == plain
    assert sorted((tmp_path / "jinja").iterdir()) == stored


def test_a_later_process_compiles_nothing(fresh, tmp_path: Path, monkeypatch) -> None:
    expr.keep_compiled_in(tmp_path / "jinja")
    expected = _results()
    _forget()

    def refuse(*args, **kwargs):
        raise AssertionError("compiled again")

    env = expr.environment()
    monkeypatch.setattr(env, "compile", refuse)
    monkeypatch.setattr(env, "compile_expression", refuse)
    assert _results() == expected


def test_broken_sources_fail_as_without_the_cache_and_are_not_kept(fresh, tmp_path: Path) -> None:
    plain = _errors()
    _forget()
    expr.keep_compiled_in(tmp_path / "jinja")
    assert _errors() == plain
    assert not list((tmp_path / "jinja").iterdir())
