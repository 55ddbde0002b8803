"""The rulebook: Markdown chapters + the content model -> a print-ready PDF.

Source: `content/<pack>/rules/<lang>/NN-name.md`, one chapter per file, in file-name order
(Russian is the source, every other language a complete translation with the same files and
section ids), plus an optional `rules/<lang>/glossary.md` (a list of `- **Term** — meaning`
lines; its terms also make the index). See `content/<pack>/rules/README.md` (the canonical
pack has one) for authors.

Headings: `# Chapter`, `## Section`, `### Subsection`; give any heading an id with a trailing
`{#section-id}` so that cross-references can point at it (chapters default to the file slug).

Data references are Jinja2-style calls with literal arguments, alone inside `{{ … }}` on one
line. Nothing else of Jinja is allowed in prose (no `{% %}`), and raw HTML is escaped.

Inline (inside a sentence):
- `{{ stat("zombie", "stats.speed") }}` one value of an entity, by dotted field path. Numbers
  print as numbers, dice faces `[5, 6]` as "5–6", thresholds `{stat: luck, min: 4}` as
  "Удача 4+"/"Luck 4+", amounts `{treasures: 3}` as "3 сокровища", entity ids as their names,
  texts in the book's language. `stat(id, "count")` is the number of copies. `value(...)` is
  the same as `stat(...)`.
- `{{ amount("statue-move", "actions", "actions") }}` a whole number with its noun in the right
  form ("2 действия" / "2 actions"); nouns are the keys of `values.PLURALS`.
- `{{ add("crevice-shallow-1.width", "crevice-jump.cells_add") }}` the sum of numbers named
  `entity-id.field.path`, for worked examples.
- `{{ name("zombie") }}` an entity's name.
- `{{ text("web") }}` / `{{ text("zombie", "special.0.text") }}` a localized text field.
- `{{ see("monsters") }}` a cross-reference: "см. с. N" / "see p. N" (the real page); inside the
  section's own chapter "см. ниже" / "see below" (or "above"): a chapter starts on a new page,
  so only a reference inside its chapter can land on its own page.
- `{{ page("monsters") }}` the page alone, "с. N" / "p. N" ("ниже" / "below" inside the
  chapter), for a sentence that names the section itself.
- `{{ title("monsters") }}` a section's title.
- `{{ decision("engine.leave-by-hatch") }}` marks a sentence that states a decision recorded in
  the pack's trace files; prints nothing, except a flagged footnote in the proof build.

Blocks (alone in their paragraph):
- `{{ table("treasure-table") }}` a roll table: the dice and every row.
- `{{ monster_block("zombie") }}` a monster's stat block (normal and controlled values), drawn
  apart by reportlab (`blocks.py`) and put into the laid-out chapter at assembly.
- `{{ matrix("obstacle-matrix") }}` the monster-versus-obstacle matrix.
- `{{ character_stats("professor") }}` a character board.
- `{{ components() }}` / `{{ components("token") }}` the component list with counts.
- `{{ list_table("item", "price", "hands", "backpack") }}` every entity of a kind, one row each:
  its name, then the named fields (dotted paths).
- `{{ thumbnails("monster") }}` / `{{ thumbnails("zombie", "ghost") }}` pictures of the printed
  components: the fronts the card renderer draws, rasterized at the size they print
  (`pictures.py`); left out when the pack prints no such component.
- `{{ legend("player-aid") }}` an entity's icon legend: each row of its `legend` (an icon of
  `assets/icons/` and its caption), the icons drawn from the SVGs the cards print.

Pictures in the prose: `![alt](pictures/map.png)`, a file of the pack or of `assets/` by its
path from the pack folder; URLs, absolute paths and files outside are refused
(`error[rulebook-image]`).

A value the content marks `provisional` prints as decided; the proof build (`--proof`) highlights
it and gives the reason in a footnote. `relic check` reports every reference that does not
resolve at its line and column in the Markdown (`error[rulebook-ref]`).

The book is laid out unit by unit (cover, contents, each chapter, glossary, index), in
parallel and through the cache; see `render.py`.
"""


from __future__ import annotations

import tempfile
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from pipeline.diagnostics import RelicError, Severity, Span, error
from pipeline.model import Model
from pipeline.rulebook.pictures import FacePictures, FilePictures, NoPictures, Pictures

__all__ = ["FacePictures", "FilePictures", "NoPictures", "Pictures", "build_rulebook",
           "install", "make_book", "prepare", "reassemble_book", "record_book",
           "record_reassembled", "recorded_book"]


def prepare(model: Model, lang: str, *, paper: str = "a5", proof: bool = False,
            pictures: Pictures | None = None):
    """The book checked and composed (`book.Composed`), or `RelicError` with every problem:
    unresolved references, refused pictures, missing glyphs, missing chapters."""
    from pipeline.rulebook import book as bk
    from pipeline.rulebook.page import PAPERS

    pack_root = model.pack.root
    if paper not in PAPERS:
        raise RelicError([error("rulebook-paper", f"unknown paper '{paper}' for the rulebook "
                                f"(papers: {', '.join(PAPERS)})", Span(str(pack_root)))])
    parsed = bk.parse_book(pack_root, lang)
    if not parsed.chapters:
        raise RelicError([error("rulebook-missing", f"no rulebook chapters for '{lang}'",
                                Span(str(pack_root / "rules" / lang)))])
    problems = list(parsed.diagnostics)
    if not any(d.severity is Severity.ERROR for d in problems):
        try:  # composing renders every reference: a failure is then found again, with its place
            composed = bk.compose(model, parsed, paper=paper, proof=proof, pictures=pictures)
        except bk.RefError as exc:
            found = bk.validate(model, parsed)
            if not found:
                raise RelicError([error("rulebook-ref", exc.message, Span(str(pack_root)),
                                        exc.hint)]) from None
            problems += found
        else:
            whole = composed.whole()
            problems += bk.placeholders_left(whole, f"{lang} rulebook HTML")
            problems += bk.glyph_problems(model, parsed, composed)
    errors = [d for d in problems if d.severity is Severity.ERROR]
    if errors:
        raise RelicError(errors)
    return composed


def make_book(composed, model: Model, cache_dir: Path, *, pictures: Pictures | None = None,
              booklet: bool = False, executor: Executor | None = None,
              progress: Callable[[int, int, int], None] | None = None, in_order: bool = False):
    """Lay the composed book out through the cache (and fold the booklet beside it): the
    `render.Finished` book, its PDF in the cache. `in_order`: see `render.BookRenderer.run`."""
    from pipeline.rulebook.render import BookRenderer, project_roots

    renderer = BookRenderer(composed, pictures or NoPictures(), cache_dir,
                            project_roots(model.pack.root.resolve()),
                            book_id(model, composed.lang, composed.paper, composed.proof))
    return _folded(renderer.run(executor, progress, in_order), booklet)


def reassemble_book(record, model: Model, settings: dict, cache_dir: Path,
                    pictures: Pictures):
    """The recorded book with its pictures as they are now, its units and everything else as
    recorded (`render.reassemble`): an edit that changed only pictures the book shows. None
    when the record cannot be assembled again (the book is then made as usual)."""
    import pypdfium2  # noqa: F401 - the rasters' (0.06 s) and the assembly's (pikepdf, 0.07 s)

    from pipeline.rulebook import assemble  # noqa: F401 - imports, before the print set comes
    from pipeline.rulebook.render import reassemble

    blocks = record.blocks_to_reassemble(pictures, model)
    if blocks is None:
        return None
    finished = reassemble(record.plan, pictures, cache_dir,
                          book_id(model, settings["lang"], settings["paper"], settings["proof"]),
                          model, blocks)
    return _folded(finished, settings["booklet"]) if finished is not None else None


def _folded(finished, booklet: bool):
    """The finished book, its saddle-stitch booklet folded beside it in the cache if asked."""
    folded = booklet_of(finished.pdf)
    if booklet and not folded.is_file():
        from pipeline.fsutil import cache_write
        from pipeline.rulebook import pdf  # WeasyPrint's import: only when folding

        cache_write(folded, pdf.booklet(finished.pdf.read_bytes()))
    return finished


def record_book(model: Model, recorder, pictures, finished, settings: dict,
                cache_dir: Path) -> None:
    """Keep what the finished book was made of (`record.BookRecord`), beside it in the cache:
    `recorder` and `pictures` are the `RecordingModel` and `RecordingPictures` it was composed
    with; `settings`: its language, paper, proof and booklet."""
    from pipeline.rulebook.record import BookRecord, files_digest

    BookRecord(files_digest(model, settings), recorder.digests(), dict(pictures.keys),
               str(finished.pdf), _used(finished, settings), finished.plan,
               ).save(record_path(model, settings, cache_dir))


def record_reassembled(record, model: Model, pictures: Pictures, finished, settings: dict,
                       cache_dir: Path) -> None:
    """The record of a book assembled again with new pictures (`reassemble_book`): what it
    read is what the record it was made from says, its pictures are the ones it shows now."""
    from dataclasses import replace

    keys = {entity_id: found.key if (found := pictures.find(entity_id)) is not None else ""
            for entity_id in record.pictures}
    replace(record, pictures=keys, pdf=str(finished.pdf), used=_used(finished, settings),
            plan=finished.plan).save(record_path(model, settings, cache_dir))


def _used(finished, settings: dict) -> tuple[str, ...]:
    return (*finished.files, *([str(booklet_of(finished.pdf))] if settings["booklet"] else ()))


def record_path(model: Model, settings: dict, cache_dir: Path) -> Path:
    """Where the cache keeps the record of the book made with these settings (its language,
    paper and proof name it)."""
    from pipeline.rulebook.record import record_file

    return record_file(cache_dir, book_id(model, settings["lang"], settings["paper"],
                                          settings["proof"]))


def recorded_book(model: Model, settings: dict, cache_dir: Path):
    """The record of the last book made with these settings, if nothing it read of the files
    and the entities has changed since (its pictures are checked later: `pictures_hold`)."""
    from pipeline.cards.prune import mark_used
    from pipeline.rulebook.record import BookRecord, files_digest

    path = record_path(model, settings, cache_dir)
    found = BookRecord.load(path)
    if found is None or not found.data_holds(model, files_digest(model, settings)):
        return None
    mark_used(path)  # kept by the cache's pruning while it serves
    return found


def book_id(model: Model, lang: str, paper: str, proof: bool) -> str:
    """What names one book across builds (its page map in the cache is kept under it)."""
    return f"{model.pack.id}\0{lang}\0{paper}\0{proof}"


def booklet_of(book: Path) -> Path:
    """Where the cache keeps the saddle-stitch booklet of a cached book."""
    return book.with_name(book.stem + "-booklet.pdf")


def install(book: Path, out_dir: Path, booklet: bool = False) -> list[Path]:
    """Link the cached book (and its booklet) into `out_dir`; the paths written."""
    from pipeline.cards.outputs import link_or_copy

    written = [Path(out_dir) / "rulebook.pdf"]
    link_or_copy(book, written[0])
    if booklet:
        written.append(Path(out_dir) / "rulebook-booklet.pdf")
        link_or_copy(booklet_of(book), written[1])
    return written


def build_rulebook(model: Model, lang: str, out_dir: Path, *, paper: str = "a5",
                   booklet: bool = False, proof: bool = False,
                   pictures: Pictures | None = None, cache_dir: Path | None = None,
                   executor: Executor | None = None) -> list[Path]:
    """Write `out_dir/rulebook.pdf` (and `rulebook-booklet.pdf`); return the paths written.

    Raises `RelicError` when the book has errors. Without `cache_dir` the book is laid out in
    a temporary cache (nothing is reused)."""
    composed = prepare(model, lang, paper=paper, proof=proof, pictures=pictures)
    with tempfile.TemporaryDirectory(prefix="relic-rulebook-") as tmp:
        finished = make_book(composed, model, Path(cache_dir or tmp), pictures=pictures,
                             booklet=booklet, executor=executor)
        return install(finished.pdf, out_dir, booklet)
