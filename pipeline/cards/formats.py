"""Formats, sheets and the pack's print profile: YAML data checked by schemas/print/*.json."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.cards.units import parse_length
from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative
from pipeline.model import PackInfo, SourceFile, thaw

if TYPE_CHECKING:  # validating imports them: most builds read checked copies instead
    from jsonschema import Draft7Validator
    from referencing import Registry

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = PROJECT_ROOT / "schemas"
LIBRARY = PROJECT_ROOT / "templates" / "print"

DEFAULT_BLEED = "3mm"
DEFAULT_MIN_FONT = "7pt"
DEFAULT_FONTS = {"body": "DejaVu Sans", "title": "DejaVu Serif", "narrow": "DejaVu Sans Condensed"}


@dataclass(frozen=True)
class Format:
    """A component's trim size (mm), shape and bleed."""

    name: str
    label: str
    width: float
    height: float
    bleed: float
    shape: str = "rect"
    corner: float = 0.0

    @property
    def bleed_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def bleed_height(self) -> float:
        return self.height + 2 * self.bleed


@dataclass(frozen=True)
class Sheet:
    """A paper size in portrait orientation (mm) with its margin and gutter."""

    name: str
    label: str
    width: float
    height: float
    margin: float
    gutter: float = 0.0
    mark_length: float = 4.0


@dataclass(frozen=True)
class Variant:
    """Entities whose `field` equals `equals` print with another format, template or back."""

    field: str
    equals: Any
    format: str | None = None
    template: str | None = None
    back: str | None = None


@dataclass(frozen=True)
class Where:
    """Only the entities whose `field` equals `equals` are printed by an entry."""

    field: str
    equals: Any


@dataclass(frozen=True)
class KindPrint:
    """How one kind is printed: format, front template, back template.

    `entry` is the profile's name for it: the kind itself, or another name when one kind is
    printed as several components (a card and its standee: `{kind: warrior, ...}`)."""

    kind: str
    format: str
    template: str
    back: str | None
    back_per_entity: bool = False
    back_by: str | None = None
    variants: tuple[Variant, ...] = ()
    ref_fields: tuple[str, ...] = ()  # shown of referenced entities, beyond their names
    entry: str = ""  # the entry's name in print.components (default: the kind)
    where: Where | None = None

    @property
    def name(self) -> str:
        return self.entry or self.kind

    def prints(self, get) -> bool:
        """True for the entities this entry prints; `get(dotted)` reads their data."""
        return self.where is None or get(self.where.field) == self.where.equals

    def component_id(self, entity_id: str) -> str:
        """The id of this entry's copies: the entity's id, suffixed with the entry's name when
        the entry is not the kind itself (ids never hold a dot, so none can collide)."""
        return entity_id if self.name == self.kind else f"{entity_id}.{self.name}"

    def choose(self, get) -> tuple[str, str, str | None]:
        """(format, template, back) for an entity; `get(dotted)` reads its data."""
        for v in self.variants:
            if get(v.field) == v.equals:
                return (v.format or self.format, v.template or self.template,
                        v.back or self.back)
        return self.format, self.template, self.back


@dataclass(frozen=True)
class Profile:
    """The resolved print profile of one build."""

    paper: str
    bleed: float
    min_font_pt: float
    fonts: Mapping[str, str]
    kinds: tuple[KindPrint, ...]
    formats: Mapping[str, Format]
    sheets: Mapping[str, Sheet]

    def for_kind(self, kind: str) -> KindPrint | None:
        return next((k for k in self.kinds if k.kind == kind), None)

    def for_entry(self, name: str) -> KindPrint | None:
        return next((k for k in self.kinds if k.name == name), None)

    @property
    def sheet(self) -> Sheet:
        return self.sheets[self.paper]


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        if "$id" in schema:
            resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def validator(name: str) -> Draft7Validator:
    """A draft-07 validator for schemas/print/<name>.json, with refs into schemas/ resolved."""
    from jsonschema import Draft7Validator

    import pipeline.schemas  # noqa: F401  (it teaches urljoin the schemas' relic:// scheme)

    schema = json.loads((SCHEMAS / "print" / f"{name}.json").read_text(encoding="utf-8"))
    return Draft7Validator(schema, registry=_registry())


def _schema_errors(name: str, data: Any, display: str, locate) -> list[Diagnostic]:
    out = []
    for err in sorted(validator(name).iter_errors(data), key=lambda e: list(e.absolute_path)):
        line, col = locate(tuple(err.absolute_path))
        where = ".".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(error("print-schema", f"{where}: {err.message}", Span(display, line, col)))
    return out


def _load_yaml(path: Path, schema: str) -> tuple[dict, list[Diagnostic]]:
    stat = path.stat()
    return _load_yaml_cached(path, schema, stat.st_mtime_ns, stat.st_size)


VALIDATED: dict[str, Path] = {}
"""`VALIDATED["dir"]`: where a build keeps print files and layouts already checked (its cache)."""
ENTRIES: set[Path] = set()  # the checked copies this process read or wrote


@contextmanager
def checked_copies_scope() -> Iterator[None]:
    """Within: a command may name its cache for checked copies (`remember_checked_layouts`);
    afterwards the folder named before is back, so that a later command in the same process
    (a test, the hostile corpus's runner) does not read or write another build's cache."""
    before = dict(VALIDATED)
    try:
        yield
    finally:
        VALIDATED.clear()
        VALIDATED.update(before)


@cache
def _load_yaml_cached(path: Path, schema: str, mtime: int, size: int, keep: bool = True
                      ) -> tuple[dict, list[Diagnostic]]:
    """One parse per file version and process (labels are read once per language); with
    `keep`, a checked copy in the build's cache spares later processes the YAML and the
    schema."""
    entry = checked_copy("print", f"print\0{schema}", schema, _read(path)) if keep else None
    data = read_checked(entry)
    if isinstance(data, dict):
        return data, []
    from pipeline.loader import try_load

    source, problems = try_load(path, relative(path))  # the content's own bounded loader
    if source is None:
        return {}, problems
    errors = _schema_errors(schema, source.data, source.display, lambda p: _place(source, p))
    if errors:
        return {}, errors
    data = thaw(source.data)
    write_checked(entry, data)
    return data, []


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def checked_copy(folder: str, marker: str, schema: str, text: bytes | None) -> Path | None:
    """Where the build's cache (`VALIDATED["dir"]`) keeps the checked data of a file with
    these bytes, checked against schemas/print/<schema>.json; None without a cache."""
    import hashlib

    root = VALIDATED.get("dir")
    if root is None or text is None:
        return None
    digest = hashlib.sha256(f"{marker}\0{schema}\0{_schemas_digest()}\0".encode() + text)
    return root / folder / f"{digest.hexdigest()}.json"


@cache
def _schemas_digest() -> str:
    """Every schema file's name and bytes: a schema refers to others (`../defs.json`), so a
    change to any of them checks every copy again."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(SCHEMAS.rglob("*.json")):
        digest.update(f"{path.relative_to(SCHEMAS).as_posix()}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def write_checked(entry: Path | None, data: Any) -> None:
    """Keep the checked data of a file as its checked copy (noted as used by this process);
    nothing without a cache. Keys keep their written order."""
    if entry is None:
        return
    from pipeline.fsutil import cache_write

    cache_write(entry, json.dumps(data, ensure_ascii=False))
    ENTRIES.add(entry)


def read_checked(entry: Path | None) -> Any:
    """The data of a checked copy (noted as used by this process), or None."""
    if entry is None or not entry.is_file():
        return None
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ENTRIES.add(entry)
    return data


def _place(source: SourceFile, path: tuple) -> tuple[int, int]:
    span = source.span(path)
    return span.line, span.col


def _profile_errors(raw: dict, manifest: SourceFile) -> list[Diagnostic]:
    """The profile against schemas/print/profile.json; a profile found right is kept as a
    checked copy in the build's cache, and a later process does not check it again."""
    entry = checked_copy("print", "profile", "profile",
                         json.dumps(raw, sort_keys=True, ensure_ascii=False).encode())
    if read_checked(entry) is True:
        return []
    errors = _schema_errors("profile", raw, manifest.display,
                            lambda p: _pos(manifest.span(("print", *p))))
    if not errors:
        write_checked(entry, True)
    return errors


def _format(name: str, raw: Mapping[str, Any], bleed: float) -> Format:
    return Format(
        name=name,
        label=raw.get("label", name),
        width=parse_length(raw["width"]),
        height=parse_length(raw["height"]),
        bleed=parse_length(raw["bleed"]) if "bleed" in raw else bleed,
        shape=raw.get("shape", "rect"),
        corner=parse_length(raw.get("corner", "0mm")),
    )


def _sheet(name: str, raw: Mapping[str, Any]) -> Sheet:
    return Sheet(
        name=name,
        label=raw.get("label", name),
        width=parse_length(raw["width"]),
        height=parse_length(raw["height"]),
        margin=parse_length(raw["margin"]),
        gutter=parse_length(raw.get("gutter", "0mm")),
        mark_length=parse_length(raw.get("mark_length", "4mm")),
    )


def _library(name: str, pack_root: Path, errors: list[Diagnostic]) -> dict[str, Any]:
    """Library entries of formats.yaml / sheets.yaml, overlaid by the pack's own print folder."""
    merged: dict[str, Any] = {}
    for path in (LIBRARY / f"{name}.yaml", pack_root / "print" / f"{name}.yaml"):
        if path.is_file():
            data, errs = _load_yaml(path, name)
            errors.extend(errs)
            merged.update(data.get(name, {}))
    return merged


def load_profile(pack: PackInfo, paper: str | None = None) -> Profile:
    """The pack's print profile with its formats and sheets (RelicError lists every problem)."""
    errors: list[Diagnostic] = []
    raw = thaw(pack.print_profile)
    manifest = pack.manifest
    if not raw:
        raise RelicError([error(
            "no-print-profile", f"pack {pack.id!r} has no print profile", manifest.span(),
            hint="add `print: {components: {<kind>: {format: poker, template: <kind>}}}` to "
                 "pack.yaml (schemas/print/profile.json)")])
    errors += _profile_errors(raw, manifest)
    formats_raw = _library("formats", pack.root, errors)
    sheets_raw = _library("sheets", pack.root, errors)
    if errors:
        raise RelicError(errors)
    bleed = parse_length(raw.get("bleed", DEFAULT_BLEED))
    formats = {n: _format(n, f, bleed) for n, f in sorted(formats_raw.items())}
    sheets = {n: _sheet(n, s) for n, s in sorted(sheets_raw.items())}
    kinds = []
    for entry, spec in sorted(raw.get("components", {}).items()):
        variants = tuple(Variant(v["field"], v["equals"], v.get("format"), v.get("template"),
                                 v.get("back")) for v in spec.get("variants", []))
        where = ("print", "components", entry)
        for i, name in enumerate([spec["format"]] + [v.format for v in variants]):
            if name and name not in formats:
                path = (*where, "format") if i == 0 else (*where, "variants", i - 1, "format")
                errors.append(_unknown("format", name, formats, manifest.span(path)))
        only = spec.get("where")
        kinds.append(KindPrint(spec.get("kind", entry), spec["format"],
                               spec.get("template", entry), spec.get("back"),
                               bool(spec.get("back_per_entity", False)), spec.get("back_by"),
                               variants, tuple(spec.get("ref_fields", ())), entry,
                               Where(only["field"], only["equals"]) if only else None))
        errors += _missing_templates(kinds[-1], manifest.span(where), pack.root)
    chosen = paper or raw.get("paper", "a4")
    if chosen not in sheets:
        errors.append(_unknown("paper", chosen, sheets, manifest.span(("print", "paper"))))
    if errors:
        raise RelicError(errors)
    fonts = {**DEFAULT_FONTS, **raw.get("fonts", {})}
    min_font = parse_length(raw.get("min_font_size", DEFAULT_MIN_FONT)) * 72 / 25.4
    return Profile(chosen, bleed, round(min_font, 3), fonts, tuple(kinds), formats, sheets)


def _missing_templates(spec: KindPrint, span: Span, pack_root: Path) -> list[Diagnostic]:
    """Every layout the kind names exists (the pack's print/layouts/, then templates/layouts/)."""
    from pipeline.cards.faces.spec import find

    wanted = {spec.template} | {v.template for v in spec.variants if v.template}
    wanted |= {f"backs/{b}" for b in [spec.back, *(v.back for v in spec.variants)] if b}
    return [error("unknown-template", f"print.components.{spec.name}: no layout {name}.yaml",
                  span, hint="layouts live in templates/layouts/ (backs in "
                             "templates/layouts/backs/) or the pack's print/layouts/")
            for name in sorted(wanted) if find(name, pack_root) is None]


def _pos(span: Span) -> tuple[int, int]:
    return span.line, span.col


def _unknown(what: str, name: str, known: Mapping[str, Any], span: Span) -> Diagnostic:
    return error(f"unknown-{what}", f"unknown {what} {name!r}", span,
                 hint="known: " + ", ".join(sorted(known)))


def load_labels(pack: PackInfo, lang: str) -> dict[str, str]:
    """Printed captions in `lang` (falling back to the source language, then to the key)."""
    errors: list[Diagnostic] = []
    raw = _library("labels", pack.root, errors)
    if errors:
        raise RelicError(errors)
    src = pack.source_language
    return {k: v.get(lang) or v.get(src) or k for k, v in sorted(raw.items())}
