"""Laid-out units -> the book's PDF: their pages in order, the component pictures put in the
placeholders' places, each font and picture once, the links between units, the bookmarks and
fixed metadata (byte-identical for the same units and pictures).

pikepdf (qpdf) copies, merges and writes the pages: the canonical book's 14 parts and 55 pages
in 0.11-0.15 s, where pypdf took 0.34-0.5 s. It is made in two steps, `frame` (the pages, links
and bookmarks, kept in the cache) and `finish` (the pictures), so that a book assembled again
with new pictures only finishes its frame."""

from __future__ import annotations

import hashlib
import io
import re
import warnings
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from itertools import accumulate
from pathlib import Path
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, OutlineItem, PageLocation

from pipeline.rulebook.layout import LaidOut

FIXED_DATE = "D:20000101000000+00'00'"
PRODUCER = "Relic Press"


def assemble(units: Sequence[LaidOut], title: str, lang: str,
             pictures: Mapping[str, Path] | None = None) -> bytes:
    """One PDF of every unit's content pages (their charset pages left out); `pictures`: the
    raster file of each picture URL the units were laid out with a placeholder for."""
    pictures = pictures or {}
    return finish(frame(units, title, lang, pictures), pictures)


def frame(units: Sequence[LaidOut], title: str, lang: str, urls: Iterable[str]) -> bytes:
    """The book without its pictures: every unit's content pages in order, the links between
    them, the bookmarks and the fixed metadata, each object that equals another once, but the
    placeholder of each picture URL in `urls` kept apart (they are all alike until `finish`
    puts the pictures in). A book's frame serves every assembly of its units: one with new
    pictures only finishes it (0.02-0.03 s of pages, links and sharing saved)."""
    starts = [0, *accumulate(unit.pages for unit in units)][:-1]  # each unit's first page
    version = "1.7"  # WeasyPrint's, unless a unit says more
    with ExitStack() as sources, pikepdf.new() as book:
        for unit in units:
            source = sources.enter_context(pikepdf.open(unit.pdf))
            version = max(version, source.pdf_version, key=_version)
            with warnings.catch_warnings():  # its links are made again below, across units
                warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
                book.pages.extend(source.pages[:unit.pages])
        pages = list(book.pages)
        for page in pages:
            _drop(page.obj, Name.Annots)
        placeholders = _placeholders(pages, _by_name({url: url for url in urls}))
        _share_identical(pages, apart={stream.objgen for stream, _ in placeholders})
        heights = [float(page.mediabox[3]) - float(page.mediabox[1]) for page in pages]
        anchors = {name: (start + n, x, y) for unit, start in zip(units, starts, strict=True)
                   for name, (n, x, y) in unit.anchors.items()}
        for unit, start in zip(units, starts, strict=True):
            _links(book, pages, heights, unit, start, anchors)
        _outline(book, heights, units, starts)
        book.docinfo = book.make_indirect(Dictionary(
            Producer=PRODUCER, Creator=PRODUCER, Title=title, CreationDate=FIXED_DATE,
            ModDate=FIXED_DATE))
        book.Root.Lang = pikepdf.String(lang)
        book.Root.PageMode = Name.UseOutlines
        return _saved(book, version)


def finish(framed: bytes | Path, pictures: Mapping[str, Path]) -> bytes:
    """The book of a `frame` with its pictures put in the placeholders' places, and what then
    equals another object (a picture shown by several units) kept once."""
    source = io.BytesIO(framed) if isinstance(framed, bytes) else framed
    with ExitStack() as sources, pikepdf.open(source) as book:
        pages = list(book.pages)
        _put_pictures(book, sources, pages, pictures)
        _share_identical(pages)
        return _saved(book, book.pdf_version)


def _saved(book: pikepdf.Pdf, version: str) -> bytes:
    out = io.BytesIO()
    book.save(out, deterministic_id=True, fix_metadata_version=False, min_version=version,
              object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def _drop(obj: pikepdf.Object, *names: Name) -> None:
    for name in names:
        if name in obj:
            del obj[name]


def _put_pictures(book: pikepdf.Pdf, sources: ExitStack, pages: Sequence[pikepdf.Page],
                  pictures: Mapping[str, Path]) -> None:
    """Every placeholder image becomes its picture, or its drawing (a `.pdf`: a block drawn
    apart). A picture shown by several units goes in once (`_share_identical`)."""
    for stream, path in _placeholders(pages, _by_name(pictures)):
        if Path(path).suffix == ".pdf":
            _write_drawing(book, sources.enter_context(pikepdf.open(path)), stream)
        else:
            _write_picture(stream, Path(path))


def _by_name(pictures: Mapping[str, Any]) -> dict[str, Any]:
    """WeasyPrint names an image XObject `i<md5 of its URL><interpolate>`, so the name says
    which picture a placeholder stands for: md5 of the URL -> its value in `pictures`."""
    return {hashlib.md5(url.encode(), usedforsecurity=False).hexdigest(): value
            for url, value in pictures.items()}


def _placeholders(pages: Sequence[pikepdf.Page],
                  by_name: Mapping[str, Any]) -> Iterator[tuple[pikepdf.Stream, Any]]:
    """Each placeholder image stream of the pages (once), with what `by_name` has for it."""
    done: set[tuple[int, int]] = set()
    for page in pages:
        xobjects = page.obj.get(Name.Resources, Dictionary()).get(Name.XObject, Dictionary())
        for name in sorted(xobjects.keys()):  # (pikepdf gives a set: in hash order)
            value = by_name.get(name[2:34])
            stream = xobjects[name]
            if value is None or not stream.is_indirect or stream.objgen in done:
                continue
            done.add(stream.objgen)
            yield stream, value


def _write_drawing(book: pikepdf.Pdf, drawn: pikepdf.Pdf, stream: pikepdf.Stream) -> None:
    """The drawing's one page into the image stream, which becomes a form: the page paints
    the placeholder on the unit square its box is mapped to, so the form maps the drawing's
    page onto that square. Its text stays text, in the drawing's own font subsets."""
    page = drawn.pages[0]
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    width, height = x1 - x0, y1 - y0
    content = page.as_form_xobject().read_bytes()
    _drop(stream, Name.Width, Name.Height, Name.ColorSpace, Name.BitsPerComponent,
          Name.DecodeParms, Name.SMask, Name.Decode, Name.Mask, Name.Interpolate, Name.Intent)
    stream.Subtype = Name.Form
    stream.BBox = Array([0, 0, 1, 1])
    stream.Resources = book.copy_foreign(drawn.make_indirect(page.obj.Resources))
    # the scale as the content's first operator (not the form's /Matrix: text extraction
    # that ignores it would see every word of the drawing on a line of its own)
    scale = f"{1 / width:.8f} 0 0 {1 / height:.8f} {-x0 / width:.8f} {-y0 / height:.8f} cm\n"
    stream.write(zlib.compress(scale.encode() + content), filter=Name.FlateDecode)


def _write_picture(stream: pikepdf.Stream, path: Path) -> None:
    """The picture's RGB pixels, Flate-compressed, into the image stream."""
    _drop(stream, Name.DecodeParms, Name.SMask, Name.Decode, Name.Mask)
    width, height, data = _compressed_rgb(path)
    stream.Width, stream.Height = width, height
    stream.ColorSpace, stream.BitsPerComponent = Name.DeviceRGB, 8
    stream.write(data, filter=Name.FlateDecode)


def _compressed_rgb(path: Path) -> tuple[int, int, bytes]:
    """(width, height, its RGB pixels Flate-compressed) of a raster file, kept beside it in
    the cache (`<name>.rgb.pickle`): decoding and compressing the canonical book's 43 pictures
    took 0.1 s of every assembly."""
    from pipeline.fsutil import dump_pickle, load_pickle

    kept_at = path.with_name(path.name + ".rgb.pickle")
    kept = load_pickle(kept_at)
    if kept is not None:
        return kept
    from PIL import Image

    with Image.open(path) as img:
        rgb = img.convert("RGB")
    kept = rgb.width, rgb.height, zlib.compress(rgb.tobytes())
    dump_pickle(kept_at, kept)
    return kept


def _share_identical(pages: Sequence[pikepdf.Page],
                     apart: Iterable[tuple[int, int]] = ()) -> None:
    """Each font, picture, icon and graphics state once: every unit embeds the same font
    subsets (`book.charset`), and a picture or an icon may be shown by several units. Every
    reference, from the pages down (their links aside), to an object that another one equals
    to the byte is pointed at that one; the copies, no longer used, are not written. An object
    `apart` (by its number) equals only itself."""
    memo: dict[tuple[int, int], Any] = {objgen: ("apart", objgen) for objgen in apart}
    kept: dict[Any, pikepdf.Object] = {}
    seen: set[tuple[int, int]] = set()

    def visit(container: pikepdf.Object) -> None:
        mapping = isinstance(container, pikepdf.Dictionary | pikepdf.Stream)
        entries = sorted(container.keys()) if mapping else range(len(container))  # (a set)
        for at in entries:
            if at in ("/Parent", "/Annots"):
                continue
            value = container[at]
            if not isinstance(value, pikepdf.Dictionary | pikepdf.Array | pikepdf.Stream):
                continue
            if value.is_indirect:
                one = kept.setdefault(_key(value, memo), value)
                if one.objgen != value.objgen:
                    container[at] = one
                if one.objgen in seen:
                    continue
                seen.add(one.objgen)
                value = one
            visit(value)

    for page in pages:
        visit(page.obj)


def _key(obj: Any, memo: dict[tuple[int, int], Any]) -> Any:
    """What an object is, to the byte, with the objects it refers to: equal keys, equal
    objects. An object that refers back to itself, through others, is only ever equal to
    itself: its reference back is keyed by its own number."""
    if isinstance(obj, pikepdf.Object) and obj.is_indirect:
        found = memo.get(obj.objgen)
        if found is None:
            memo[obj.objgen] = ("itself", obj.objgen)  # while its key is being made
            found = memo[obj.objgen] = _direct_key(obj, memo)
        return found
    return _direct_key(obj, memo)


REFERENCE = re.compile(rb"\d+ \d+ R\b")


def _direct_key(obj: Any, memo: dict[tuple[int, int], Any]) -> Any:
    if isinstance(obj, pikepdf.Stream):
        items = tuple((k, _key(v, memo)) for k, v in sorted(obj.items())
                      if k not in ("/Length", "/Parent"))
        return ("stream", items, hashlib.sha256(obj.read_raw_bytes()).digest())
    if isinstance(obj, pikepdf.Dictionary | pikepdf.Array):
        # an object that refers to no other (a font's widths, a picture's parameters) is its
        # bytes, written by qpdf at once rather than walked value by value
        text = obj.unparse(resolved=True)
        if not REFERENCE.search(text):
            return ("bytes", text)
    if isinstance(obj, pikepdf.Dictionary):
        return ("dict", tuple((k, _key(v, memo)) for k, v in sorted(obj.items())
                              if k != "/Parent"))
    if isinstance(obj, pikepdf.Array):
        return ("array", tuple(_key(v, memo) for v in obj))
    return ("value", repr(obj))


def _links(book: pikepdf.Pdf, pages: Sequence[pikepdf.Page], heights: Sequence[float],
           unit: LaidOut, start: int, anchors: dict[str, tuple[int, float, float]]) -> None:
    for n, x1, y1, x2, y2, target in unit.links:
        if target not in anchors:
            continue
        page = start + n
        height = heights[page]
        dest, dx, dy = anchors[target]
        link = book.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Link, Rect=Array([x1, height - y2, x2, height - y1]),
            Border=Array([0, 0, 0]),
            Dest=Array([pages[dest].obj, Name.XYZ, dx, heights[dest] - dy, None])))
        if Name.Annots not in pages[page].obj:
            pages[page].obj.Annots = Array()
        pages[page].obj.Annots.append(link)


def _outline(book: pikepdf.Pdf, heights: Sequence[float], units: Sequence[LaidOut],
             starts: list[int]) -> None:
    """Bookmarks nested by level, as WeasyPrint would make them for one document."""
    with book.open_outline() as outline:
        parents: list[tuple[int, OutlineItem]] = []  # (level, outline item)
        for unit, start in zip(units, starts, strict=True):
            for n, level, label, x, y in unit.bookmarks:
                page = start + n
                while parents and parents[-1][0] >= level:
                    parents.pop()
                item = OutlineItem(label, page, PageLocation.XYZ, left=x,
                                   top=heights[page] - y)
                (parents[-1][1].children if parents else outline.root).append(item)
                parents.append((level, item))
