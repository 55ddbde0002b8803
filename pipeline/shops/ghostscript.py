"""PDF/X through Ghostscript: colour converted by Ghostscript's colour engine (littleCMS) with the
vendor's ICC profile, the OutputIntent and the PDF/X keys written by pdfwrite's pdfmarks.

Ghostscript's pdfwrite (10.0) converts to CMYK with the *default* CMYK profile of its profile
folder and does not take -sOutputICCProfile for that, so each conversion runs with a private
profile folder: Ghostscript's own profiles, with the vendor's profile as default_cmyk.icc.
Dates come from SOURCE_DATE_EPOCH (default 2000-01-01, as reportlab's invariant documents), so
the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

from pipeline.shops.vendors import Colour

EPOCH = "946684800"  # 2000-01-01T00:00:00Z
X1A = "PDF/X-1a:2003"
X4 = "PDF/X-4"
GS_PROFILE_DIRS = (  # where distributions put Ghostscript's own ICC profiles
    "/usr/share/color/icc/ghostscript",
    "/usr/share/ghostscript/iccprofiles",
    "/usr/local/share/ghostscript/iccprofiles",
    "/opt/homebrew/share/ghostscript/iccprofiles",
)


class GhostscriptError(RuntimeError):
    """Ghostscript is missing or failed (the message says what to do)."""


@cache
def executable() -> str:
    found = shutil.which("gs")
    if found is None:
        raise GhostscriptError(
            "Ghostscript (gs) converts colour for the PDF/X outputs and is not installed: "
            "apt-get install ghostscript (or your system's package)")
    return found


@cache
def version() -> str:
    run = subprocess.run([executable(), "--version"], capture_output=True, text=True,
                         check=False)
    return run.stdout.strip()


@cache
def stock_profiles() -> Path:
    """Ghostscript's own ICC profile folder."""
    candidates = [Path(p) for p in GS_PROFILE_DIRS]
    prefix = Path(executable()).resolve().parent.parent
    candidates += sorted((prefix / "share" / "ghostscript").glob("*/iccprofiles"))
    for folder in candidates:
        if (folder / "default_rgb.icc").is_file():
            return folder
    raise GhostscriptError("cannot find Ghostscript's ICC profiles (default_rgb.icc) in "
                           + ", ".join(str(c) for c in candidates))


def profile_folder(icc: Path, cache_dir: Path) -> Path:
    """Ghostscript's profiles with `icc` as the default CMYK profile, in the cache. The path
    is absolute: Ghostscript runs in its own work folder (a relative --cache, the default
    build/.cache, would name nothing there)."""
    digest = hashlib.sha256(icc.read_bytes()).hexdigest()[:16]
    cache_dir = cache_dir.resolve()
    folder = cache_dir / "gs-icc" / digest
    if (folder / "default_cmyk.icc").is_file():
        return folder
    staging = Path(tempfile.mkdtemp(prefix=".gs-icc-", dir=cache_dir))
    for path in stock_profiles().glob("*.ic[cm]"):
        shutil.copyfile(path, staging / path.name)
    shutil.copyfile(icc, staging / "default_cmyk.icc")
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(staging, folder)
    except OSError:  # another build made it first
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _ps_string(text: str) -> str:
    """A PostScript string for a pdfmark: UTF-16BE with a byte order mark, in hex."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


def _pdfmarks(standard: str, title: str, colour: Colour, icc_name: str) -> str:
    return f"""%!
[ /GTS_PDFXVersion ({standard}) /Title {_ps_string(title)} /Trapped /False /DOCINFO pdfmark
[/_objdef {{icc_PDFX}} /type /stream /OBJ pdfmark
[{{icc_PDFX}} << /N 4 >> /PUT pdfmark
[{{icc_PDFX}} ({icc_name}) (r) file /PUT pdfmark
[/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark
[{{OutputIntent_PDFX}} <<
  /Type /OutputIntent /S /GTS_PDFX /DestOutputProfile {{icc_PDFX}}
  /OutputConditionIdentifier {_ps_string(colour.condition_id)}
  /OutputCondition {_ps_string(colour.condition)}
  /RegistryName {_ps_string(colour.registry)}
  /Info {_ps_string(colour.condition)}
>> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{OutputIntent_PDFX}} ] >> /PUT pdfmark
"""


def convert(source: Path, target: Path, standard: str, title: str, colour: Colour,
            cache_dir: Path) -> None:
    """`source` (a PDF of RGB pages) as a PDF/X file at `target`.

    PDF/X-1a:2003: every colour converted to DeviceCMYK with the colour profile, PDF 1.3.
    PDF/X-4: colours kept as ICC-based sRGB (the shop converts), PDF 1.6, XMP with the
    PDF/X version."""
    folder = profile_folder(colour.icc, cache_dir)
    with tempfile.TemporaryDirectory(prefix=".relic-gs-", dir=target.parent) as work:
        work_dir = Path(work)
        # fixed relative names, run inside the folder: Ghostscript's document ID and its
        # %%Invocation line depend on the file names it is given
        (work_dir / "pdfx.ps").write_text(
            _pdfmarks(standard, title, colour, str(folder / "default_cmyk.icc")), "ascii")
        shutil.copyfile(source, work_dir / "in.pdf")
        out = work_dir / "out.pdf"
        if standard == X1A:
            colour_args = ["-dPDFX", "-dCompatibilityLevel=1.3",
                           "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK"]
        else:
            colour_args = ["-dCompatibilityLevel=1.6",
                           "-sColorConversionStrategy=UseDeviceIndependentColor"]
        command = [executable(), "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER",
                   f"--permit-file-read={folder}/", f"-sICCProfilesDir={folder}/",
                   "-sDEVICE=pdfwrite", *colour_args, "-dEmbedAllFonts=true",
                   "-dAutoRotatePages=/None", "-sOutputFile=out.pdf", "pdfx.ps", "in.pdf"]
        env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", EPOCH)}
        run = subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                             cwd=work_dir)
        if run.returncode != 0 or not out.is_file():
            detail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise GhostscriptError(f"Ghostscript could not write {target.name}: "
                                   + " / ".join(detail))
        if standard == X4:
            _add_xmp(out, title, env["SOURCE_DATE_EPOCH"])
        os.replace(out, target)


def _add_xmp(path: Path, title: str, epoch: str) -> None:
    """PDF/X-4 wants its version in the XMP metadata (pdfxid), which pdfwrite does not write."""
    from pypdf import PdfReader, PdfWriter

    when = datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    uuid = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    xmp = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{when}</xmp:CreateDate>
   <xmp:ModifyDate>{when}</xmp:ModifyDate>
   <xmp:MetadataDate>{when}</xmp:MetadataDate>
   <xmp:CreatorTool>Relic Press</xmp:CreatorTool>
   <xmpMM:DocumentID>uuid:{uuid}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{uuid}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdf:Producer>{escape(version_line())}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{X4}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = reader.pdf_header  # 1.6, as Ghostscript wrote it
    writer.xmp_metadata = xmp.encode("utf-8")
    with path.open("wb") as handle:
        writer.write(handle)


def version_line() -> str:
    return f"GPL Ghostscript {version()}"


INK_DPI = 36  # coarse: ink_cov averages the page, so the resolution hardly changes the figure


def ink_per_page(path: Path, dpi: int = INK_DPI) -> list[float]:
    """Total ink of every page of a CMYK PDF in percent (C + M + Y + K, each averaged over the
    page), as Ghostscript's ink_cov device measures it."""
    run = subprocess.run([executable(), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE",
                          "-sDEVICE=ink_cov", f"-r{dpi}", "-o", "-", path.name],
                         capture_output=True, text=True, check=False, cwd=path.parent)
    pages = []
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[-1] == "OK":  # C M Y K CMYK OK
            pages.append(sum(float(v) for v in parts[:4]))
    if run.returncode != 0 or not pages:
        detail = (run.stderr or run.stdout).strip().splitlines()[-3:]
        raise GhostscriptError(f"Ghostscript could not measure the ink of {path.name}: "
                               + " / ".join(detail))
    return pages
