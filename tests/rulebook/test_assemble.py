"""The book's assembly (pipeline/rulebook/assemble.py): one copy of every object that equals
another, and never one for two that differ."""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Dictionary, Name

from pipeline.rulebook import assemble as asm
from pipeline.rulebook.assemble import _share_identical
from pipeline.rulebook.layout import LaidOut


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


def _unit(tmp_path, name: str, url: str, links=(), anchors=None) -> LaidOut:
    """A one-page unit as WeasyPrint lays it out: the placeholder image (the same bytes for
    every picture) named after the picture's URL, and a font dictionary every unit repeats."""
    import hashlib

    with pikepdf.new() as pdf:
        pdf.add_blank_page(page_size=(200, 300))
        page = pdf.pages[0]
        placeholder = pdf.make_stream(b"\x80", Type=Name.XObject, Subtype=Name.Image, Width=1,
                                      Height=1, ColorSpace=Name.DeviceGray, BitsPerComponent=8)
        font = pdf.make_indirect(Dictionary(Type=Name.Font, BaseFont=Name("/Book")))
        md5 = hashlib.md5(url.encode(), usedforsecurity=False).hexdigest()
        page.obj.Resources = Dictionary(XObject=Dictionary({f"/i{md5}0": placeholder}),
                                        Font=Dictionary(F1=font))
        page.obj.Contents = pdf.make_stream(f"q 50 0 0 50 10 10 cm /i{md5}0 Do Q".encode())
        path = tmp_path / f"{name}.pdf"
        pdf.save(path)
    return LaidOut(name, str(path), 1, ((200.0, 300.0),), anchors or {}, tuple(links), ())


def _picture(tmp_path, name: str, rgb: tuple[int, int, int]):
    from PIL import Image

    path = tmp_path / f"{name}.png"
    Image.new("RGB", (4, 4), rgb).save(path)
    return path


def _image_widths(book: bytes) -> list[int]:
    """The width of every image stream the book has."""
    with pikepdf.open(io.BytesIO(book)) as pdf:
        return [int(o.Width) for o in pdf.objects
                if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def test_a_frame_keeps_the_placeholders_apart_and_its_finish_shares_what_came_out_alike(
        tmp_path) -> None:
    units = [_unit(tmp_path, "one", "file:///a", links=[(0, 0, 0, 10, 10, "there")]),
             _unit(tmp_path, "two", "file:///b", anchors={"there": (0, 5.0, 6.0)})]
    framed = asm.frame(units, "Book", "ru", ["file:///a", "file:///b"])
    assert _image_widths(framed) == [1, 1]  # alike, yet two: each is to be a picture
    with pikepdf.open(io.BytesIO(framed)) as book:
        fonts = {page.obj.Resources.Font.F1.objgen for page in book.pages}
    assert len(fonts) == 1  # what every unit repeats is kept once
    red, blue = _picture(tmp_path, "red", (200, 0, 0)), _picture(tmp_path, "blue", (0, 0, 200))
    apart = asm.finish(framed, {"file:///a": red, "file:///b": blue})
    alike = asm.finish(framed, {"file:///a": red, "file:///b": red})
    assert _image_widths(apart) == [4, 4]
    assert _image_widths(alike) == [4]  # the same picture twice: once
    assert alike == asm.assemble(units, "Book", "ru", {"file:///a": red, "file:///b": red})
    with pikepdf.open(io.BytesIO(apart)) as book:
        (link,) = book.pages[0].obj.Annots  # the link survives the finish, to page 2
        assert link.Dest[0].objgen == book.pages[1].obj.objgen


def test_an_object_kept_apart_equals_only_itself() -> None:
    with pikepdf.new() as pdf:
        one, two = _pages(pdf, 2)
        for page in (one, two):
            page.obj.Resources.XObject.a = pdf.make_stream(b"the same bytes")
        _share_identical([one, two], apart={one.obj.Resources.XObject.a.objgen})
        assert one.obj.Resources.XObject.a.objgen != two.obj.Resources.XObject.a.objgen


DRAWN_IN_A_PROCESS = """
import sys
from pathlib import Path
from pipeline.rulebook.assemble import finish
drawn = {url: Path(url.removeprefix("file://")) for url in sys.argv[2:]}
sys.stdout.buffer.write(finish(Path(sys.argv[1]), drawn))
"""


def test_a_book_with_drawings_is_the_same_bytes_whatever_the_process(tmp_path) -> None:
    """pikepdf gives a dictionary's keys as a set, in the order of the process's string
    hashes: the drawings put in (each copying its fonts into the book) and the objects shared
    must go in an order of their own, or each process numbers the book's objects apart."""
    import hashlib
    import os
    import subprocess
    import sys

    drawings = []
    for n in range(8):
        with pikepdf.new() as pdf:
            pdf.add_blank_page(page_size=(100, 50))
            page = pdf.pages[0]
            page.obj.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(Dictionary(
                Type=Name.Font, BaseFont=Name(f"/Drawn{n}")))))
            page.obj.Contents = pdf.make_stream(f"BT /F1 9 Tf ({n}) Tj ET".encode())
            path = tmp_path / f"block-{n}.pdf"
            pdf.save(path)
        drawings.append(f"file://{path}")
    with pikepdf.new() as pdf:  # one unit, one page, every drawing's placeholder on it
        pdf.add_blank_page(page_size=(200, 300))
        xobjects = {}
        for url in drawings:
            md5 = hashlib.md5(url.encode(), usedforsecurity=False).hexdigest()
            xobjects[f"/i{md5}0"] = pdf.make_stream(b"\x80", Type=Name.XObject,
                                                    Subtype=Name.Image, Width=1, Height=1,
                                                    ColorSpace=Name.DeviceGray,
                                                    BitsPerComponent=8)
        pdf.pages[0].obj.Resources = Dictionary(XObject=Dictionary(xobjects))
        pdf.save(tmp_path / "unit.pdf")
    unit = LaidOut("unit", str(tmp_path / "unit.pdf"), 1, ((200.0, 300.0),), {}, (), ())
    framed = tmp_path / "frame.pdf"
    framed.write_bytes(asm.frame([unit], "Book", "en", drawings))
    books = {subprocess.run([sys.executable, "-c", DRAWN_IN_A_PROCESS, str(framed), *drawings],
                            capture_output=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
             for seed in range(1, 6)}
    assert len(books) == 1
