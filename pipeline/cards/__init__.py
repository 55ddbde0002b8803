"""`relic build`: a pack's model -> print-ready files, in stages with typed results.

    Model -> Components (one per physical copy)     components.expand
          -> fonts and glyphs checked                fonts
          -> rendered faces (cached PDF pages)       render.render_faces
          -> Layout (sheets, placements in mm)       layout.layout
          -> PDF sheets, shop PDFs, PNGs, manifest   impose, outputs
          -> cache files unused for weeks removed    prune

Problems are collected and reported once as a RelicError; nothing half-written is left behind.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.cards.components import Components, expand
from pipeline.cards.fonts import FontError, faces_for, missing_glyphs
from pipeline.cards.formats import PROJECT_ROOT, Profile, load_labels, load_profile
from pipeline.cards.layout import layout
from pipeline.cards.progress import Progress
from pipeline.cards.prune import KEEP_DAYS, Pruned, prune
from pipeline.cards.render import Workers
from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative
from pipeline.model import Model

__all__ = ["BuildOptions", "BuildResult", "build"]

TEMPLATES_DIR = PROJECT_ROOT / "templates" / "cards"


@dataclass(frozen=True)
class BuildOptions:
    out_root: Path  # files go to <out_root>/<lang>/
    cache_dir: Path
    langs: tuple[str, ...] = ()  # empty: every language of the pack
    paper: str | None = None
    duplex: bool = True  # False: only the variant with backs on separate sheets
    proof: bool = False
    png: bool = True
    workers: int = 1
    batch_size: int = 40  # faces per WeasyPrint document (outputs do not depend on it)
    keep_cache_days: float = KEEP_DAYS  # cache files no build used for longer are removed
    pdf: bool = True  # False: no sheets or shop files, only PNGs and the manifest (live preview)


@dataclass(frozen=True)
class LangResult:
    lang: str
    folder: Path
    components: int
    faces: int
    rendered: int


@dataclass(frozen=True)
class BuildResult:
    langs: tuple[LangResult, ...]
    seconds: float
    pruned: Pruned

    @property
    def components(self) -> int:
        return sum(r.components for r in self.langs)

    @property
    def rendered(self) -> int:
        return sum(r.rendered for r in self.langs)


def build(model: Model, options: BuildOptions, progress: Progress | None = None,
          workers: Workers | None = None) -> BuildResult:
    """Every stage in order, for every requested language. `workers`: render processes the
    caller started early (`Workers(options.workers)`), else they start when needed."""
    started, began = time.perf_counter(), time.time() - 1  # 1 s: file times are coarse
    progress = progress or Progress(quiet=True)
    profile = load_profile(model.pack, options.paper)
    langs = _languages(model, options)
    # every language is expanded (cheap): the charset spans them all, so `--lang ru` gives the
    # same bytes as `--lang all` and the languages share one set of font subsets
    expanded = {lang: expand(model, profile, lang, options.proof, load_labels(model.pack, lang))
                for lang in model.pack.languages}
    chars = charset(*expanded.values())
    for lang in langs:
        check_fonts(model, profile, expanded[lang])
    rendered, fresh = _render(model, profile, {lang: expanded[lang] for lang in langs}, chars,
                              options, progress, workers)
    layouts = {lang: {fmt: layout(expanded[lang].of_format(fmt), profile.formats[fmt],
                                  profile.sheet, duplex=True)
                      for fmt in (expanded[lang].formats() if options.pdf else ())}
               for lang in langs}
    from pipeline.cards.write import PackMeta, write_langs

    meta = PackMeta(model.pack.id, dict(model.pack.title), model.pack.source_language)
    folders = write_langs(meta, profile, {lang: expanded[lang] for lang in langs}, layouts,
                          rendered, options, progress)
    results = tuple(
        LangResult(lang, folders[lang], len(expanded[lang].items), len(expanded[lang].faces),
                   sum(1 for key in expanded[lang].faces if key in fresh))
        for lang in langs)
    pruned = prune(options.cache_dir, options.keep_cache_days, now=began)
    return BuildResult(results, time.perf_counter() - started, pruned)


def _languages(model: Model, options: BuildOptions) -> tuple[str, ...]:
    langs = tuple(options.langs or model.pack.languages)
    unknown = [lang for lang in langs if lang not in model.pack.languages]
    if unknown:
        raise RelicError([error("unknown-language", f"the pack has no language {', '.join(unknown)}"
                                f" (it has {', '.join(model.pack.languages)})",
                                model.pack.manifest.span(("languages",)))])
    return langs


def _render(model: Model, profile: Profile, expanded: dict[str, Components], chars: str,
            options: BuildOptions, progress: Progress, workers: Workers | None):
    """Every face of every language as a cached PDF page (and PNG); problems raise once."""
    from pipeline.cards import render

    work = []
    for lang, components in expanded.items():
        base = render.RenderSettings(
            fonts=dict(profile.fonts), min_font_pt=profile.min_font_pt,
            formats=dict(profile.formats), charset=chars,
            pack_root=str(model.pack.root.resolve()),
            cache_dir=str(options.cache_dir.resolve()), lang=lang, png=options.png)
        work.append((list(components.faces.values()), replace(base, salt=base.key())))
    count = sum(len(faces) for faces, _ in work)
    progress.start(f"rendering {count} faces ({', '.join(expanded)})", count)
    try:
        rendered, outcome = render.render_faces(work, options.workers, progress.advance,
                                                options.batch_size, workers)
    finally:
        if workers is not None:
            workers.close()  # rendering is their only use: free the cores for writing
    progress.finish()
    report = [_diagnostic(model, p.entity_id, p.code, p.message) for p in outcome.problems]
    report += [error("unsafe-url", f"refused to fetch {url}", model.pack.manifest.span())
               for url in sorted(set(outcome.refused))]
    if report:
        raise RelicError(report)
    return rendered, {r.key for r in outcome.rendered}


def check_fonts(model: Model, profile: Profile, components: Components) -> None:
    """Every configured font exists and has a glyph for every character the faces print."""
    try:
        fonts = faces_for(profile.fonts)
    except FontError as exc:
        raise RelicError([error("missing-font", str(exc), model.pack.manifest.span(("print",)),
                                hint="install the font or set print.fonts in pack.yaml")]) from exc
    problems: list[Diagnostic] = []
    every = {ch for face in components.faces.values() for ch in face.context}
    every |= {ch for path in TEMPLATES_DIR.rglob("*.j2")
              for ch in path.read_text(encoding="utf-8")}
    for font in fonts:
        missing = set(missing_glyphs(font, every))
        if not missing:
            continue
        reported: set[tuple[str, str]] = set()
        for face in components.faces.values():
            for ch in sorted(missing & set(face.context)):
                if (face.entity_id, ch) in reported:
                    continue
                reported.add((face.entity_id, ch))
                problems.append(_diagnostic(
                    model, face.entity_id, "missing-glyph",
                    f"character {ch!r} (U+{ord(ch):04X}) has no glyph in font {font.family} "
                    f"{font.style} ({font.path})"))
        for path in sorted(TEMPLATES_DIR.rglob("*.j2")):  # the templates' own characters
            for ch in sorted(missing & set(path.read_text(encoding="utf-8"))):
                problems.append(error(
                    "missing-glyph", f"character {ch!r} (U+{ord(ch):04X}) of the template has "
                    f"no glyph in font {font.family} {font.style}",
                    Span(relative(path))))
    if problems:
        raise RelicError(problems)


def charset(*expanded: Components) -> str:
    """Every character any face can print: the faces' data and the templates' own text."""
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for components in expanded:
        for face in components.faces.values():
            chars.update(face.context)
    for path in TEMPLATES_DIR.rglob("*.j2"):
        chars.update(path.read_text(encoding="utf-8"))
    chars |= {c for ch in chars for c in ch.upper() + ch.lower()}  # text-transform, |lower
    chars.add("\u2010")  # the hyphen that `hyphens: auto` inserts
    # every non-control character, spaces included (a batch whose titles have no space would
    # otherwise embed a different subset)
    return "".join(sorted(ch for ch in chars if unicodedata.category(ch)[0] != "C"))


def _diagnostic(model: Model, entity_id: str, code: str, message: str) -> Diagnostic:
    if entity_id in model.by_id:
        span = model.locate(entity_id)
    else:
        span = Span(model.pack.manifest.display)
    return error(code, f"{entity_id}: {message}", span)
