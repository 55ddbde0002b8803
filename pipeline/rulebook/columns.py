"""The index's columns, split here and set as table cells rather than by CSS multi-column
layout: WeasyPrint balances CSS columns by laying the whole list out again for every step it
adds to the column height (the canonical index took 1.2 s to lay out in two CSS columns
against 0.4 s as table cells). The list is split by an estimate of each entry's lines; an
estimate that is off by a line leaves the columns a line apart, and loses nothing.

(The icon legend, which has no order to keep down a column, is set row by row by its template;
the contents' dots are one clipped run of text, not `leader()`: see book.css.j2.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def balanced(items: Sequence[T], weights: Sequence[int], count: int) -> list[list[T]]:
    """`items` in order, in `count` columns (column by column), the tallest as short as it can
    be: the first columns are the fuller ones, and none is left out (an empty list pads)."""
    if len(items) != len(weights):
        raise ValueError(f"{len(items)} items but {len(weights)} weights")
    low, high = max(weights, default=0), sum(weights)
    while low < high:  # the least height that holds every item in `count` columns
        middle = (low + high) // 2
        if len(_fill(weights, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    runs = _fill(weights, low)
    runs += [range(0)] * (count - len(runs))
    return [[items[i] for i in run] for run in runs]


def _fill(weights: Sequence[int], height: int) -> list[range]:
    """Consecutive runs of items, each as tall as `height` allows (an item taller alone)."""
    runs, start, total = [], 0, 0
    for i, weight in enumerate(weights):
        if total and total + weight > height:
            runs.append(range(start, i))
            start, total = i, 0
        total += weight
    if start < len(weights):
        runs.append(range(start, len(weights)))
    return runs


def pages(items: Sequence[T], weights: Sequence[int], count: int,
          lines: int) -> list[list[list[T]]]:
    """`items` in blocks of at most `lines` lines per column, each block balanced in `count`
    columns: a list longer than a page reads down each page's columns in turn, as long as
    `lines` is no more than a page's column holds."""
    blocks: list[list[list[T]]] = []
    for run in _fill(weights, lines * count):
        blocks.append(balanced([items[i] for i in run], [weights[i] for i in run], count))
    return blocks


def lines_of(text_length: int, per_line: int) -> int:
    """The lines a text of `text_length` characters takes in a column of `per_line` (at least
    one)."""
    return max(1, -(-text_length // per_line))
