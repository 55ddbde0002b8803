"""Rendered faces + Layout -> PDF files: sheets for home printing and one-per-page shop files.

Face pages become form XObjects placed with a transform. Objects are imported by content
(a structural hash), so a font or a face used many times is stored once, and the output does
not depend on which batch file a face came from.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    PdfObject,
    RectangleObject,
    StreamObject,
    TextStringObject,
)

from pipeline.cards.formats import Format
from pipeline.cards.layout import Layout, Placement
from pipeline.cards.render import Rendered
from pipeline.cards.units import mm_to_pt

MARK_WIDTH_PT = 0.25
PRODUCER = "Relic Press"


def _num(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


NAME_TOKEN = re.compile(rb"/([^\s/\[\]<>(){}%]+)")


def used_resources(resources: PdfObject, content: bytes) -> DictionaryObject:
    """The page's resources cut down to the names its content uses.

    WeasyPrint gives every page of a document the resources of the whole document; kept as is,
    a face would carry (and differ by) the graphics states of the other faces in its batch.
    """
    names = {m.decode("latin-1") for m in NAME_TOKEN.findall(content)}
    out = DictionaryObject()
    for category, value in sorted(resources.get_object().items()):
        entries = value.get_object()
        if isinstance(entries, DictionaryObject):
            out[NameObject(category)] = DictionaryObject(
                {NameObject(k): v for k, v in sorted(entries.items()) if k[1:] in names})
        else:
            out[NameObject(category)] = value
    return out


class Sources:
    """The cached face PDFs of one build, read once and shared by every output file."""

    def __init__(self) -> None:
        self.readers: dict[str, PdfReader] = {}
        self.digests: dict[tuple[int, int, int], bytes] = {}
        self.forms: dict[tuple[str, int], tuple[bytes, tuple[float, ...], PdfObject]] = {}
        self.form_digests: dict[tuple[str, int], bytes] = {}

    def reader(self, path: str) -> PdfReader:
        if path not in self.readers:
            self.readers[path] = PdfReader(path)
        return self.readers[path]

    def form(self, rendered: Rendered) -> tuple[bytes, tuple[float, ...], PdfObject]:
        """A face page's compressed content, its box and its (reader-side) resources."""
        key = (rendered.pdf, rendered.page)
        if key not in self.forms:
            page = self.reader(rendered.pdf).pages[rendered.page]
            box = page.mediabox
            content = page.get_contents().get_data()
            stream = DecodedStreamObject()
            stream.set_data(content)
            data = stream.flate_encode(level=6)._data
            bbox = tuple(float(v) for v in (box.left, box.bottom, box.right, box.top))
            self.forms[key] = (data, bbox, used_resources(page["/Resources"], content))
        return self.forms[key]


class Importer:
    """Copies objects from cached face PDFs into one writer, sharing identical objects."""

    def __init__(self, writer: PdfWriter, sources: Sources | None = None):
        self.writer = writer
        self.sources = sources or Sources()
        self.by_digest: dict[bytes, IndirectObject] = {}
        self.names: dict[int, str] = {}
        self.own_digests: dict[tuple[int, int], bytes] = {}

    def digest(self, obj: PdfObject) -> bytes:
        if isinstance(obj, IndirectObject):
            if obj.pdf is self.writer:  # objects this writer made: memo dies with the writer
                own = (obj.idnum, obj.generation)
                if own not in self.own_digests:
                    self.own_digests[own] = self.digest(obj.get_object())
                return self.own_digests[own]
            key = (id(obj.pdf), obj.idnum, obj.generation)  # readers live as long as sources
            if key not in self.sources.digests:
                self.sources.digests[key] = self.digest(obj.get_object())
            return self.sources.digests[key]
        h = hashlib.sha256(type(obj).__name__.encode())
        if isinstance(obj, StreamObject):
            h.update(self._dict_digest(obj) + hashlib.sha256(obj._data).digest())
        elif isinstance(obj, DictionaryObject):
            h.update(self._dict_digest(obj))
        elif isinstance(obj, ArrayObject):
            for item in obj:
                h.update(self.digest(item))
        elif isinstance(obj, TextStringObject | ByteStringObject):
            h.update(bytes(obj.original_bytes if hasattr(obj, "original_bytes") else obj))
        else:
            h.update(repr(obj).encode())
        return h.digest()

    def _dict_digest(self, obj: DictionaryObject) -> bytes:
        h = hashlib.sha256()
        for k in sorted(obj):
            if k == "/Length":
                continue
            h.update(str(k).encode() + b"=" + self.digest(obj[k]) + b";")
        return h.digest()

    def copy(self, obj: PdfObject) -> PdfObject:
        """A writer-side copy: indirect objects are shared by content."""
        if isinstance(obj, IndirectObject):
            d = self.digest(obj)
            if d not in self.by_digest:
                self._remember(d, self.writer._add_object(self._copy_direct(obj.get_object())))
            return self.by_digest[d]
        return self._copy_direct(obj)

    def _remember(self, d: bytes, ref: IndirectObject) -> None:
        """A copy has the digest of its original: never hash it again."""
        self.by_digest[d] = ref
        self.own_digests[(ref.idnum, ref.generation)] = d

    def _copy_direct(self, obj: PdfObject) -> PdfObject:
        if isinstance(obj, StreamObject):
            new: StreamObject = EncodedStreamObject() if "/Filter" in obj else DecodedStreamObject()
            new._data = obj._data
            for k, v in obj.items():
                if k != "/Length":
                    new[NameObject(k)] = self.copy(v)
            return new
        if isinstance(obj, DictionaryObject):  # keys sorted: bytes never depend on the source
            return DictionaryObject({NameObject(k): self.copy(v) for k, v in sorted(obj.items())})
        if isinstance(obj, ArrayObject):
            return ArrayObject(self.copy(v) for v in obj)
        if isinstance(obj, BooleanObject | NumberObject | FloatObject | NameObject | NullObject):
            return obj
        if isinstance(obj, TextStringObject | ByteStringObject):
            return obj
        return obj

    def add(self, obj: PdfObject) -> IndirectObject:
        """Add a new writer-side object, sharing it with an identical one already added."""
        d = self.digest(obj)
        if d not in self.by_digest:
            self._remember(d, self.writer._add_object(obj))
        return self.by_digest[d]

    def form(self, rendered: Rendered) -> tuple[IndirectObject, float, float]:
        """The face page as a form XObject (one per distinct face), and its size in points."""
        data, bbox, resources = self.sources.form(rendered)
        key = (rendered.pdf, rendered.page)
        d = self.sources.form_digests.get(key)
        if d is None:
            d = hashlib.sha256(b"form" + hashlib.sha256(data).digest() + repr(bbox).encode()
                               + self.digest(resources)).digest()
            self.sources.form_digests[key] = d
        if d not in self.by_digest:
            form = EncodedStreamObject()
            form._data = data
            form[NameObject("/Filter")] = NameObject("/FlateDecode")
            form[NameObject("/Type")] = NameObject("/XObject")
            form[NameObject("/Subtype")] = NameObject("/Form")
            form[NameObject("/BBox")] = ArrayObject(FloatObject(v) for v in bbox)
            form[NameObject("/Resources")] = self.copy(resources)
            self._remember(d, self.writer._add_object(form))
        return self.by_digest[d], bbox[2] - bbox[0], bbox[3] - bbox[1]

    def name(self, ref: IndirectObject) -> str:
        """A stable resource name for an added object (first use order)."""
        if ref.idnum not in self.names:
            self.names[ref.idnum] = f"/Fc{len(self.names)}"
        return self.names[ref.idnum]


def _matrix(p: Placement, w_pt: float, h_pt: float) -> str:
    x, y = mm_to_pt(p.box.x), mm_to_pt(p.box.y)
    sx, sy = mm_to_pt(p.box.w), mm_to_pt(p.box.h)
    if p.rotate == 90:  # (u, v) -> (-v, u), then shift right by the placed width
        a, b, c, d, e, f = 0, sy / w_pt, -sx / h_pt, 0, x + sx, y
    elif p.rotate == 270:  # (u, v) -> (v, -u), then shift up by the placed height
        a, b, c, d, e, f = 0, -sy / w_pt, sx / h_pt, 0, x, y + sy
    else:
        a, b, c, d, e, f = sx / w_pt, 0, 0, sy / h_pt, x, y
    return " ".join(_num(v) for v in (a, b, c, d, e, f))


def _page(writer: PdfWriter, importer: Importer, width_pt: float, height_pt: float,
          content: bytes, xobjects: Mapping[str, IndirectObject]):
    page = writer.add_blank_page(width_pt, height_pt)
    page[NameObject("/Resources")] = DictionaryObject({
        NameObject("/XObject"): DictionaryObject({NameObject(k): v for k, v in
                                                  sorted(xobjects.items())}),
    })
    stream = DecodedStreamObject()
    stream.set_data(content)
    page[NameObject("/Contents")] = writer._add_object(stream.flate_encode(level=9))
    return page


def _writer(doc_id: str, title: str) -> PdfWriter:
    writer = PdfWriter()
    writer.add_metadata({"/Producer": PRODUCER, "/Creator": PRODUCER, "/Title": title})
    ident = ByteStringObject(hashlib.md5(doc_id.encode(), usedforsecurity=False).digest())
    writer._ID = ArrayObject([ident, ident])
    return writer


def write_sheets(layout: Layout, rendered: Mapping[str, Rendered], title: str,
                 doc_id: str, target, sources: Sources | None = None) -> None:
    """The home print-and-play PDF for one format."""
    writer = _writer(doc_id, title)
    importer = Importer(writer, sources)
    sw, sh = mm_to_pt(layout.sheet.width), mm_to_pt(layout.sheet.height)
    for sheet_page in layout.pages:
        ops, xobjects = [], {}
        for p in sheet_page.placements:
            ref, w_pt, h_pt = importer.form(rendered[p.face])
            name = importer.name(ref)
            xobjects[name] = ref
            ops.append(f"q {_matrix(p, w_pt, h_pt)} cm {name} Do Q")
        if sheet_page.marks:
            ops.append(f"q {_num(MARK_WIDTH_PT)} w 0 0 0 RG 0 J")
            for ln in sheet_page.marks:
                x1, y1, x2, y2 = (_num(mm_to_pt(v)) for v in (ln.x1, ln.y1, ln.x2, ln.y2))
                ops.append(f"{x1} {y1} m {x2} {y2} l S")
            ops.append("Q")
        _page(writer, importer, sw, sh, "\n".join(ops).encode(), xobjects)
    writer.write(target)


def write_shop(items: list[tuple[str, str | None]], fmt: Format,
               rendered: Mapping[str, Rendered], title: str, doc_id: str, target,
               sources: Sources | None = None) -> None:
    """One component face per page: MediaBox = BleedBox = trim + bleed, TrimBox = trim."""
    writer = _writer(doc_id, title)
    importer = Importer(writer, sources)
    bw, bh = mm_to_pt(fmt.bleed_width), mm_to_pt(fmt.bleed_height)
    b = mm_to_pt(fmt.bleed)
    for front, back in items:
        for face in (front, back):
            if face is None:
                continue
            ref, w_pt, h_pt = importer.form(rendered[face])
            name = importer.name(ref)
            content = f"q {_num(bw / w_pt)} 0 0 {_num(bh / h_pt)} 0 0 cm {name} Do Q".encode()
            page = _page(writer, importer, bw, bh, content, {name: ref})
            page.bleedbox = RectangleObject((0, 0, bw, bh))
            page.trimbox = RectangleObject((b, b, bw - b, bh - b))
    writer.write(target)
