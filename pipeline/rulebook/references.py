"""The data references the prose may use: how each is checked and how each prints.

Every reference is validated against the resolved model before anything renders; a failed
validation is an error at the reference's place in the Markdown.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import jinja2
from markupsafe import Markup

from pipeline.diagnostics import Span
from pipeline.model import Entity, Model, split_path
from pipeline.rulebook import views
from pipeline.rulebook.blocks import BlockSpec
from pipeline.rulebook.i18n import LABELS, label
from pipeline.rulebook.page import block_size_pt, block_width_mm
from pipeline.rulebook.record import read_block
from pipeline.rulebook.source import Reference
from pipeline.rulebook.values import PLURALS, fmt, plural

MISSING = object()
MAX_THUMBS = 8
PAGE_OPEN, PAGE_CLOSE = "\ue010", "\ue011"


def page_mark(target: str) -> str:
    """Where the page number of section (or anchor) `target` goes; the book fills it in once
    its pages are laid out."""
    return f"{PAGE_OPEN}{target}{PAGE_CLOSE}"


class RefError(Exception):
    """A reference that does not resolve: message and optional hint."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class Context:
    """What references need: the model, the language and the book's own section ids."""

    model: Model
    lang: str
    env: jinja2.Environment
    sections: Mapping[str, str] = field(default_factory=dict)
    figures: views.Figures = field(default_factory=views.Figures)
    proof: bool = False
    decisions: Mapping[str, str] = field(default_factory=dict)
    places: Mapping[str, Span] = field(default_factory=dict)  # section id -> its heading
    here: Span | None = None  # the reference being rendered (set by `render`)
    paper: str = "a5"


@dataclass(frozen=True)
class Spec:
    name: str
    params: tuple[str, ...]
    optional: int
    block: bool
    render: Callable[[Context, tuple[Any, ...]], Markup]
    doc: str


def did_you_mean(word: str, choices: list[str]) -> str | None:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def entity(ctx: Context, entity_id: Any, kind: str | None = None) -> Entity:
    if not isinstance(entity_id, str):
        raise RefError(f"an entity id must be a string, not {entity_id!r}")
    found = ctx.model.by_id.get(entity_id)
    if found is None:
        pool = [e.id for e in ctx.model.entities if kind is None or e.kind == kind]
        raise RefError(f"unknown entity '{entity_id}'", did_you_mean(entity_id, pool))
    if kind is not None and found.kind != kind:
        raise RefError(f"'{entity_id}' is a {found.kind}, not a {kind}")
    return found


def value(ctx: Context, e: Entity, path: Any) -> Any:
    if not isinstance(path, str) or not path:
        raise RefError(f"a field path must be a non-empty string, not {path!r}")
    if path == "count":
        return e.count
    got = e.get(path, MISSING)
    if got is MISSING:
        known = sorted(_paths(e.data))
        raise RefError(f"'{e.id}' has no field '{path}'", did_you_mean(path, known))
    return got


def _paths(data: Any, prefix: str = "") -> list[str]:
    out = []
    if isinstance(data, Mapping):
        for k, v in data.items():
            out.append(prefix + str(k))
            out += _paths(v, f"{prefix}{k}.")
    elif isinstance(data, tuple):
        for i, v in enumerate(data):
            out.append(f"{prefix}{i}")
            out += _paths(v, f"{prefix}{i}.")
    return out


def provisional_reason(e: Entity, path: str = "") -> str | None:
    """Why a value (or anything inside an entity when path is "") is a design decision."""
    marks = e.provisional
    if "" in marks:
        return marks[""]
    want = split_path(path)
    for key, reason in marks.items():
        have = split_path(key)
        if not path or want[: len(have)] == have or have[: len(want)] == want:
            return reason
    return None


def mark(ctx: Context, html: Markup, reason: str | None, block: bool = False) -> Markup:
    """Provisional values: a class for the proof build, with the reason as a footnote."""
    if reason is None:
        return html
    tag = "div" if block else "span"
    note = Markup('<span class="prov-note">{}: {}</span>').format(
        label("provisional", ctx.lang), reason
    ) if ctx.proof else Markup("")
    return Markup('<{0} class="provisional">{1}{2}</{0}>').format(Markup(tag), html, note)


# ----- the references ------------------------------------------------------------------------


def r_stat(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0])
    got = value(ctx, e, args[1])
    structured = isinstance(got, Mapping) and not any(k in got for k in ctx.model.pack.languages)
    if structured and not all(isinstance(v, str | int | float) for v in got.values()):
        raise RefError(f"'{e.id}.{args[1]}' is a structure; name one of its fields")
    text = Markup('<span class="data">{}</span>').format(fmt(got, ctx.model, ctx.lang))
    return mark(ctx, text, provisional_reason(e, args[1]))


def r_add(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """The sum of numbers named "entity-id.dotted.path" (for worked examples)."""
    total = 0
    reasons = []
    for arg in args:
        if not isinstance(arg, str) or "." not in arg:
            raise RefError(f"add() takes \"entity-id.field.path\" strings, not {arg!r}")
        entity_id, path = arg.split(".", 1)
        e = entity(ctx, entity_id)
        got = value(ctx, e, path)
        if isinstance(got, bool) or not isinstance(got, int | float):
            raise RefError(f"'{arg}' is not a number")
        total += got
        reasons.append(provisional_reason(e, path))
    text = Markup('<span class="data">{}</span>').format(fmt(total, ctx.model, ctx.lang))
    return mark(ctx, text, next((r for r in reasons if r), None))


def r_amount(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """A number with its noun in the right form: amount("statue-move", "actions", "actions")."""
    e = entity(ctx, args[0])
    got = value(ctx, e, args[1])
    noun = args[2]
    if noun not in PLURALS:
        raise RefError(f"unknown noun '{noun}'", did_you_mean(str(noun), sorted(PLURALS)))
    if isinstance(got, bool) or not isinstance(got, int):
        raise RefError(f"'{e.id}.{args[1]}' is not a whole number")
    words = plural(abs(got), noun, ctx.lang).partition(" ")[2]
    shown = fmt(got, ctx.model, ctx.lang)
    html = Markup('<span class="data">{}</span>&nbsp;{}').format(shown, words)
    return mark(ctx, html, provisional_reason(e, args[1]))


def r_name(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0])
    if not isinstance(e.get("name"), Mapping):
        raise RefError(f"'{e.id}' has no name")
    return Markup('<span class="name">{}</span>').format(fmt(e.get("name"), ctx.model, ctx.lang))


def r_text(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0])
    path = args[1] if len(args) > 1 else "text"
    got = value(ctx, e, path)
    if not isinstance(got, Mapping) or ctx.model.pack.source_language not in got:
        raise RefError(f"'{e.id}.{path}' is not a localized text")
    html = Markup('<span class="quote">{}</span>').format(fmt(got, ctx.model, ctx.lang))
    return mark(ctx, html, provisional_reason(e, path))


def _block(ctx: Context, template: str, e: Entity | None, **view: Any) -> Markup:
    labels = LABELS.get(ctx.lang, LABELS["en"])
    html = Markup(ctx.env.get_template(template).render(lang=ctx.lang, l=labels, **view).strip())
    reason = provisional_reason(e) if e is not None else None
    return mark(ctx, html, reason, block=True)


def r_table(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0], "table")
    return _block(ctx, "table.html.j2", e, t=views.table_view(ctx.model, e, ctx.lang))


def r_monster(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """A monster's stat block: its picture in the chapter, its name and data drawn apart
    (`blocks.py`). What its words read of the model is kept apart from what the prose read
    (`record.read_block`), so that a new value of the same size lays nothing out."""
    e = entity(ctx, args[0], "monster")
    thumb = ctx.figures.use(ctx.model, e.id, ctx.lang, "block")
    spec = BlockSpec("monster", e.id, ctx.lang,
                     block_width_mm(ctx.paper, views.PICTURE_MM["block"] if thumb else None),
                     block_size_pt(ctx.paper))
    block, read = read_block(ctx.model, spec)
    assert block is not None  # (`entity` found it)
    return _block(ctx, "monster.html.j2", e,
                  m={"id": e.id, "thumb": thumb, "drawn": ctx.figures.block(block, read)})


def r_matrix(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0], "matrix")
    return _block(ctx, "matrix.html.j2", e,
                  t=views.matrix_view(ctx.model, e, ctx.lang, ctx.paper))


def r_character(ctx: Context, args: tuple[Any, ...]) -> Markup:
    e = entity(ctx, args[0], "character")
    view = views.character_view(ctx.model, e, ctx.lang,
                                ctx.figures.use(ctx.model, e.id, ctx.lang, "block"))
    return _block(ctx, "character.html.j2", e, c=view)


def _kind(ctx: Context, kind: Any) -> str:
    kinds = ctx.model.kinds()
    if not isinstance(kind, str) or kind not in kinds:
        raise RefError(f"no entity of kind '{kind}' in the pack", did_you_mean(str(kind), kinds))
    return kind


def r_components(ctx: Context, args: tuple[Any, ...]) -> Markup:
    kinds = [_kind(ctx, args[0])] if args else None
    rows = views.components_view(ctx.model, ctx.lang, kinds)
    return _block(ctx, "components.html.j2", None, rows=rows)


def r_list_table(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """Every entity of a kind as a row: its name, then the named fields (dotted paths)."""
    kind = _kind(ctx, args[0])
    entities = ctx.model.of_kind(kind)
    fields = list(args[1:])
    for f in fields:
        if not isinstance(f, str) or not any(e.get(f, MISSING) is not MISSING for e in entities):
            known = sorted({p for e in entities for p in _paths(e.data)})
            raise RefError(f"no {kind} has a field '{f}'", did_you_mean(str(f), known))
    view = views.list_view(ctx.model, kind, fields, ctx.lang)
    reasons = [provisional_reason(e, f) for e in entities for f in fields]
    return mark(ctx, _block(ctx, "list.html.j2", None, t=view),
                next((r for r in reasons if r), None), block=True)


def r_thumbnails(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """Pictures of the printed components of a kind, or of the named entities."""
    if len(args) == 1 and args[0] in ctx.model.kinds() and args[0] not in ctx.model.by_id:
        ids = [e.id for e in ctx.model.of_kind(args[0])]
    else:
        ids = [entity(ctx, a).id for a in args]
    if not ids:
        raise RefError("thumbnails() needs a kind or entity ids")
    pics: list[dict[str, Any]] = []
    names: set[str] = set()
    for i in ids:
        name = views.name_of(ctx.model, ctx.model.by_id[i], ctx.lang)
        if len(pics) >= MAX_THUMBS or name in names:  # identical fronts once
            continue
        pic = ctx.figures.use(ctx.model, i, ctx.lang, "strip")
        if pic is not None:
            names.add(name)
            pics.append(pic)
    if not pics:
        return Markup("")
    return _block(ctx, "thumbnails.html.j2", None, pics=pics)


def r_legend(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """An entity's icon legend (its `legend` rows: an icon and its caption), the icons drawn
    from the same SVGs the cards print."""
    from pipeline.cards.faces.icons import ICONS

    e = entity(ctx, args[0])
    rows = e.get("legend", MISSING)
    if rows is MISSING or not isinstance(rows, (list, tuple)) or not rows:
        raise RefError(f"'{e.id}' has no legend (a list of icon and text rows)")
    items = []
    for row in rows:
        icon = row.get("icon") if isinstance(row, Mapping) else None
        path = ICONS / f"{icon}.svg"
        if not isinstance(icon, str) or not path.is_file():
            known = sorted(p.stem for p in ICONS.glob("*.svg"))
            raise RefError(f"'{e.id}': no icon '{icon}' in assets/icons",
                           did_you_mean(str(icon), known))
        items.append({"src": path.resolve().as_uri(),
                      "text": fmt(row.get("text"), ctx.model, ctx.lang)})
    return _block(ctx, "legend.html.j2", e, items=items)


def r_decision(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """Marks a sentence that states a decision of the trace: invisible except in the proof."""
    found = ctx.decisions.get(args[0]) if isinstance(args[0], str) else None
    if found is None:
        raise RefError(f"no decision '{args[0]}' in the pack's trace files",
                       did_you_mean(str(args[0]), sorted(ctx.decisions)))
    if not ctx.proof:
        return Markup("")
    return Markup('<span class="provisional decision"><span class="prov-note">{} ({}): {}'
                  "</span></span>").format(label("provisional", ctx.lang), args[0], found)


def _section(ctx: Context, target: Any) -> str:
    if not isinstance(target, str) or target not in ctx.sections:
        raise RefError(
            f"no section with id '{target}' in the {ctx.lang} book",
            did_you_mean(str(target), sorted(ctx.sections)),
        )
    return target


def nearby(ctx: Context, target: str) -> str | None:
    """"below" or "above" when the section is in the chapter the reference is in, else None.

    A chapter starts on a new page, so a reference to a section of another chapter is never on
    the page it points at; inside its own chapter it may be, and a page number there would
    point the reader at the page they are reading. So references inside a chapter say where
    the section is, and references across chapters give the page.
    """
    place = ctx.places.get(target)
    if place is None or ctx.here is None or place.file != ctx.here.file:
        return None
    return "below" if place.line > ctx.here.line else "above"


def r_see(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """"see p. N" (another chapter) or "see below" / "see above" (the same chapter)."""
    target = _section(ctx, args[0])
    where = nearby(ctx, target)
    if where is not None:
        return Markup('<a class="see-near" href="#{}">{}</a>').format(
            target, label(f"see_{where}", ctx.lang))
    return Markup('<a class="see" href="#{}" data-page="{}">{}&nbsp;</a>').format(
        target, page_mark(target), label("see", ctx.lang))


def r_page(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """"p. N" (another chapter) or "below" / "above" (the same chapter), for prose that
    already says "see" or names the section: "… in “The end of the game”, p. 41"."""
    target = _section(ctx, args[0])
    where = nearby(ctx, target)
    if where is not None:
        return Markup('<a class="see-near" href="#{}">{}</a>').format(
            target, label(where, ctx.lang))
    return Markup('<a class="see" href="#{}" data-page="{}">{}&nbsp;</a>').format(
        target, page_mark(target), label("page", ctx.lang))


def r_title(ctx: Context, args: tuple[Any, ...]) -> Markup:
    """The title of a section, as a link."""
    target = _section(ctx, args[0])
    return Markup('<a class="title-ref" href="#{}">{}</a>').format(target, ctx.sections[target])


SPECS: dict[str, Spec] = {
    s.name: s
    for s in (
        Spec("stat", ("entity", "field"), 0, False, r_stat,
             "one value of an entity, e.g. stat(\"zombie\", \"stats.speed\")"),
        Spec("value", ("entity", "field"), 0, False, r_stat, "the same as stat()"),
        Spec("add", ("entity.field", "entity.field"), 98, False, r_add,
             "the sum of several numbers, e.g. add(\"crevice-shallow-1.width\", "
             "\"crevice-jump.cells_add\")"),
        Spec("amount", ("entity", "field", "noun"), 0, False, r_amount,
             "a whole number with its noun in the right form, e.g. "
             "amount(\"statue-move\", \"actions\", \"actions\") -> \"2 действия\""),
        Spec("name", ("entity",), 0, False, r_name, "an entity's name"),
        Spec("text", ("entity", "field"), 1, False, r_text,
             "a localized text of an entity (default field: text)"),
        Spec("table", ("table",), 0, True, r_table, "a roll table with its rows"),
        Spec("monster_block", ("monster",), 0, True, r_monster, "a monster's stat block"),
        Spec("matrix", ("matrix",), 0, True, r_matrix, "the monster-versus-obstacle matrix"),
        Spec("character_stats", ("character",), 0, True, r_character, "a character board"),
        Spec("components", ("kind",), 1, True, r_components,
             "the component list with counts (all printed kinds, or one kind)"),
        Spec("list_table", ("kind", "field"), 98, True, r_list_table,
             "every entity of a kind with the named fields, e.g. "
             "list_table(\"item\", \"price\", \"hands\", \"backpack\")"),
        Spec("thumbnails", ("kind-or-entity",), 99, True, r_thumbnails,
             "pictures of rendered components (left out when none were built)"),
        Spec("legend", ("entity",), 0, True, r_legend,
             "an entity's icon legend: every icon of its `legend` with its caption"),
        Spec("see", ("section",), 0, False, r_see,
             "a cross-reference: \"see p. N\" (\"see below\" inside the same chapter)"),
        Spec("page", ("section",), 0, False, r_page,
             "a page reference without \"see\": \"p. N\" (\"below\" inside the chapter)"),
        Spec("decision", ("decision-id",), 0, False, r_decision,
             "marks a rule decided by the pack (trace.yaml decisions); shown only in the proof"),
        Spec("title", ("section",), 0, False, r_title, "a section's title as a link"),
    )
}


def check_arity(ref: Reference) -> None:
    spec = SPECS.get(ref.name)
    if spec is None:
        raise RefError(f"unknown reference '{ref.name}'", did_you_mean(ref.name, sorted(SPECS)))
    need = len(spec.params) - min(spec.optional, len(spec.params))
    most = len(spec.params) + max(0, spec.optional - len(spec.params))
    if not need <= len(ref.args) <= most:
        shown = ", ".join(spec.params)
        raise RefError(f"{ref.name}() takes ({shown}); got {len(ref.args)} argument(s)")


def render(ctx: Context, ref: Reference) -> Markup:
    """The reference's HTML, or `RefError`."""
    check_arity(ref)
    return SPECS[ref.name].render(replace(ctx, here=ref.span), ref.args)


def explained_kinds(ctx: Context, ref: Reference) -> set[str]:
    """The entity kinds a (valid) reference shows to the reader."""
    kinds: set[str] = set()
    for arg in ref.args[:1] if ref.name not in ("thumbnails",) else ref.args:
        if not isinstance(arg, str):
            continue
        if arg in ctx.model.by_id:
            kinds.add(ctx.model.by_id[arg].kind)
        elif ref.name in ("components", "thumbnails"):
            kinds.add(arg)
    return kinds
