"""Check plug-in: what `relic build --shop` and `relic export tts` would refuse in a pack's own
vendor profiles (print/vendors/*.yaml) and TTS layout (print/tts.yaml), refused first.

The project's own profiles (templates/print/) are checked by the tests; a pack without a print
profile is not built, so it is not checked here.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic, RelicError
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    if not model.pack.print_profile:
        return []
    from pipeline.export.tts import load_tts
    from pipeline.shops.vendors import read_vendor

    out: list[Diagnostic] = []
    print_folder = model.pack.root / "print"
    for path in sorted((print_folder / "vendors").glob("*.yaml")):
        try:
            read_vendor(path.stem, path)
        except RelicError as exc:
            out += exc.diagnostics
    if (print_folder / "tts.yaml").is_file():
        try:
            load_tts(model.pack.root)
        except RelicError as exc:
            out += exc.diagnostics
    return out
