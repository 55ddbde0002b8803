"""What a finished book was made of, so that a build can tell, without starting the book's
process, that the book it would make is already in the cache.

A book reads three things: files (its chapters, the pack's print profile, labels and
pictures, the project's code, templates, schemas and icons, the fonts and libraries), the
model's entities, and the pictures of printed components. The record of a finished book holds
a digest of the files, the digest of every entity it read (found by composing it with a
`RecordingModel`), of every kind it listed, and the key of every picture it looked up (found
through `RecordingPictures`). A later build whose files, read entities, listed kinds and
picture keys are all the same makes the same book: it links the cached one. An edit to a card
that the book neither prints nor pictures costs no rulebook work at all. An edit that changes
only pictures the book shows, or the words of a block it draws apart (`blocks.py`: what the
block read of the model is kept apart from what the prose read), assembles the book again
from the record's `Reassembly` (its laid-out units, each picture with the aspect it was laid
out at, each block with its height): nothing is composed or laid out, unless a block's new
words change its height. Any other edit composes the book again (and lays out only what
changed, `render.py`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline.model import Entity, Model, thaw

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PROJECT_FOLDERS = ("pipeline", "engine", "templates", "schemas", "assets")
LIBRARIES = ("weasyprint", "pydyf", "fonttools", "pypdf", "pypdfium2", "pillow", "reportlab",
             "jinja2", "markdown-it-py")
EVERY = "*"  # a kind read whole: every entity of the model
VERSION = "4"


def _sha(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _json(value: Any) -> str:
    return json.dumps(thaw(value), sort_keys=True, ensure_ascii=False, default=str)


def read_digest(model: Model, name: str) -> str:
    """The digest of one thing a book read of the model (`RecordingModel` names them):
    `id:ID` whether an entity exists and its kind; `field:ID:KEY` one top-level field of an
    entity; `kind:KIND` which entities a kind has; `kinds` which kinds the pack has; `*` every
    entity whole; `keys:ID` which fields an entity has."""
    by_id = model.by_id
    what, _, rest = name.partition(":")
    if what == "id":
        found = by_id.get(rest)
        return found.kind if found is not None else "absent"
    if what == "field":
        entity_id, _, key = rest.partition(":")
        found = by_id.get(entity_id)
        if found is None or key not in found.data:
            return "absent"
        return _sha(_json(found.data[key]))
    if what == "keys":
        found = by_id.get(rest)
        return _sha(*sorted(map(str, found.data))) if found is not None else "absent"
    if what == "kind":
        return _sha(*sorted(e.id for e in model.of_kind(rest)))
    if what == "kinds":
        return _sha(*model.kinds())
    return _sha(*(f"{e.id}\0{e.kind}\0{_json(e.data)}"
                  for e in sorted(model.entities, key=lambda e: e.id)))


class _RecordingData(Mapping[str, Any]):
    """An entity's data, noting each top-level field read (iterating it reads every one)."""

    def __init__(self, entity: Entity, read: set[str]):
        self._entity = entity
        self._read = read

    def __getitem__(self, key: str) -> Any:
        self._read.add(f"field:{self._entity.id}:{key}")
        return self._entity.data[key]

    def __contains__(self, key: object) -> bool:
        self._read.add(f"field:{self._entity.id}:{key}")
        return key in self._entity.data

    def __iter__(self) -> Iterator[str]:
        self._read.update(f"field:{self._entity.id}:{k}" for k in self._entity.data)
        self._read.add(f"id:{self._entity.id}")
        self._read.add(f"keys:{self._entity.id}")
        return iter(self._entity.data)

    def __len__(self) -> int:
        self._read.add(f"keys:{self._entity.id}")
        return len(self._entity.data)


class _RecordingIds(Mapping[str, Entity]):
    def __init__(self, recorder: RecordingModel):
        self._recorder = recorder

    def __getitem__(self, key: str) -> Entity:
        self._recorder.read.add(f"id:{key}")
        return self._recorder.entity(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._recorder.read.add(f"id:{key}")
        return key in self._recorder.model.by_id

    def __iter__(self) -> Iterator[str]:
        self._recorder.read.add(EVERY)
        return iter(self._recorder.model.by_id)

    def __len__(self) -> int:
        self._recorder.read.add(EVERY)
        return len(self._recorder.model.by_id)


class RecordingModel:
    """The model, noting what is read through it, field by field (the book composes with it):
    the names `read_digest` takes. Entities come with recording data; anything read whole
    (the list of every entity, an entity's data iterated) is noted as such."""

    def __init__(self, model: Model):
        self.model = model
        self.read: set[str] = set()
        self._by_id = _RecordingIds(self)
        self._entities: dict[str, Entity] = {}

    def entity(self, entity_id: str) -> Entity:
        if entity_id not in self._entities:
            real = self.model.by_id[entity_id]
            self._entities[entity_id] = replace(real, data=_RecordingData(real, self.read))
        return self._entities[entity_id]

    @property
    def pack(self):
        return self.model.pack

    @property
    def by_id(self) -> Mapping[str, Entity]:
        return self._by_id

    def of_kind(self, kind: str) -> tuple[Entity, ...]:
        self.read.add(f"kind:{kind}")
        return tuple(self.entity(e.id) for e in self.model.of_kind(kind))

    def kinds(self) -> list[str]:
        self.read.add("kinds")
        return self.model.kinds()

    def locate(self, entity_id: str, dotted: str = ""):
        self.read.add(f"id:{entity_id}")
        return self.model.locate(entity_id, dotted)

    def __getattr__(self, name: str) -> Any:  # entities, files, to_plain(), ...
        self.read.add(EVERY)
        return getattr(self.model, name)

    def __iter__(self) -> Iterator[Entity]:
        self.read.add(EVERY)
        return iter(self.model)

    def digests(self) -> dict[str, str]:
        """What was read so far, each with its digest."""
        return {name: read_digest(self.model, name) for name in sorted(self.read)}


def unrecorded(model: Any) -> Model:
    """The model itself, not what a `RecordingModel` notes reads of (for what the book keeps
    apart in its record: the blocks drawn apart)."""
    return model.model if isinstance(model, RecordingModel) else model


class RecordingPictures:
    """The book's pictures, noting the key of every one looked up ("" for none)."""

    def __init__(self, pictures: Any):
        self.pictures = pictures
        self.keys: dict[str, str] = {}

    def find(self, entity_id: str):
        found = self.pictures.find(entity_id)
        self.keys[entity_id] = found.key if found is not None else ""
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pictures, name)


def read_block(model: Any, spec: Any) -> tuple[Any, dict[str, str]]:
    """The block drawn apart (`views.drawn_block`) from the model itself, and what its words
    read of it (`read_digest`'s names, with their digests): kept apart from what the book's
    prose read, so that a new value only the block shows changes the block, not the book."""
    from pipeline.rulebook.views import drawn_block

    recorder = RecordingModel(unrecorded(model))
    block = drawn_block(recorder, spec)
    return block, recorder.digests()


@dataclass(frozen=True)
class DrawnBlock:
    """A block drawn apart (`blocks.py`) as a book's units were laid out with it: its URL
    path, what it is, the height its placeholder has, the key of its words and what they
    read of the model (checked without composing the block: `Reassembly.drawings_hold`)."""

    path: str
    spec: Any  # `blocks.BlockSpec`
    height_mm: float
    key: str
    read: Mapping[str, str]

    def to_json(self) -> list[Any]:
        return [self.path, self.spec.to_json(), self.height_mm, self.key, dict(self.read)]

    @classmethod
    def from_json(cls, data: Any) -> DrawnBlock:
        from pipeline.rulebook.blocks import BlockSpec

        path, spec, height, key, read = data
        return cls(str(path), BlockSpec.from_json(spec), float(height), str(key),
                   {str(k): str(v) for k, v in read.items()})

    def holds(self, model: Model) -> bool:
        """Nothing its words read of the model has changed."""
        return all(read_digest(model, name) == digest for name, digest in self.read.items())


@dataclass(frozen=True)
class Reassembly:
    """What assembling a finished book's laid-out units again takes, with other pictures of
    the same components: kept in the book's record, so that an edit that changes only pictures
    the book shows assembles the book without composing or laying out anything
    (`render.reassemble`). `shown`: (picture URL path, entity id, raster width, aspect) of each
    picture; the aspect sets the height the units were laid out with."""

    base: str
    title: str
    lang: str
    units: tuple[str, ...]  # the unit keys in book order (`units/KEY.json` in the cache)
    shown: tuple[tuple[str, str, int, float], ...]
    drawn: tuple[DrawnBlock, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "title": self.title, "lang": self.lang,
                "units": list(self.units), "shown": [list(s) for s in self.shown],
                "drawn": [d.to_json() for d in self.drawn]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reassembly:
        """The plan kept in a record (`ValueError` if it is not one)."""
        try:
            shown = tuple((str(p), str(e), int(px), float(a)) for p, e, px, a in data["shown"])
            drawn = tuple(DrawnBlock.from_json(d) for d in data["drawn"])
            return cls(str(data["base"]), str(data["title"]), str(data["lang"]),
                       tuple(map(str, data["units"])), shown, drawn)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a reassembly plan: {exc}") from None

    def drawings_hold(self, model: Model) -> bool:
        """Nothing the words of a block drawn apart read of the model has changed (checked on
        the model's data: no block is composed)."""
        return all(drawn.holds(model) for drawn in self.drawn)

    def blocks_now(self, model: Model) -> dict[str, tuple[Any, DrawnBlock]] | None:
        """URL path -> each block drawn apart as the model has it now (None for a block
        whose reads hold: it is not composed, its drawing is the one its key names), with
        what the plan keeps of it now; None when one is gone or no longer has the height its
        placeholder was laid out with."""
        from pipeline.rulebook.blocks import height_mm

        now: dict[str, tuple[Any, DrawnBlock]] = {}
        for drawn in self.drawn:
            if drawn.holds(model):
                now[drawn.path] = (None, drawn)
                continue
            block, read = read_block(model, drawn.spec)
            if block is None or (block.key != drawn.key and height_mm(block) != drawn.height_mm):
                return None
            now[drawn.path] = (block, replace(drawn, key=block.key, read=read))
        return now

    def fits(self, pictures: Any) -> bool:
        """Every picture is still there, at the aspect the units were laid out with."""
        for _, entity_id, _, aspect in self.shown:
            found = pictures.find(entity_id)
            if found is None or found.aspect != aspect:
                return False
        return True


@dataclass(frozen=True)
class BookRecord:
    files: str  # digest of every file the book reads, and of its settings
    read: Mapping[str, str]  # what it read of the model (`read_digest`'s names): its digest
    pictures: Mapping[str, str]
    pdf: str  # the finished book in the cache
    used: tuple[str, ...] = ()  # every cache file it is made of (kept while it is reused)
    plan: Reassembly | None = None  # its units and pictures, to assemble it with new pictures

    def save(self, path: Path) -> None:
        from pipeline.fsutil import cache_write

        cache_write(path, json.dumps({"version": VERSION, "files": self.files,
                                      "read": dict(self.read),
                                      "pictures": dict(self.pictures), "pdf": self.pdf,
                                      "used": list(self.used),
                                      "plan": self.plan.to_json() if self.plan else None},
                                     sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> BookRecord | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") != VERSION:
                return None
            plan = Reassembly.from_json(data["plan"]) if data.get("plan") else None
            return cls(data["files"], data["read"], data["pictures"], data["pdf"],
                       tuple(data["used"]), plan)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def data_holds(self, model: Model, files: str) -> bool:
        """The files, and everything the book read of the model, are as they were."""
        return files == self.files and all(read_digest(model, name) == digest
                                           for name, digest in self.read.items())

    def reassembles(self, pictures: Any, model: Model) -> bool:
        """The book can be assembled again with the pictures and the blocks drawn apart as
        they are now, nothing composed or laid out: it has a plan, every component it looked
        up a picture for still has one or still has none, each picture it shows has the aspect
        it was laid out with, and each block the height."""
        return self.blocks_to_reassemble(pictures, model) is not None

    def blocks_to_reassemble(self, pictures: Any,
                             model: Model) -> dict[str, tuple[Any, DrawnBlock]] | None:
        """The plan's blocks as they are now (`Reassembly.blocks_now`) if the book can be
        assembled again (`reassembles`), else None."""
        if self.plan is None:
            return None
        blocks = self.plan.blocks_now(model)  # (before the pictures: they wait for the card
        if blocks is None:  # build's print set, the blocks do not)
            return None
        for entity_id, key in self.pictures.items():
            if (pictures.find(entity_id) is None) != (key == ""):
                return None
        return blocks if self.plan.fits(pictures) else None

    def drawings_hold(self, model: Model) -> bool:
        """Nothing the blocks the book draws apart read of the model has changed."""
        return self.plan is None or self.plan.drawings_hold(model)

    def pictures_hold(self, pictures: Any, model: Model) -> bool:
        """Every picture the book looked up has the key it had, every block drawn apart its
        words (and the book is still there)."""
        if not all(Path(f).is_file() for f in (self.pdf, *self.used)):
            return False
        if not self.drawings_hold(model):
            return False
        for entity_id, key in self.pictures.items():
            found = pictures.find(entity_id)
            if (found.key if found is not None else "") != key:
                return False
        return True


def record_file(cache_dir: Path, book_id: str) -> Path:
    return Path(cache_dir) / "rulebook" / "records" / f"{_sha(book_id)}.json"


def files_digest(model: Model, settings: Mapping[str, Any]) -> str:
    """Every file a book of the pack reads besides its entities, and the settings: the pack's
    other files by content (rules, print profile, labels, pictures, schemas, traces), the
    project's code, templates, schemas and icons by size and time, the libraries and fonts."""
    from pipeline.packfiles import is_entity_file

    root = model.pack.root
    digest = hashlib.sha256(json.dumps(dict(settings), sort_keys=True).encode())
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if not is_entity_file(root, path):
            digest.update(f"{path.relative_to(root)}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(project_digest().encode())
    return digest.hexdigest()


@cache
def project_digest() -> str:
    """The project's own files (by path, size and modification time), the libraries' versions
    and the fonts the book is set in."""
    from pipeline.rulebook.glyphs import font_identity
    from pipeline.rulebook.subsets import subsetter

    digest = hashlib.sha256()
    for folder in PROJECT_FOLDERS:
        for top, dirs, files in os.walk(PROJECT_ROOT / folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                stat = os.stat(os.path.join(top, name))
                digest.update(f"{top}/{name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    for lib in LIBRARIES:
        digest.update(f"{lib}={metadata.version(lib)}\0".encode())
    digest.update(subsetter().encode())
    digest.update(font_identity().encode())
    return digest.hexdigest()
