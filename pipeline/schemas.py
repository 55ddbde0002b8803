"""The schema catalogue: one JSON Schema per entity kind, plus shared definitions.

Adding `schemas/kinds/<kind>.json` adds a kind; the loader has no per-kind code.
References between entities are marked in schemas with the `x-ref` keyword.

A pack's own schemas are content like any other: they are read through the safe file reader
(`pipeline.fsutil`), and one that is not JSON, nests too deeply, is no valid draft-07 schema or
has a `$ref` that leads nowhere gets a `bad-schema` diagnostic and is left out (`problems`,
`broken`) instead of stopping the check.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, SchemaError, ValidationError, validators
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT7

from pipeline.diagnostics import Diagnostic, Span, error, relative
from pipeline.fsutil import Refused, project_root, read_file, scan_tree

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = PROJECT_ROOT / "schemas"
REF_KEYWORD = "x-ref"
DEPENDS_KEYWORD = "x-depends"  # beside x-ref: the reference means "must come first"
STANDALONE_KEYWORD = "x-standalone"
SCHEMA_ID_PREFIX = "relic://schemas/"
MAX_SCHEMA_BYTES = 1024 * 1024
MAX_SCHEMA_DEPTH = 64

# Schema ids use the relic:// scheme; teach urljoin that it has relative paths like https.
for _registry in (urllib.parse.uses_relative, urllib.parse.uses_netloc):
    if "relic" not in _registry:
        _registry.append("relic")


def _ref_marker(
    validator: Any, kinds: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """Not a failure: a marker that records where a reference stands (split off later)."""
    if isinstance(instance, str):
        yield ValidationError("reference", instance=instance)


# ----- patterns that cannot hang a check --------------------------------------------------
# A pack's own schema may hold a pattern that backtracks for ever on some value ("(a|aa)+$").
# The project's own patterns are known to be linear and are matched by `re`, as jsonschema
# does; any other pattern is matched with the `regex` engine under a time-out, all of them in
# one process sharing a budget. A pattern that runs out is `schema-pattern-timeout` at the value.
PATTERN_SECONDS = 0.05
PATTERN_BUDGET_SECONDS = 2.0
_spent = [0.0]


class PatternTimeout(Exception):
    pass


def _patterns_in(node: Any, found: set[str]) -> set[str]:
    stack = [node]
    while stack:
        here = stack.pop()
        if isinstance(here, dict):
            if isinstance(here.get("pattern"), str):
                found.add(here["pattern"])
            if isinstance(here.get("patternProperties"), dict):
                found.update(here["patternProperties"])
            stack.extend(here.values())
        elif isinstance(here, list):
            stack.extend(here)
    return found


@functools.cache
def _trusted() -> frozenset[str]:
    """Every pattern of the project's own schemas (schemas/)."""
    found: set[str] = set()
    for path in sorted(SCHEMA_DIR.rglob("*.json")):
        _patterns_in(json.loads(path.read_text("utf-8")), found)
    return frozenset(found)


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str, trusted: bool) -> Any:
    if trusted:
        return re.compile(pattern)
    import regex  # only for a pack's own patterns: most builds never import it

    return regex.compile(pattern)


def _search(pattern: str, text: str) -> bool:
    if pattern in _trusted():
        return _compiled(pattern, True).search(text) is not None
    budget_left = PATTERN_BUDGET_SECONDS - _spent[0]
    started = time.perf_counter()
    try:
        found = _compiled(pattern, False).search(
            text, timeout=max(0.001, min(PATTERN_SECONDS, budget_left)))
    except TimeoutError:
        raise PatternTimeout(pattern) from None
    finally:
        _spent[0] += time.perf_counter() - started
    return found is not None


def _too_slow(pattern: str) -> ValidationError:
    return ValidationError(f"the pattern {pattern!r} takes too long on this value: a pattern "
                           "must not backtrack without bound", validator="patternTimeout")


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any
             ) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        if not _search(pattern, instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")
    except PatternTimeout:
        yield _too_slow(pattern)


def _pattern_properties(validator: Any, patterns: dict, instance: Any, schema: Any
                        ) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                found = _search(pattern, key)
            except PatternTimeout:
                yield _too_slow(pattern)
                return
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, allowed: Any, instance: Any, schema: Any
                           ) -> Iterator[ValidationError]:
    """draft-07's own, but with the patterns of `patternProperties` matched as above."""
    if not validator.is_type(instance, "object") or "patternProperties" not in schema:
        yield from _DRAFT7_ADDITIONAL(validator, allowed, instance, schema)
        return
    known = schema.get("properties", {})
    patterns = list(schema["patternProperties"])
    extras = []
    try:
        for key in instance:
            if key not in known and not any(_search(p, key) for p in patterns):
                extras.append(key)
    except PatternTimeout as exc:
        yield _too_slow(str(exc))
        return
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        joined = ", ".join(repr(e) for e in sorted(extras, key=str))
        yield ValidationError(f"{joined} do not match any of the regexes: "
                              + ", ".join(repr(p) for p in sorted(patterns)))


_DRAFT7_ADDITIONAL = Draft7Validator.VALIDATORS["additionalProperties"]
RelicValidator = validators.extend(Draft7Validator, {
    REF_KEYWORD: _ref_marker,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
})


def inline_refs(node: Any, base: str, registry: Registry, depth: int = 0) -> Any:
    """Replace every `$ref` by its target, once, so validation does no look-ups.

    In draft-07 a `$ref` ignores its siblings, so the replacement is exact. Recursive schemas
    keep their `$ref` past a depth and are then resolved by the registry as usual.
    """
    if isinstance(node, list):
        return [inline_refs(item, base, registry, depth) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("$ref"), str) and depth < 16:
        target = urllib.parse.urljoin(base, node["$ref"])
        resolved = registry.resolver().lookup(target)
        doc_base = target.split("#", 1)[0]
        return inline_refs(resolved.contents, doc_base, registry, depth + 1)
    return {key: inline_refs(value, base, registry, depth) for key, value in node.items()}


@dataclass(frozen=True)
class Reference:
    path: tuple[str | int, ...]
    target: str
    kinds: tuple[str, ...]  # empty: any kind
    depends: bool = False  # marked `x-depends`: the target must come first (no cycles)


@dataclass(frozen=True)
class Catalogue:
    """The schemas of the project, optionally extended (or overridden) by a pack's own."""

    roots: tuple[Path, ...] = (SCHEMA_DIR,)

    @cached_property
    def digest(self) -> str:
        """What names these schemas' contents (and what was left out of them): a result
        validated against them holds while it is unchanged."""
        documents, problems, left_out = self._loaded
        text = json.dumps([documents, sorted(d.text() for d in problems), sorted(left_out)],
                          sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    @cached_property
    def _loaded(self) -> tuple[dict[str, dict], tuple[Diagnostic, ...], frozenset[str]]:
        """(documents, problems, broken kinds). A pack schema that cannot be used is left out:
        the project's schema of the same name, if any, stays in force."""
        ours: dict[str, dict] = {}
        theirs: dict[str, tuple[dict, Path]] = {}
        problems: list[Diagnostic] = []
        left_out: set[str] = set()
        for root in self.roots:
            if root == SCHEMA_DIR:  # the project's own schemas
                for path in sorted(root.rglob("*.json")):
                    ours[path.relative_to(root).as_posix()] = json.loads(path.read_text("utf-8"))
                continue
            project = project_root(root.parent)
            tree = scan_tree(root, project)
            for refused in tree.diagnostics:  # the scan of the pack reports them
                where = Path(os.path.abspath(refused.span.file))
                if where.suffix == ".json":
                    left_out.add(where.relative_to(os.path.abspath(root)).as_posix())
            for path in tree.files:
                if path.suffix != ".json":
                    continue
                rel = path.relative_to(root).as_posix()
                doc, problem = _read_schema(path, project)
                if problem is None:
                    theirs[rel] = (doc, path)
                else:
                    problems.append(problem)
                    left_out.add(rel)
        docs = {**ours, **{rel: doc for rel, (doc, _) in theirs.items()}}
        registry = _registry_of(docs)
        for rel, (doc, path) in sorted(theirs.items()):
            problem = _unresolvable(doc, rel, path, registry)
            if problem is not None:
                problems.append(problem)
                left_out.add(rel)
        for rel in left_out:
            if rel in ours:
                docs[rel] = ours[rel]
            else:
                docs.pop(rel, None)
        broken = {
            rel.removeprefix("kinds/").removesuffix(".json")
            for rel in left_out
            if rel.startswith("kinds/") and rel not in ours
        }
        return docs, tuple(problems), frozenset(broken)

    @property
    def documents(self) -> dict[str, dict]:
        return self._loaded[0]

    @property
    def problems(self) -> tuple[Diagnostic, ...]:
        """Diagnostics for the pack's schemas that could not be used."""
        return self._loaded[1]

    @property
    def broken(self) -> frozenset[str]:
        """Kinds whose pack schema is unusable (their entities are not validated)."""
        return self._loaded[2]

    @cached_property
    def registry(self) -> Registry:
        return _registry_of(self.documents)

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        return tuple(
            rel.removeprefix("kinds/").removesuffix(".json")
            for rel in self.documents
            if rel.startswith("kinds/")
        )

    def kind_schema(self, kind: str) -> dict:
        return self.documents[f"kinds/{kind}.json"]

    @cached_property
    def stat_names(self) -> tuple[str, ...]:
        """The statistics a threshold or a stat field may name (`defs.json#/definitions/stat`,
        the one home of that list)."""
        return tuple(self.documents["defs.json"]["definitions"]["stat"]["enum"])

    def is_standalone(self, kind: str) -> bool:
        return bool(self.kind_schema(kind).get(STANDALONE_KEYWORD, False))

    def validator(self, rel: str) -> Draft7Validator:
        found = self._validators.get(rel)
        if found is None:
            schema = inline_refs(self.documents[rel], SCHEMA_ID_PREFIX + rel, self.registry)
            found = self._validators[rel] = RelicValidator(schema, registry=self.registry)
        return found

    @cached_property
    def _validators(self) -> dict[str, Draft7Validator]:
        return {}

    def check(
        self, rel: str, instance: Any, limit: int | None = None
    ) -> tuple[list[ValidationError], list[Reference]]:
        """Validate; return the real errors and the references found, separately. With `limit`,
        validation stops at that many errors (a list of 10^5 wrong values costs no more than a
        few; the references of an invalid instance are not needed)."""
        errors, refs = [], []
        for err in self.validator(rel).iter_errors(instance):
            if limit is not None and len(errors) >= limit:
                break
            if err.validator == REF_KEYWORD:
                kinds = err.validator_value
                kinds = (
                    ()
                    if kinds in ("*", None)
                    else (kinds,)
                    if isinstance(kinds, str)
                    else tuple(kinds)
                )
                depends = isinstance(err.schema, dict) and err.schema.get(DEPENDS_KEYWORD) is True
                refs.append(Reference(tuple(err.absolute_path), err.instance, kinds, depends))
            else:
                errors.append(err)
        return errors, refs


def _registry_of(docs: dict[str, dict]) -> Registry:
    resources = [
        (SCHEMA_ID_PREFIX + rel, Resource.from_contents(doc, default_specification=DRAFT7))
        for rel, doc in docs.items()
    ]
    return Registry().with_resources(resources)


def _unresolvable(doc: dict, rel: str, path: Path, registry: Registry) -> Diagnostic | None:
    """A `$ref` of a pack schema that leads to no schema of the catalogue (the registry has no
    way to fetch anything, so a URL leads nowhere too)."""
    try:
        inline_refs(doc, SCHEMA_ID_PREFIX + rel, registry)
    except (Unresolvable, RecursionError, TypeError, ValueError, KeyError) as exc:
        what = getattr(exc, "ref", None) or type(exc).__name__
        return error("bad-schema", f"a $ref leads nowhere: {what}", Span(relative(path)),
                     "a $ref names another schema of the project or the pack by a relative "
                     "path, such as ../defs.json#/definitions/text")
    return None


def _depth(doc: Any) -> int:
    """How deeply a JSON document nests (iteratively)."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_SCHEMA_DEPTH:
                children = node.values() if isinstance(node, dict) else node
                stack.extend((child, depth + 1) for child in children)
    return deepest


def _read_schema(path: Path, project: Path) -> tuple[dict | None, Diagnostic | None]:
    """One schema file of a pack, or the diagnostic that says why it cannot be used."""
    display = relative(path)

    def bad(message: str, line: int = 1, col: int = 1, hint: str | None = None):
        return None, error("bad-schema", message, Span(display, line, col), hint)

    try:
        raw = read_file(path, MAX_SCHEMA_BYTES, project, display)
    except Refused as exc:
        return None, exc.diagnostic
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return bad("the schema is not UTF-8")
    except json.JSONDecodeError as exc:
        return bad(f"not JSON: {exc.msg}", exc.lineno, exc.colno)
    except (ValueError, RecursionError) as exc:
        return bad(f"not JSON: {type(exc).__name__}")
    if not isinstance(doc, dict):
        return bad("a schema is a JSON object")
    if _depth(doc) > MAX_SCHEMA_DEPTH:
        return bad(f"the schema nests deeper than {MAX_SCHEMA_DEPTH} levels")
    try:
        Draft7Validator.check_schema(doc)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top)"
        return bad(f"not a valid draft-07 schema at {where}: {exc.message[:200]}")
    return doc, None


CATALOGUE = Catalogue()


def catalogue_for(pack_dir: Path) -> Catalogue:
    """A pack may add kinds in its own `schemas/kinds/` folder."""
    local = pack_dir / "schemas"
    return Catalogue((SCHEMA_DIR, local)) if local.is_dir() else CATALOGUE
