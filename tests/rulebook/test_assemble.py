"""The book's assembly (pipeline/rulebook/assemble.py): one copy of every object that equals
another, and never one for two that differ."""

from __future__ import annotations

import pikepdf
from pikepdf import Dictionary

from pipeline.rulebook.assemble import _share_identical


def _pages(pdf: pikepdf.Pdf, n: int) -> list[pikepdf.Page]:
    for _ in range(n):
        pdf.add_blank_page()
    for page in pdf.pages:
        page.obj.Resources = Dictionary(XObject=Dictionary(), ExtGState=Dictionary())
    return list(pdf.pages)


def test_objects_equal_to_the_byte_are_kept_once_and_others_apart() -> None:
    with pikepdf.new() as pdf:
        one, two = _pages(pdf, 2)
        one.obj.Resources.XObject.a = pdf.make_stream(b"the same bytes")
        two.obj.Resources.XObject.a = pdf.make_stream(b"the same bytes")
        one.obj.Resources.XObject.b = pdf.make_stream(b"these bytes")
        two.obj.Resources.XObject.b = pdf.make_stream(b"other bytes")
        _share_identical([one, two])
        same = [page.obj.Resources.XObject.a.objgen for page in (one, two)]
        apart = [page.obj.Resources.XObject.b.objgen for page in (one, two)]
    assert same[0] == same[1]
    assert apart[0] != apart[1]


def test_objects_that_refer_back_are_never_taken_for_one_another() -> None:
    """Each page's state `b` refers back to its own `a`, and the two `a` differ: the two `b`
    look alike apart from whom they refer back to, and must stay two."""
    with pikepdf.new() as pdf:
        pages = _pages(pdf, 2)
        for value, page in enumerate(pages):
            a = pdf.make_indirect(Dictionary(V=value))
            b = pdf.make_indirect(Dictionary(Up=a))
            a.Child = b
            page.obj.Resources.ExtGState.a = a
            page.obj.Resources.ExtGState.b = b
        _share_identical(pages)
        ups = [int(page.obj.Resources.ExtGState.b.Up.V) for page in pages]
        bs = {page.obj.Resources.ExtGState.b.objgen for page in pages}
    assert ups == [0, 1] and len(bs) == 2
