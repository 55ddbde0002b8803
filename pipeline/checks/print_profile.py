"""Check plug-in: what `relic build` refuses before it renders, `relic check` refuses first.

For a pack with a print profile (`print:` in pack.yaml), the checks are the build's own, called
rather than copied: the profile loader (`pipeline.cards.formats.load_profile`: its schema,
formats, sheets and paper, templates and backs: `unknown-format`, `unknown-paper`,
`unknown-template`, `print-schema`), the printed labels of every language, the components each
printed kind expands to, and a glyph in the configured fonts for every character they print
(`missing-font`, `missing-glyph`). A pack without a print profile is not built, so it is not
checked here.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic, RelicError
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    if not model.pack.print_profile:
        return []
    from pipeline.cards import check_fonts
    from pipeline.cards.components import expand
    from pipeline.cards.formats import load_labels, load_profile

    try:
        profile = load_profile(model.pack)
        labels = {lang: load_labels(model.pack, lang) for lang in model.pack.languages}
    except RelicError as exc:
        return list(exc.diagnostics)
    out: list[Diagnostic] = []
    for lang in model.pack.languages:
        try:
            check_fonts(model, profile, expand(model, profile, lang, False, labels[lang]))
        except RelicError as exc:
            out += exc.diagnostics
    return out
