"""The loader: plain data with positions, and every bound refused with a located diagnostic."""

from __future__ import annotations

import io
import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from pipeline.diagnostics import RelicError
from pipeline.loader import MAX_ALIAS_EXPANSION, MAX_DEPTH, load_bytes, resolve_plain


def load(text: str):
    return load_bytes(text.encode("utf-8"), "t.yaml")


def only_diagnostic(text: str | bytes):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(RelicError) as info:
        load_bytes(raw, "t.yaml")
    [diag] = info.value.diagnostics
    return diag


def test_values_keep_file_line_and_column() -> None:
    f = load("- id: rat\n  stats:\n    speed: 2\n  tags: [a, b]\n")
    assert f.data == [{"id": "rat", "stats": {"speed": 2}, "tags": ["a", "b"]}]
    assert f.positions[(0, "stats", "speed")] == (3, 12)
    assert f.positions[(0, "tags", 1)] == (4, 13)
    assert str(f.span((0, "stats", "speed"))) == "t.yaml:3:12"
    assert str(f.span((0, "missing", "deeper"))) == "t.yaml:1:3"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("-3", -3),
        ("0x1f", 31),
        ("1.5", 1.5),
        ("true", True),
        ("yes", "yes"),
        ("no", "no"),
        ("~", None),
        ("null", None),
        ("1-3", "1-3"),
        ("12+", "12+"),
        ("2d6", "2d6"),
    ],
)
def test_yaml_1_2_core_resolution(text: str, value) -> None:
    assert resolve_plain(text) == value
    assert type(resolve_plain(text)) is type(value)


def test_quoted_scalars_stay_strings() -> None:
    assert load("a: '5'\nb: \"true\"\n").data == {"a": "5", "b": "true"}


def test_special_floats() -> None:
    data = load("a: .inf\nb: -.inf\nc: .nan\n").data
    assert data["a"] == math.inf and data["b"] == -math.inf and math.isnan(data["c"])


def test_duplicate_key_points_at_the_second_key() -> None:
    diag = only_diagnostic("a: 1\nb: 2\na: 3\n")
    assert (diag.code, diag.span.line, diag.span.col) == ("duplicate-key", 3, 1)
    assert "line 1" in diag.hint


@pytest.mark.parametrize(
    "text",
    [
        "a: !thing 1\n",
        "a: !!python/object:os.system x\n",
        "a: !!binary aGk=\n",
        "a: !<tag:example.com:x> 1\n",
    ],
)
def test_custom_tags_are_refused(text: str) -> None:
    diag = only_diagnostic(text)
    assert (diag.code, diag.span.line, diag.span.col) == ("custom-tag", 1, 4)


def test_standard_tags_are_accepted() -> None:
    assert load("a: !!str 5\nb: !!int '7'\n").data == {"a": "5", "b": 7}


def test_not_utf8_points_at_the_bad_byte() -> None:
    diag = only_diagnostic(b"a: 1\nname: caf\xe9\n")
    assert (diag.code, diag.span.line, diag.span.col) == ("not-utf8", 2, 10)


def test_utf8_bom_is_accepted() -> None:
    assert load_bytes(b"\xef\xbb\xbfa: 1\n").data == {"a": 1}


def test_billion_laughs_fails_fast() -> None:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 10)]
    diag = only_diagnostic("\n".join(lines) + "\n")
    assert diag.code == "alias-limit"
    assert diag.span.line <= 5  # refused as soon as the budget is spent, not at the end


def test_aliases_within_budget_are_shared_values() -> None:
    f = load("base: &b {speed: 2}\ncopy: *b\n")
    assert f.data["copy"] == {"speed": 2}
    assert MAX_ALIAS_EXPANSION >= 1000


@pytest.mark.parametrize(
    "text", ["[" * 200_000, "- " * 100_000 + "x", "{a: " * 5000 + "1" + "}" * 5000]
)
def test_deep_nesting_is_refused_without_crashing(text: str) -> None:
    diag = only_diagnostic(text)
    assert diag.code in ("nesting-limit", "yaml-syntax")


def test_nesting_limit_is_exact() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load(ok).data is not None
    diag = only_diagnostic("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert (diag.code, diag.span.col) == ("nesting-limit", MAX_DEPTH + 1)


def test_collection_keys_are_refused() -> None:
    assert only_diagnostic("? [a, b]\n: 1\n").code == "complex-key"


def test_syntax_error_is_located() -> None:
    diag = only_diagnostic("a: [1, 2\nb: 3\n")
    assert diag.code == "yaml-syntax" and diag.span.line == 2


@pytest.mark.parametrize(
    ("text", "line", "col", "char"),
    [
        ("a: 1\nb: x\x00y\n", 2, 5, "U+0000 (NUL)"),
        ("a: 1\nb: 'x\x01'\n", 2, 6, "U+0001"),
        ("й: 1\nжук: ёж\x1b[31m\n", 2, 8, "U+001B (ESC)"),
        ("a: 1\r\nb: 2\r\nc: \x7f\n", 3, 4, "U+007F (DEL)"),
        ("a: [1, 2, {c: \x9b}]\n", 1, 15, "U+009B"),
        ("a: 1\n\n\n   \x08\n", 4, 4, "U+0008 (backspace)"),
    ],
)
def test_control_characters_are_located_where_they_are(text, line, col, char) -> None:
    diag = only_diagnostic(text)
    assert (diag.code, diag.span.line, diag.span.col) == ("control-character", line, col)
    assert diag.message.startswith(char)


def test_escaped_control_characters_in_double_quotes_are_text() -> None:
    assert load('a: "x\\x00y"\n').data == {"a": "x\x00y"}


@pytest.mark.parametrize(
    "value",
    ["9" * 4301, "-" + "9" * 5000, "0x" + "f" * 4000, "!!int '" + "7" * 4400 + "'"],
)
def test_integers_too_long_to_read_are_a_located_bad_scalar(value: str) -> None:
    diag = only_diagnostic(f"a: 1\nb:\n  c: {value}\n")
    assert (diag.code, diag.span.line, diag.span.col) == ("bad-scalar", 3, 6)


def test_the_longest_integer_python_reads_is_accepted() -> None:
    assert load("a: " + "9" * 4300 + "\n").data["a"] == int("9" * 4300)


def test_long_integer_keys_are_refused_too() -> None:
    diag = only_diagnostic("a: 1\n? " + "1" * 5000 + "\n: x\n")  # an explicit key may be long
    assert (diag.code, diag.span.line, diag.span.col) == ("bad-scalar", 2, 3)


@pytest.mark.parametrize(
    ("text", "col"), [("{?0: null}\n", 2), ("[a, ?x]\n", 5), ("k: {a: 1, ?b: 2}\n", 11)]
)
def test_question_mark_glued_to_a_flow_value_is_refused(text: str, col: int) -> None:
    """libyaml reads `{?0: null}` as the key 0, YAML 1.2 readers (and ruamel's own writer, which
    wrote it for the key '?0') as the key '?0': the loader refuses what readers disagree on."""
    diag = only_diagnostic(text)
    assert (diag.code, diag.span.line, diag.span.col) == ("ambiguous-key", 1, col)


def test_question_mark_keys_that_all_readers_agree_on() -> None:
    assert load("{'?0': null}\n").data == {"?0": None}
    assert load("?0: 1\n").data == {"?0": 1}  # block context: '?' needs a space to be a key
    assert load("{? a: 1}\n").data == {"a": 1}


# ----- property tests ----------------------------------------------------------------------------

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.binary(max_size=512))
def test_arbitrary_bytes_never_raise_anything_but_relic_error(raw: bytes) -> None:
    try:
        load_bytes(raw, "fuzz.yaml")
    except RelicError as exc:
        assert exc.diagnostics and all(d.span.file == "fuzz.yaml" for d in exc.diagnostics)


YAML_TOKENS = st.sampled_from(
    [
        "a",
        "b",
        ":",
        " ",
        "\n",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "&x ",
        "*x",
        "!t ",
        "!!str ",
        "'",
        '"',
        "#",
        "|",
        ">",
        "---",
        "...",
        "? ",
        "\t",
        "1",
        "-",
        "\\",
        "%YAML 1.2",
        "@",
        "`",
        "\u00e9",
        "\ud7ff",
        "\x00",
        "\x85",
        "<<: *x",
    ]
)


@SETTINGS
@given(st.lists(YAML_TOKENS, max_size=60).map("".join))
def test_arbitrary_yaml_like_text_never_raises_anything_but_relic_error(text: str) -> None:
    try:
        load_bytes(text.encode("utf-8", "surrogatepass"), "fuzz.yaml")
    except RelicError as exc:
        assert exc.diagnostics


# Plain printable text: YAML folds line-break characters (NEL, LS, PS) inside scalars by design.
printable = st.characters(
    blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"
)
words = st.text(printable, max_size=20)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), words)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(printable, min_size=1, max_size=8), children, max_size=4),
    ),
    max_leaves=20,
)


@SETTINGS
@given(documents, st.booleans())
@example({"?0": None}, True)  # issue 10, item 9: once read back as {'0': None}
def test_arbitrary_yaml_documents_round_trip(doc, pure: bool) -> None:
    """Anything a YAML writer produces either loads back equal or is refused cleanly. Both of
    ruamel's writers: libyaml's, and the pure-Python one, which writes the key '?0' as `{?0: …}`
    (YAML 1.2 text that libyaml reads as the key 0: the loader refuses it, `ambiguous-key`)."""
    out = io.StringIO()
    YAML(typ="safe", pure=pure).dump(doc, out)
    try:
        loaded = load(out.getvalue()).data
    except RelicError as exc:
        assert exc.diagnostics
        return
    assert loaded == doc
