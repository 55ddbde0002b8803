"""Reading the vendor PDFs back, independently of the code that wrote them: every colour space a
file uses (content streams, images, resources, forms), and the ink Ghostscript measures."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageMath
from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject, IndirectObject, NameObject

GS = shutil.which("gs")
NO_GS = ("Ghostscript (gs) converts colour for the PDF/X outputs and measures ink; it is not "
         "installed here (apt-get install ghostscript; .ci/run installs it)")
needs_gs = pytest.mark.skipif(GS is None, reason=NO_GS)

RGB_OPERATORS = {b"rg", b"RG"}  # set DeviceRGB fill and stroke colours


def _resolve(obj):
    return obj.get_object() if isinstance(obj, IndirectObject) else obj


def _names(obj, seen: set[int], found: set[str]) -> None:
    """Every name anywhere below a PDF object (colour spaces are names or arrays of them)."""
    obj = _resolve(obj)
    if isinstance(obj, NameObject):
        found.add(str(obj))
    elif isinstance(obj, DictionaryObject):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        for key, value in obj.items():
            if key in ("/Parent", "/P"):
                continue
            found.add(str(key))
            _names(value, seen, found)
    elif isinstance(obj, list):
        for value in obj:
            _names(value, seen, found)


def colour_report(path: Path) -> dict[str, set[str]]:
    """What a file says about colour: `names` (every name in every object of the file: a
    /DeviceRGB anywhere shows here, in resources, images, shadings or groups) and `operators`
    (the colour operators of every content stream: pages and forms, recursively)."""
    reader = PdfReader(path)
    names: set[str] = set()
    operators: set[str] = set()
    numbers = {n for gen in reader.xref.values() for n in gen} | set(reader.xref_objStm)
    for number in sorted(numbers):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free object number
            continue
        if obj is not None:
            _names(obj, set(), names)
    seen: set[int] = set()

    def walk_stream(content, resources) -> None:
        for _, op in ContentStream(content, reader).operations:
            if op in RGB_OPERATORS or op in (b"k", b"K", b"g", b"G", b"sc", b"scn", b"cs", b"CS"):
                operators.add(op.decode())
            if op == b"BI":
                operators.add("BI")
        xobjects = _resolve((resources or {}).get("/XObject", {})) or {}
        for ref in xobjects.values():
            xo = _resolve(ref)
            if id(xo) in seen:
                continue
            seen.add(id(xo))
            if xo.get("/Subtype") == "/Form":
                walk_stream(xo, _resolve(xo.get("/Resources")))

    for page in reader.pages:
        walk_stream(page.get_contents(), _resolve(page.get("/Resources")))
    return {"names": names, "operators": operators}


def ink_per_page(path: Path, dpi: int = 50) -> list[float]:
    """Total ink of every page in percent (C + M + Y + K averaged over the page), from
    Ghostscript's ink_cov device."""
    run = subprocess.run([GS, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=ink_cov",
                          f"-r{dpi}", "-o", "-", str(path)],
                         capture_output=True, text=True, check=True)
    out = []
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[-1] == "OK":
            out.append(sum(float(v) for v in parts[:4]))
    return out


def max_pixel_ink(path: Path, folder: Path, dpi: int = 40) -> float:
    """The highest total ink of any pixel of any page, in percent: the pages rendered by
    Ghostscript to CMYK (DeviceCMYK passes through unchanged), the four channels added up."""
    pattern = folder / f"{path.stem}-%03d.tif"
    subprocess.run([GS, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc",
                    f"-r{dpi}", f"-sOutputFile={pattern}", str(path)],
                   capture_output=True, check=True)
    best = 0.0
    for tif in sorted(folder.glob(f"{path.stem}-*.tif")):
        with Image.open(tif) as image:
            c, m, y, k = (ch.convert("I") for ch in image.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                          c=c, m=m, y=y, k=k)
            best = max(best, total.getextrema()[1] / 255 * 100)
        tif.unlink()
    return best
