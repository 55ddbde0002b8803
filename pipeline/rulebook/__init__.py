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
- `{{ see("monsters") }}` a cross-reference: "см. с. N" / "see p. N" (the real page).
- `{{ title("monsters") }}` a section's title.
- `{{ decision("engine.leave-by-hatch") }}` marks a sentence that states a decision recorded in
  the pack's trace files; prints nothing, except a flagged footnote in the proof build.

Blocks (alone in their paragraph):
- `{{ table("treasure-table") }}` a roll table: the dice and every row.
- `{{ monster_block("zombie") }}` a monster's stat block (normal and controlled values).
- `{{ matrix("obstacle-matrix") }}` the monster-versus-obstacle matrix.
- `{{ character_stats("professor") }}` a character board.
- `{{ components() }}` / `{{ components("token") }}` the component list with counts.
- `{{ list_table("item", "price", "hands", "backpack") }}` every entity of a kind, one row each:
  its name, then the named fields (dotted paths).
- `{{ thumbnails("monster") }}` / `{{ thumbnails("zombie", "ghost") }}` pictures of the rendered
  components (from `relic build`'s PNGs next to the book); left out when none exist.

A value the content marks `provisional` prints as decided; the proof build (`--proof`) highlights
it and gives the reason in a footnote. `relic check` reports every reference that does not
resolve at its line and column in the Markdown (`error[rulebook-ref]`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from pipeline.diagnostics import RelicError, Severity, Span, error
from pipeline.fsutil import atomic_write
from pipeline.model import Model
from pipeline.rulebook.views import THUMBS_URL

__all__ = ["build_rulebook", "find_thumbnails"]

COPY = re.compile(r"^(.+?)(?:-front|_front|\.front)?(?:-(\d+))?$")


def find_thumbnails(model: Model, folder: Path) -> dict[str, Path]:
    """PNG pictures of component fronts under `folder`, by entity id.

    `relic build` writes `png/<id>-<copy>.png` (fronts) and `png/<id>-<copy>-back.png`; other
    layouts (`<id>.png`, `<id>-front.png`) are found too. Backs are never used; the lowest copy
    wins.
    """
    if not folder.is_dir():
        return {}
    found: dict[str, tuple[int, Path]] = {}
    for png in sorted(folder.rglob("*.png")):
        stem = png.stem
        if stem.endswith(("-back", "_back", ".back")):
            continue
        if stem in model.by_id:
            entity_id, copy = stem, 0
        else:
            m = COPY.match(stem)
            if not m or m.group(1) not in model.by_id:
                continue
            entity_id, copy = m.group(1), int(m.group(2) or 0)
        if entity_id not in found or copy < found[entity_id][0]:
            found[entity_id] = (copy, png)
    return {k: v[1] for k, v in found.items()}


THUMB_PX = 320


class Thumbnails(Mapping[str, Path]):
    """Small copies of the 300-DPI component PNGs, made only for the pictures the book shows."""

    def __init__(self, pictures: dict[str, Path], folder: Path):
        self.pictures = pictures
        self.folder = folder
        self.made: dict[str, Path | None] = {}

    def __getitem__(self, entity_id: str) -> Path:
        if entity_id not in self.made:
            self.made[entity_id] = self._shrink(entity_id)
        made = self.made[entity_id]
        if made is None:
            raise KeyError(entity_id)
        return made

    def __contains__(self, entity_id: object) -> bool:
        if entity_id not in self.pictures:
            return False
        try:
            self[str(entity_id)]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self.pictures)

    def __len__(self) -> int:
        return len(self.pictures)

    def _shrink(self, entity_id: str) -> Path | None:
        from PIL import Image

        target = self.folder / f"{entity_id}.png"
        try:
            with Image.open(self.pictures[entity_id]) as img:
                img.thumbnail((THUMB_PX, THUMB_PX * 2))
                img.save(target)
        except (OSError, ValueError):
            return None  # not a readable picture: the thumbnail is left out
        return target


def build_rulebook(model: Model, lang: str, out_dir: Path, *, paper: str = "a5",
                   booklet: bool = False, proof: bool = False) -> list[Path]:
    """Write `out_dir/rulebook.pdf` (and `rulebook-booklet.pdf`); return the paths written.

    Raises `RelicError` when the book has errors (unresolved references, missing chapters).
    """
    from pipeline.rulebook import book as bk
    from pipeline.rulebook import pdf

    pack_root = model.pack.root
    if paper not in bk.PAPERS:
        raise RelicError([error("rulebook-paper", f"unknown paper '{paper}' for the rulebook "
                                f"(papers: {', '.join(bk.PAPERS)})", Span(str(pack_root)))])
    parsed = bk.parse_book(pack_root, lang)
    if not parsed.chapters:
        raise RelicError([error("rulebook-missing", f"no rulebook chapters for '{lang}'",
                                Span(str(pack_root / "rules" / lang)))])
    problems = [*parsed.diagnostics, *bk.validate(model, parsed)]
    errors = [d for d in problems if d.severity is Severity.ERROR]
    if errors:
        raise RelicError(errors)
    out_dir = Path(out_dir)
    with tempfile.TemporaryDirectory(prefix="relic-thumbs-") as tmp:
        thumbs = Thumbnails(find_thumbnails(model, out_dir), Path(tmp))
        html = bk.render_html(model, parsed, paper=paper, proof=proof, thumbnails=thumbs)
        left = bk.placeholders_left(html, f"{lang} rulebook HTML")
        if left:
            raise RelicError(left)
        roots = (bk.PROJECT_ROOT / "assets", bk.TEMPLATES, Path(tmp).resolve(),
                 pack_root.resolve())
        data = pdf.html_to_pdf(html, roots, bk.TEMPLATES, {THUMBS_URL: Path(tmp)})
    written = [atomic_write(out_dir / "rulebook.pdf", data)]
    if booklet:
        written.append(atomic_write(out_dir / "rulebook-booklet.pdf", pdf.booklet(data)))
    return written
