"""The layout renderer's core: one size per deck, maximal fitting, hyphenation rules, the field a
binding prints, and the fast path for plain field reads agreeing with Jinja."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cards.faces import FaceMeasure, choose_sizes
from pipeline.cards.faces.expr import Scope
from pipeline.cards.faces.text import Para, font_set, parse, set_text, wrap
from pipeline.cards.units import PT_PER_MM

FONTS = font_set((("body", "DejaVu Sans"), ("narrow", "DejaVu Sans Condensed"),
                  ("title", "DejaVu Serif")))
BODY = FONTS.name("body", False)


def _measure(group: str, best: float | None, fit: str = "deck", floor: float | None = None):
    return FaceMeasure(group, {"body": best}, {"body": fit},
                       {"body": floor} if floor is not None else {})


def test_a_deck_shares_the_largest_size_at_which_all_its_faces_fit() -> None:
    sizes = choose_sizes({"a": _measure("deck", 10.5), "b": _measure("deck", 9.25),
                          "c": _measure("deck", 10.0), "other": _measure("other", 10.5)})
    assert {k: v["body"] for k, v in sizes.items()} == {"a": 9.25, "b": 9.25, "c": 9.25,
                                                          "other": 10.5}


def test_a_face_that_needs_less_than_the_floor_goes_smaller_alone() -> None:
    sizes = choose_sizes({"a": _measure("deck", 10.5, floor=8.5),
                          "b": _measure("deck", 9.0, floor=8.5),
                          "long": _measure("deck", 7.25, floor=8.5)})
    assert {k: v["body"] for k, v in sizes.items()} == {"a": 9.0, "b": 9.0, "long": 7.25}


def test_shrink_boxes_keep_their_own_size() -> None:
    sizes = choose_sizes({"a": _measure("deck", 10.5, fit="shrink"),
                          "b": _measure("deck", 8.0, fit="shrink")})
    assert {k: v["body"] for k, v in sizes.items()} == {"a": 10.5, "b": 8.0}


def _paras(text: str) -> list[Para]:
    return [Para(tuple(words), 1.0, "left", "ink", False, 0.0, BODY)
            for words in parse(text, BODY, frozenset({"skull"}), "ink")]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(["the", "hero", "opens", "a", "tile", "and", "finds", "gold",
                                 "monster", ":skull:", "corridor"]), min_size=1, max_size=60),
       st.floats(min_value=20, max_value=60), st.floats(min_value=10, max_value=80))
def test_text_set_at_a_size_that_fits_fits_its_box(words, width_mm, height_mm) -> None:
    """Whatever fits is really inside the box: every line no wider than the box, all lines
    no taller than it."""
    paras = _paras(" ".join(words))
    width, height = width_mm * PT_PER_MM, height_mm * PT_PER_MM
    setting = set_text(paras, width, height, 9.0, 1.2, None, 1.15, False, "en")
    if setting.fits:
        assert setting.height <= height + 0.01
        assert all(line.width <= width + 0.01 for _, lines in setting.paras for line in lines)


def test_hyphenation_breaks_long_words_only_when_asked() -> None:
    text = "Достопримечательность катакомб неожиданно воспользовалась неосторожностью"
    [para] = _paras(text)
    narrow = 28 * PT_PER_MM
    plain, _ = wrap(para, narrow, 9.0, 1.15, False, "ru")
    broken, _ = wrap(para, narrow, 9.0, 1.15, True, "ru")
    assert not any(line.hyphen for line in plain)
    assert any(line.hyphen for line in broken)
    assert all(line.width <= narrow + 0.01 for line in broken)


@pytest.mark.parametrize(("fmt", "hyphenates"), [("token-round", False),
                                                 ("token-round-large", False), ("poker", True)])
def test_small_round_components_are_never_hyphenated(fmt: str, hyphenates: bool) -> None:
    from pipeline.cards.faces import face_spec
    from pipeline.cards.formats import Format

    sizes = {"token-round": (25, 25, "round"), "token-round-large": (32, 32, "round"),
             "poker": (63.5, 88.9, "rect")}
    w, h, shape = sizes[fmt]
    spec = face_spec({}, Format(fmt, fmt, w, h, 3, shape), {"body": "DejaVu Sans"}, 7.0, "ru",
                     ".")
    assert spec.hyphenate is hyphenates


def test_bidi_isolates_are_dropped_before_measuring() -> None:
    [isolated] = _paras("\u2068Zombie\u2069")
    [plain] = _paras("Zombie")
    assert isolated.widths == plain.widths


SCOPE = Scope({"entity": {"name": "Rat", "special": [{"text": "A"}, {"text": "B"}],
                          "stats": {"speed": 3}, "empty": None},
               "labels": {"speed": "Speed"}}, {"entity": ""})


def test_a_binding_names_the_field_it_prints() -> None:
    assert SCOPE.field("{{ entity.name }}") == "name"
    assert SCOPE.field("{{ labels[x] }}: {{ entity.stats.speed }}") == "stats.speed"
    assert SCOPE.field("entity.special", expression=True) == "special"
    item = SCOPE.child("rule", {"text": "B"}, 1, "special.1")
    assert item.field("{{ rule.text }}") == "special.1.text"


@pytest.mark.parametrize("source", ["{{ entity.name }}", "{{ entity.stats.speed }}",
                                    "{{ entity.missing }}", "{{ entity.empty }}",
                                    "{{ labels.speed }}", "{{ nothing.at.all }}"])
def test_plain_reads_agree_with_jinja(source: str) -> None:
    from pipeline.cards.faces.expr import _template

    assert SCOPE.render(source) == _template(source).render(SCOPE.values)


@pytest.mark.parametrize("source", ["entity.stats", "entity.missing", "entity.empty",
                                    "entity.special", "nothing.here", "entity.name.deeper"])
def test_plain_expressions_agree_with_jinja(source: str) -> None:
    from pipeline.cards.faces.expr import _expression

    assert SCOPE.eval(source) == _expression(source)(**SCOPE.values)
