"""`relic build`: a pack's model -> print-ready files, in stages with typed results.

    Model -> Components (one per physical copy)     components.expand
          -> fonts and glyphs checked                fonts
          -> faces measured, sized per deck, drawn   render.render_faces (faces/: layouts)
          -> Layout (sheets, placements in mm)       layout.layout
          -> PDF sheets, shop PDFs, PNGs, manifest   impose, write, outputs
          -> cache files unused for weeks removed    prune

Problems are collected and reported once as a RelicError; nothing half-written is left behind.
"""

from __future__ import annotations

import pickle
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pipeline.cards.rlsettings  # noqa: F401 - before any reportlab import
from pipeline.cards.components import Component, Components, canonical, expand, printed_text
from pipeline.cards.fonts import FontError, faces_for, missing_glyphs
from pipeline.cards.formats import PROJECT_ROOT, Format, Profile, Sheet, load_labels, load_profile
from pipeline.cards.layout import LAYOUT_VERSION, Layout, layout
from pipeline.cards.progress import Progress
from pipeline.cards.prune import KEEP_DAYS, Pruned, mark_used, prune
from pipeline.cards.render import Workers
from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative
from pipeline.model import Model, thaw

__all__ = ["BuildOptions", "BuildResult", "PrintSet", "build", "preflight", "prepare"]

LAYOUTS_DIR = PROJECT_ROOT / "templates" / "layouts"


@dataclass(frozen=True)
class BuildOptions:
    out_root: Path  # files go to <out_root>/<lang>/
    cache_dir: Path
    langs: tuple[str, ...] = ()  # empty: every language of the pack
    paper: str | None = None
    duplex: bool = True  # False: only the variant with backs on separate sheets
    proof: bool = False
    png: bool = False  # 300-DPI PNGs of every component (opt-in: `relic build --png`)
    workers: int = 1
    batch_size: int = 40  # faces per drawing job (outputs do not depend on it)
    keep_cache_days: float = KEEP_DAYS  # cache files no build used for longer are removed
    pdf: bool = True  # False: no sheets or shop files, only PNGs and the manifest (live preview)
    # Hooks for other outputs of the same faces (print shops, virtual tables): `adjust` turns
    # the pack's profile into the one the faces are drawn with (a vendor's bleed and trim
    # sizes: the faces are drawn again at them, never scaled); `writer` replaces
    # write.write_all for each language, with the same arguments, and returns the folder.
    # Both must be picklable (module-level functions or functools.partial of them).
    adjust: Callable[[Profile], Profile] | None = None
    writer: Callable[..., Path] | None = None


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
    stages: tuple[tuple[str, float], ...] = ()  # (stage, seconds): drawing, writing
    # (stage, CPU seconds of this process and of the workers it waited for): the imposition
    # tail's own cost, whatever the cores did meanwhile
    cpu: tuple[tuple[str, float], ...] = ()

    @property
    def faces(self) -> int:
        """Distinct faces (a component's copies share theirs): what was actually drawn."""
        return sum(r.faces for r in self.langs)

    @property
    def components(self) -> int:
        return sum(r.components for r in self.langs)

    @property
    def rendered(self) -> int:
        return sum(r.rendered for r in self.langs)


@dataclass(frozen=True)
class PrintSet:
    """What every later stage needs of a pack's print set, worked out once per build: the
    profile, the components of each language built, the layouts' own text, and the charset (it
    spans every language, so `--lang ru` gives the same bytes as `--lang all` and the languages
    share one set of font subsets). The rulebook's component pictures are drawn from the very
    same (`rulebook.pictures.FacePictures`)."""

    profile: Profile
    langs: tuple[str, ...]  # the languages to build
    expanded: Mapping[str, Components]  # every language built
    layout_text: str
    charset: str


def prepare(model: Model, options: BuildOptions) -> PrintSet:
    """The print set of one build, its fonts checked against every character the requested
    languages print (RelicError on a missing font or glyph)."""
    from pipeline.cards.faces.spec import remember_checked_layouts
    from pipeline.cards.formats import ENTRIES

    remember_checked_layouts(options.cache_dir)
    profile = load_profile(model.pack, options.paper)
    if options.adjust is not None:
        profile = options.adjust(profile)
    langs = _languages(model, options)
    labels = {lang: load_labels(model.pack, lang) for lang in model.pack.languages}
    expanded = {lang: expand(model, profile, lang, options.proof, labels[lang])
                for lang in langs}
    layout_text = _layout_text(model, profile)
    mark_used(*(e for e in ENTRIES if e.is_file() and options.cache_dir in e.parents))
    chars = charset(layout_text, "".join(printed_text(model, profile)),
                    *(canonical(thaw(found)) for found in labels.values()))
    for lang in langs:
        check_fonts(model, profile, expanded[lang], layout_text)
    return PrintSet(profile, langs, expanded, layout_text, chars)


def build(model: Model, options: BuildOptions, progress: Progress | None = None,
          workers: Workers | None = None, print_set: PrintSet | None = None,
          drawn: Callable[[], None] | None = None) -> BuildResult:
    """Every stage in order, for every requested language. `workers`: render processes the
    caller started early (`Workers(options.workers)`), else they start when needed;
    `print_set`: what `prepare(model, options)` gave the caller, else worked out here;
    `drawn`: called once every face is drawn (and in the render cache), before the files are
    written."""
    started, began = time.perf_counter(), time.time() - 1  # 1 s: file times are coarse
    progress = progress or Progress(quiet=True)
    print_set = print_set or prepare(model, options)
    profile, langs, expanded = print_set.profile, print_set.langs, print_set.expanded
    chars = print_set.charset
    drawing, drawing_cpu = time.perf_counter(), _cpu()
    rendered, fresh = _render(model, profile, {lang: expanded[lang] for lang in langs}, chars,
                              options, progress, workers)
    if drawn is not None:
        drawn()
    writing, writing_cpu = time.perf_counter(), _cpu()
    layouts = {lang: {fmt: _layout(expanded[lang].of_format(fmt), profile.formats[fmt],
                                   profile.sheet)
                      for fmt in (expanded[lang].formats() if options.pdf else ())}
               for lang in langs}
    from pipeline.cards.faces.text import font_set
    from pipeline.cards.write import PackMeta, write_langs

    # the writers embed the faces' fonts: register them here too, even when every face came
    # from the cache (then no face was drawn in this process)
    font_set(tuple(sorted(profile.fonts.items())))
    meta = PackMeta(model.pack.id, dict(model.pack.title), model.pack.source_language, chars)
    folders = write_langs(meta, profile, {lang: expanded[lang] for lang in langs}, layouts,
                          rendered, options, progress)
    results = tuple(
        LangResult(lang, folders[lang], len(expanded[lang].items), len(expanded[lang].faces),
                   sum(1 for key in expanded[lang].faces if key in fresh))
        for lang in langs)
    done, done_cpu = time.perf_counter(), _cpu()
    pruned = prune(options.cache_dir, options.keep_cache_days, now=began)
    stages = (("drawing", writing - drawing), ("writing", done - writing))
    cpu = (("drawing", writing_cpu - drawing_cpu), ("writing", done_cpu - writing_cpu))
    return BuildResult(results, time.perf_counter() - started, pruned, stages, cpu)


def _layout(components: tuple[Component, ...], fmt: Format, sheet: Sheet) -> Layout:
    """The format's sheets (duplex order), kept in the build's cache under exactly what they
    are made of: after a one-card edit only that card's format is laid out again."""
    from pipeline.cards.kept import kept

    source = pickle.dumps((components, fmt, sheet), protocol=5)
    return kept("sheet-layouts", source, LAYOUT_VERSION,
                lambda: layout(components, fmt, sheet, duplex=True))


def _cpu() -> float:
    """CPU seconds of this process and of every worker process it has waited for."""
    import resource

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def preflight(model: Model) -> list[Diagnostic]:
    """What `build` would refuse, found without drawing or writing anything: the print profile
    and its layouts, the fonts and their glyphs, and every text box of every face of every
    language set at the smallest size it may take (text that cannot fit is an error at the
    field it prints)."""
    from pipeline.cards import render

    try:
        profile = load_profile(model.pack)
        expanded = {lang: expand(model, profile, lang, False, load_labels(model.pack, lang))
                    for lang in model.pack.languages}
        layout_text = _layout_text(model, profile)
        for components in expanded.values():
            check_fonts(model, profile, components, layout_text)
    except RelicError as exc:
        return list(exc.diagnostics)
    faces = []
    for lang, components in expanded.items():
        settings = render.RenderSettings.of(profile, components, lang, charset="",
                                            pack_root=str(model.pack.root.resolve()),
                                            cache_dir="")
        faces += [(face, settings) for face in components.faces.values()]
    found, stopped = measure_faces(faces)
    if stopped is not None:
        return stopped
    out: dict[tuple, Diagnostic] = {}
    for entity_id, code, message, field, lang in found:
        d = _diagnostic(model, entity_id, code, message, field, lang)
        out.setdefault((d.code, d.message, d.span), d)
    return sorted(out.values(), key=lambda d: d.sort_key())


SHARED_FROM = 400
"""From this many faces on, the preflight measures them on every core: this process takes the
first share and forked processes (they inherit the faces) the others."""

_MEASURING: list = []  # the faces being measured, inherited by the forked measurers
Measured = tuple[list[tuple], list[Diagnostic] | None]


def measure_faces(faces: list) -> Measured:
    """Every (face, settings) measured: the problems found, as (entity id, code, message,
    field, language) in the faces' order, and the diagnostics of the first face whose error
    stops measuring (None if none did): the one a measurement in order would stop at."""
    from pipeline.processes import default_workers

    parts = default_workers() if len(faces) >= SHARED_FROM else 1
    if parts <= 1:
        return _measured(faces, 0, len(faces))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    bounds = [len(faces) * k // parts for k in range(parts + 1)]
    _MEASURING[:] = faces
    try:
        with ProcessPoolExecutor(parts - 1, mp_context=multiprocessing.get_context("fork")
                                 ) as pool:
            others = [pool.submit(_measured_share, bounds[k], bounds[k + 1])
                      for k in range(1, parts)]
            shares = [_measured(faces, bounds[0], bounds[1]),
                      *(share.result() for share in others)]
    finally:
        _MEASURING.clear()
    stopped = next((s for _, s in shares if s is not None), None)
    return [p for found, _ in shares for p in found], stopped


def _measured_share(start: int, stop: int) -> Measured:
    return _measured(_MEASURING, start, stop)


def _measured(faces: list, start: int, stop: int) -> Measured:
    from pipeline.cards import render

    out = []
    for face, settings in faces[start:stop]:
        try:
            measured = render.measure_face(face, settings)
        except RelicError as exc:
            return out, list(exc.diagnostics)
        out += [(face.entity_id, p.code, p.message, p.field, settings.lang)
                for p in measured.problems]
    return out, None


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
    """Every face of every language drawn (and rasterized with --png); problems raise once."""
    from pipeline.cards import render

    work = []
    for lang, components in expanded.items():
        base = render.RenderSettings.of(
            profile, components, lang, charset=chars, pack_root=str(model.pack.root.resolve()),
            cache_dir=str(options.cache_dir.resolve()), png=options.png)
        work.append((list(components.faces.values()), replace(base, salt=base.key())))
    count = sum(len(faces) for faces, _ in work)
    progress.start(f"drawing {count} faces ({', '.join(expanded)})", count)
    try:
        rendered, outcome = render.render_faces(work, options.workers, progress.advance,
                                                options.batch_size, workers)
    finally:
        if workers is not None:
            workers.close()  # drawing is their only use: free the cores for writing
    progress.finish()
    report = [_diagnostic(model, p.entity_id, p.code, p.message, p.field, p.lang)
              for p in outcome.problems]
    if report:
        raise RelicError(sorted(set(report), key=lambda d: d.sort_key()))
    return rendered, {r.key for r in outcome.rendered}


def _layout_text(model: Model, profile: Profile) -> str:
    """The text of every layout the profile names (their own characters are printed too)."""
    from pipeline.cards.faces import layouts_text

    names = set()
    for spec in profile.kinds:
        names |= {spec.template, *(v.template for v in spec.variants if v.template)}
        names |= {f"backs/{b}" for b in [spec.back, *(v.back for v in spec.variants)] if b}
    return layouts_text(names, model.pack.root)


def check_fonts(model: Model, profile: Profile, components: Components,
                layout_text: str = "") -> None:
    """Every configured font exists and has a glyph for every character the faces print."""
    try:
        fonts = faces_for(profile.fonts)
    except FontError as exc:
        raise RelicError([error("missing-font", str(exc), model.pack.manifest.span(("print",)),
                                hint="install the font or set print.fonts in pack.yaml")]) from exc
    from pipeline.cards.faces.text import font_set

    font_set(tuple(sorted(profile.fonts.items())))  # the faces' fonts: their maps are read once
    problems: list[Diagnostic] = []
    every = set("".join(face.context for face in components.faces.values()))
    every |= set(layout_text) | set(components.labels)
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
        for ch in sorted(missing & set(layout_text)):  # the layouts' own characters
            problems.append(error(
                "missing-glyph", f"character {ch!r} (U+{ord(ch):04X}) of a layout has "
                f"no glyph in font {font.family} {font.style}", Span(relative(LAYOUTS_DIR))))
        for ch in sorted(missing & set(components.labels)):  # the printed captions'
            problems.append(error(
                "missing-glyph", f"character {ch!r} (U+{ord(ch):04X}) of a printed caption has "
                f"no glyph in font {font.family} {font.style}", _labels_span(model, ch)))
    if problems:
        raise RelicError(problems)


def _labels_span(model: Model, ch: str) -> Span:
    """The labels file that holds `ch`: the pack's own (print/labels.yaml), else the library's."""
    from pipeline.cards.formats import LIBRARY

    own = model.pack.root / "print" / "labels.yaml"
    if own.is_file() and ch in own.read_text(encoding="utf-8"):
        return Span(relative(own))
    return Span(relative(LIBRARY / "labels.yaml"))


def charset(layout_text: str, *texts: str) -> str:
    """Every character any face can print, whatever the language: the pack's printed data
    (`components.printed_text`), the printed captions of every language and the layouts' own
    text."""
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for text in texts:
        chars.update(text)
    chars.update(layout_text)
    chars |= {c for ch in chars for c in ch.upper() + ch.lower()}  # `upper: true`
    chars |= set("\u2212\u2013\u2014\u00d7\u00b7")  # signs the renderer sets itself
    # printable characters only: format characters (bidi isolates, ...) are never drawn
    return "".join(sorted(ch for ch in chars if unicodedata.category(ch)[0] not in "CZ"
                          or ch == " "))


def _diagnostic(model: Model, entity_id: str, code: str, message: str,
                field: str | None = None, lang: str | None = None) -> Diagnostic:
    if entity_id in model.by_id:
        entity = model.by_id[entity_id]
        span = entity.locate(field or "")
        if field:  # a localized text: point at the language that does not fit, if known
            for code_ in (lang, *model.pack.languages):
                if code_ and isinstance(entity.get(f"{field}.{code_}"), str):
                    span = entity.locate(f"{field}.{code_}")
                    break
    else:
        span = Span(model.pack.manifest.display)
    return error(code, f"{entity_id}: {message}", span)
