"""Check plug-in: what `relic build` refuses in the print profile, `relic check` refuses first.

For a pack with a print profile (`print:` in pack.yaml), the build's own profile loader is
called rather than copied (`pipeline.cards.formats.load_profile`): its schema, formats, sheets
and paper, templates and backs (`print-schema`, `unknown-format`, `unknown-paper`,
`unknown-template`), and the printed labels of every language. A pack without a print profile
is not built, so it is not checked here.

Not here: fonts and glyphs (`missing-font`, `missing-glyph`), which the build checks on the
expanded components; expanding every component costs about as much as the rest of the check
together (61 s instead of a few for 10,000 cards), so that check waits for a cheaper form.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic, RelicError
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    if not model.pack.print_profile:
        return []
    from pipeline.cards.formats import load_labels, load_profile

    out: list[Diagnostic] = []
    try:
        load_profile(model.pack)
    except RelicError as exc:
        out += exc.diagnostics
    for lang in model.pack.languages:
        try:
            load_labels(model.pack, lang)
        except RelicError as exc:
            out += [d for d in exc.diagnostics if d not in out]
    return out
