"""Our own words: runs of consecutive words that a pack's text shares with its seed.

The seed (`../shared/seeds/<seed>`, named by `seed:` in `pack.yaml`) gives facts and numbers;
the pack's sentences must be our own. Both texts are normalized the same way: lower case, ё as е,
every character that is neither a letter nor a digit (punctuation, quotes, dashes, markup) is a
word break, and every number is the one word `#` (so a copied sentence with a number in it is still
a copied sentence).

The pack's text is every rulebook chapter (`rules/<lang>/*.md`) with its markup removed, and every
localized string (`{ru: …, en: …}`) anywhere in the pack's YAML files. In a chapter, an inline
data reference reads as what it prints where that is a word (`name`, `text`, `title`) and as
`#` where it prints a number; a block reference (`table`, `monster_block`, …) ends the passage.

    python -m tests.content.own_words            # the longest shared run of every pack
    python -m tests.content.own_words catacombs  # and every run of six words or more
"""

from __future__ import annotations

import ast
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.loader import load_yaml
from pipeline.resolve import is_localized

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
SEEDS_ENV = "RELIC_SEEDS"
LIMIT = 6  # a run of this many shared words or more is copied text

NUMBER = "#"
A_NUMBER = " 0 "  # what a reference to a number reads as before normalizing
WORD = re.compile(r"[^\W_]+")
REFERENCE = re.compile(r"\{\{(.*?)\}\}")
HEADING_ID = re.compile(r"\{#[^}]*\}")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# Inline references that print a name or a text (the rest print a number or nothing).
WORDY = {"name", "text", "title"}
SILENT = {"decision", "see"}
BLOCKS = {
    "table",
    "monster_block",
    "matrix",
    "character_stats",
    "components",
    "list_table",
    "thumbnails",
}
SKIPPED_DIRS = {"schemas"}


@dataclass(frozen=True)
class Passage:
    """One stretch of the pack's text: a chapter (or a part of it) or one localized string."""

    file: str  # relative to the repository
    where: str  # "entity-id field.path (lang)" or "chapter: section title"
    words: tuple[str, ...]


@dataclass(frozen=True)
class SharedRun:
    passage: Passage
    words: tuple[str, ...]

    def __str__(self) -> str:
        return (
            f"{self.passage.file}: {self.passage.where}: {len(self.words)} words shared with the "
            f"seed: «{' '.join(self.words)}»"
        )


def seeds_folder() -> Path | None:
    """`$RELIC_SEEDS`, else `shared/seeds` beside the repository (`<repo>/../shared/seeds`) or
    beside one of its parent folders (a git worktree under `wt/` finds the main one's)."""
    if os.environ.get(SEEDS_ENV):
        return Path(os.environ[SEEDS_ENV])
    for folder in ROOT.parents:
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return None


# ----- normalizing ------------------------------------------------------------------------------


def words(text: str) -> tuple[str, ...]:
    """Lower case, ё as е, letters and digits only; every number becomes `#`."""
    lowered = text.lower().replace("ё", "е")
    return tuple(NUMBER if w.isdigit() else w for w in WORD.findall(lowered))


def seed_words(path: Path) -> tuple[str, ...]:
    return words(path.read_text("utf-8"))


# ----- the pack's localized strings ------------------------------------------------------------


def localized_strings(
    data: Any, languages: Sequence[str], path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, str]]:
    """(path, lang, text) of every localized string in a YAML document."""
    if is_localized(data, languages):
        for lang, text in data.items():
            yield path, lang, text
    elif isinstance(data, Mapping):
        for key, value in data.items():
            yield from localized_strings(value, languages, (*path, str(key)))
    elif isinstance(data, list | tuple):
        for i, value in enumerate(data):
            step = value.get("id") if isinstance(value, Mapping) and "id" in value else str(i)
            yield from localized_strings(value, languages, (*path, str(step)))


def yaml_files(pack_dir: Path) -> list[Path]:
    return sorted(
        p
        for p in pack_dir.rglob("*.yaml")
        if not SKIPPED_DIRS & set(p.relative_to(pack_dir).parts[:-1])
    )


def string_passages(pack_dir: Path, languages: Sequence[str]) -> Iterator[Passage]:
    for path in yaml_files(pack_dir):
        data = load_yaml(path, str(path)).data
        for where, lang, text in localized_strings(data, languages):
            yield Passage(rel(path), f"{'.'.join(where) or '(top)'} ({lang})", words(text))


def entity_index(pack_dir: Path) -> dict[str, Mapping[str, Any]]:
    """Entities by id, from every list-of-entities file of the pack."""
    found: dict[str, Mapping[str, Any]] = {}
    for path in yaml_files(pack_dir):
        data = load_yaml(path, str(path)).data
        for item in data if isinstance(data, list) else ():
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                found[item["id"]] = item
    return found


# ----- the pack's chapters ---------------------------------------------------------------------


def parse_reference(expr: str) -> tuple[str, tuple[Any, ...]] | None:
    try:
        call = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return None
    if not all(isinstance(a, ast.Constant) for a in call.args):
        return None
    return call.func.id, tuple(a.value for a in call.args)


def field(entity: Mapping[str, Any], dotted: str) -> Any:
    value: Any = entity
    for part in dotted.split("."):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def printed(name: str, args: tuple[Any, ...], lang: str, entities: Mapping[str, Any]) -> str:
    """What an inline reference prints, as far as its words go."""
    if name in SILENT:
        return " "
    if name not in WORDY or not args:
        return A_NUMBER
    entity = entities.get(str(args[0]), {})
    if name == "title":
        return " "  # a section's title: its words are in the heading itself
    fields = (args[1],) if name == "text" and len(args) > 1 else (
        ("text",) if name == "text" else ("name", "title")
    )
    for dotted in fields:
        value = field(entity, str(dotted))
        if isinstance(value, Mapping) and isinstance(value.get(lang), str):
            return f" {value[lang]} "
    return A_NUMBER


def chapter_passages(
    pack_dir: Path, entities: Mapping[str, Any]
) -> Iterator[Passage]:
    for path in sorted((pack_dir / "rules").glob("*/*.md")):
        lang = path.parent.name
        section = path.stem
        part: list[str] = []
        for line in path.read_text("utf-8").splitlines():
            if line.startswith("#"):
                yield from flush(path, section, part)
                section = f"{path.stem}: {HEADING_ID.sub('', line).strip('# ').strip()}"
            pieces = []
            last = 0
            for m in REFERENCE.finditer(line):
                pieces.append(line[last : m.start()])
                ref = parse_reference(m.group(1))
                if ref is not None and ref[0] in BLOCKS:
                    part.append("".join(pieces))
                    yield from flush(path, section, part)
                    pieces = []
                elif ref is not None:
                    pieces.append(printed(ref[0], ref[1], lang, entities))
                last = m.end()
            pieces.append(line[last:])
            part.append(LINK.sub(r"\1", HEADING_ID.sub("", "".join(pieces))))
        yield from flush(path, section, part)


def flush(path: Path, section: str, part: list[str]) -> Iterator[Passage]:
    text = "\n".join(part)
    part.clear()
    found = words(text)
    if found:
        yield Passage(rel(path), section, found)


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# ----- comparing -------------------------------------------------------------------------------


def ngrams(seq: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)}


def shared_runs(
    passages: Iterable[Passage], seed: Sequence[str], limit: int = LIMIT
) -> list[SharedRun]:
    """Every maximal stretch of a passage whose every `limit` consecutive words occur in the seed
    in that order."""
    grams = ngrams(seed, limit)
    runs = []
    for passage in passages:
        w = passage.words
        hits = [i for i in range(len(w) - limit + 1) if tuple(w[i : i + limit]) in grams]
        start = end = None
        for i in hits:
            if end is not None and i <= end - limit + 1:
                end = i + limit
                continue
            if start is not None:
                runs.append(SharedRun(passage, w[start:end]))
            start, end = i, i + limit
        if start is not None:
            runs.append(SharedRun(passage, w[start:end]))
    return runs


def longest_run(passages: Sequence[Passage], seed: Sequence[str]) -> SharedRun | None:
    """The longest run of consecutive words that some passage shares with the seed, found by
    growing n until no n-gram is shared."""
    best = None
    n = 1
    while True:
        grams = ngrams(seed, n)
        found = next(
            (
                SharedRun(p, tuple(p.words[i : i + n]))
                for p in passages
                for i in range(len(p.words) - n + 1)
                if tuple(p.words[i : i + n]) in grams
            ),
            None,
        )
        if found is None:
            return best
        best, n = found, n + 1


# ----- packs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackText:
    pack: str
    seed: Path
    passages: tuple[Passage, ...]


def seeded_packs(content: Path = CONTENT) -> list[tuple[str, str]]:
    """(pack id, seed file name) of every pack whose manifest names a seed."""
    found = []
    for manifest in sorted(content.glob("*/pack.yaml")):
        data = load_yaml(manifest, str(manifest)).data
        if isinstance(data, Mapping) and data.get("seed"):
            found.append((manifest.parent.name, str(data["seed"])))
    return found


def pack_text(pack: str, seed: str, seeds: Path, content: Path = CONTENT) -> PackText:
    pack_dir = content / pack
    manifest = load_yaml(pack_dir / "pack.yaml", "pack.yaml").data
    languages = tuple(manifest.get("languages") or ("ru", "en"))
    passages = (
        *chapter_passages(pack_dir, entity_index(pack_dir)),
        *string_passages(pack_dir, languages),
    )
    return PackText(pack, seeds / seed, passages)


def main(argv: Sequence[str]) -> int:
    seeds = seeds_folder()
    if seeds is None:
        print(f"no shared/seeds folder beside {ROOT} or its parents (set ${SEEDS_ENV})")
        return 2
    wanted = set(argv)
    for pack, seed in seeded_packs():
        text = pack_text(pack, seed, seeds)
        seed_seq = seed_words(text.seed)
        best = longest_run(text.passages, seed_seq)
        shown = f"{len(best.words)} words: {best}" if best else "nothing shared"
        print(f"{pack}: longest shared run {shown}")
        if pack in wanted:
            for n in (LIMIT, LIMIT - 1):
                runs = shared_runs(text.passages, seed_seq, n)
                print(f"  runs of {n}+ words: {len(runs)}")
            for run in shared_runs(text.passages, seed_seq, LIMIT - 1):
                print(f"  {run}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
