"""Lists set in columns of table cells (pipeline/rulebook/columns.py): the index, the icon
legend and the contents' dots, without CSS multi-column balancing or one text box per dot."""

from __future__ import annotations

import re
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.rulebook import columns, prepare
from pipeline.rulebook.book import TOC_LINE
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]


def test_columns_are_filled_in_order_and_the_tallest_is_as_short_as_it_can_be() -> None:
    items = list("abcdefg")
    weights = [1, 1, 3, 1, 1, 1, 2]
    assert columns.balanced(items, weights, 2) == [list("abc"), list("defg")]  # 5 and 5
    assert columns.balanced(items, weights, 3) == [list("ab"), list("cd"), list("efg")]  # 2, 4, 4


def test_fewer_items_than_columns_leave_empty_columns() -> None:
    assert columns.balanced(["a"], [1], 3) == [["a"], [], []]
    assert columns.balanced([], [], 2) == [[], []]


def test_an_item_taller_than_the_rest_together_has_a_column_of_its_own() -> None:
    assert columns.balanced(list("abc"), [9, 1, 1], 2) == [["a"], ["b", "c"]]


def test_weights_must_match_the_items() -> None:
    with pytest.raises(ValueError, match="3 items but 2 weights"):
        columns.balanced(list("abc"), [1, 1], 2)


def test_a_list_longer_than_a_page_is_set_in_blocks_that_each_read_down_their_columns() -> None:
    items = list(range(10))
    blocks = columns.pages(items, [1] * 10, 2, 3)
    assert blocks == [[[0, 1, 2], [3, 4, 5]], [[6, 7], [8, 9]]]


def test_lines_are_counted_up() -> None:
    assert [columns.lines_of(n, 10) for n in (0, 1, 10, 11, 25)] == [1, 1, 1, 2, 3]


@given(st.lists(st.integers(1, 6), max_size=40), st.integers(1, 4))
def test_balancing_keeps_every_item_in_order_and_no_split_has_a_shorter_tallest_column(
        weights: list[int], count: int) -> None:
    items = list(range(len(weights)))
    got = columns.balanced(items, weights, count)
    assert len(got) == count
    assert [i for column in got for i in column] == items
    tallest = max((sum(weights[i] for i in column) for column in got), default=0)
    assert tallest == _best(weights, count)


def _best(weights: list[int], count: int) -> int:
    """The shortest tallest column over every split into `count` runs, by brute force."""
    if not weights:
        return 0
    sums = [0, *accumulate(weights)]
    n = len(weights)
    best = {(0, 0): 0}  # (items placed, columns used) -> the tallest column so far
    for used in range(count):
        for placed in range(n + 1):
            if (placed, used) not in best:
                continue
            for end in range(placed, n + 1):
                key = (end, used + 1)
                tallest = max(best[(placed, used)], sums[end] - sums[placed])
                best[key] = min(best.get(key, tallest), tallest)
    return min(v for (placed, _), v in best.items() if placed == n)


@pytest.fixture(scope="module")
def book_html() -> str:
    return prepare(load_model(ROOT / "content" / "catacombs"), "en").whole()


def test_the_book_sets_no_css_columns_and_no_leader_for_a_title_that_fits(book_html) -> None:
    assert re.search(r"\bcolumns:\s*\d", book_html) is None
    assert book_html.count('class="toc-wrap"') == 0  # every canonical title fits one line
    assert book_html.count('class="toc-line"') >= 30


def test_the_index_is_set_in_two_balanced_columns(book_html) -> None:
    [table] = re.findall(r'<table class="index-columns">(.*?)</table>', book_html, flags=re.S)
    cells = re.findall(r"<td>(.*?)</td>", table, flags=re.S)
    assert len(cells) == 2
    left, right = (c.count("<li>") for c in cells)
    assert left >= right and left - right <= 3, (left, right)


def test_a_contents_title_too_long_for_one_line_takes_the_leader(tmp_path: Path) -> None:
    import shutil

    pack = tmp_path / "catacombs"
    shutil.copytree(ROOT / "content" / "catacombs", pack)
    chapter = pack / "rules" / "en" / "06-traps.md"
    text = chapter.read_text(encoding="utf-8")
    long_title = "Traps, " + "and more traps, " * (TOC_LINE // 16) + "at last"
    assert len(long_title) > TOC_LINE
    heading = re.search(r"^# (.+?)( \{#[\w-]+\})?$", text, flags=re.M)
    chapter.write_text(text.replace(heading[0], f"# {long_title}{heading[2] or ''}", 1),
                       encoding="utf-8")
    html = prepare(load_model(pack), "en").whole()
    wrapped = re.findall(r'<a class="toc-wrap" href="#[\w-]+" data-page="">([^<]*)</a>', html)
    assert wrapped == [long_title]
