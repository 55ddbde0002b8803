"""Drawn faces as Pillow images: the faces' PDF operators on pages (impose.face_pages),
rasterized by pypdfium2 at any resolution, with or without their bleed."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image

from pipeline.cards.impose import face_pages, load_art
from pipeline.cards.render import Rendered


def face_images(faces: Sequence[Rendered], fonts: Mapping[str, str], charset: str,
                dpi: float, bleed_pt: float = 0.0) -> list[Image.Image]:
    """Each face rasterized at `dpi`, RGB; `bleed_pt` points are cut off every side (the
    face's bleed, for a picture of the trimmed component)."""
    if not faces:
        return []
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    face_pages([load_art(f.batch, f.art_key) for f in faces], fonts, charset, buffer)
    scale = dpi / 72
    crop = (bleed_pt,) * 4  # in PDF units
    out = []
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        for index in range(len(faces)):
            bitmap = document[index].render(scale=scale, crop=crop, rev_byteorder=True)
            out.append(bitmap.to_pil().convert("RGB"))
    finally:
        document.close()
    return out


def face_image(face: Rendered, fonts: Mapping[str, str], charset: str, dpi: float,
               bleed_pt: float = 0.0) -> Image.Image:
    return face_images([face], fonts, charset, dpi, bleed_pt)[0]
