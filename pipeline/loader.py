"""Stage 1, load: YAML bytes -> `SourceFile` (plain data + the place of every value).

The libyaml event parser (through ruamel.yaml) is fast and never recurses; the composer here is
our own and iterative, so that every safety bound is enforced while the data is built:
file size, encoding, duplicate keys, custom tags, alias expansion and nesting depth.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from pipeline.diagnostics import Diagnostic, RelicError, Span, error
from pipeline.model import PathKey, SourceFile

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_EXPANSION = 10_000

CORE = "tag:yaml.org,2002:"
ALLOWED_TAGS = {CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq")} | {"!"}

_INT = re.compile(r"^[-+]?[0-9]+$")
_INT_OTHER = re.compile(r"^0o[0-7]+$|^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(inf|Inf|INF)$")
_NAN = re.compile(r"^\.(nan|NaN|NAN)$")
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}


def resolve_plain(text: str) -> Any:
    """YAML 1.2 core schema resolution of a plain (unquoted) scalar."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        return int(text)
    if _INT_OTHER.match(text):
        return int(text, 0)
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


def _tagged_scalar(tag: str, text: str) -> Any:
    if tag in (CORE + "str", "!"):
        return text
    value = resolve_plain(text)
    expected = {CORE + "int": int, CORE + "float": (float, int), CORE + "bool": bool}
    if tag == CORE + "null":
        if value is not None:
            raise ValueError(f"'{text}' is not a null")
        return None
    want = expected[tag]
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise ValueError(f"'{text}' does not match its tag {tag}")
    return float(value) if tag == CORE + "float" else value


@dataclass
class _Frame:
    """A collection being built."""

    container: list | dict
    path: PathKey
    anchor: str | None
    nodes: int = 1
    key: Any = None
    key_mark: Any = None
    has_key: bool = False
    key_lines: dict = field(default_factory=dict)


class _Composer:
    """Builds plain data from parser events, iteratively, enforcing every bound."""

    def __init__(self, display: str):
        self.display = display
        self.positions: dict[PathKey, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Frame] = []
        self.expanded = 0
        self.root: Any = None
        self.documents = 0

    def fail(self, code: str, message: str, mark: Any, hint: str | None = None) -> RelicError:
        span = Span(self.display, mark.line + 1, mark.column + 1) if mark else Span(self.display)
        return RelicError([error(code, message, span, hint)])

    # -- event handling ---------------------------------------------------------------------
    def feed(self, event: ev.Event) -> None:
        handler: Callable[[Any], None] | None = self._handlers.get(type(event))
        if handler is not None:
            handler(self, event)

    def _document_start(self, event: ev.DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            raise self.fail(
                "multiple-documents",
                "a content file holds one YAML document; split the others into their own files",
                event.start_mark,
            )

    def _check_tag(self, event: Any) -> None:
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in ALLOWED_TAGS:
            raise self.fail(
                "custom-tag",
                f"custom YAML tag '{tag}' is not allowed in content",
                event.start_mark,
                "remove the tag; content is plain data (strings, numbers, lists, mappings)",
            )

    def _scalar(self, event: ev.ScalarEvent) -> None:
        self._check_tag(event)
        if event.tag is None or event.tag == "!":
            plain = event.style in (None, "") and event.implicit[0]
            value = resolve_plain(event.value) if plain else event.value
        else:
            try:
                value = _tagged_scalar(event.tag, event.value)
            except ValueError as exc:
                raise self.fail("bad-scalar", str(exc), event.start_mark) from None
        self._add(value, 1, event)

    def _alias(self, event: ev.AliasEvent) -> None:
        if event.anchor not in self.anchors:
            raise self.fail(
                "unknown-alias", f"alias '*{event.anchor}' has no anchor", event.start_mark
            )
        value, size = self.anchors[event.anchor]
        self.expanded += size
        if self.expanded > MAX_ALIAS_EXPANSION:
            raise self.fail(
                "alias-limit",
                f"aliases expand to more than {MAX_ALIAS_EXPANSION} values",
                event.start_mark,
                "a file whose aliases multiply (a 'billion laughs' file) is refused",
            )
        self._add(value, size, event)

    def _start(self, event: Any, container: list | dict) -> None:
        self._check_tag(event)
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(
                "nesting-limit", f"nesting deeper than {MAX_DEPTH} levels", event.start_mark
            )
        path = self._child_path(event)
        self.positions[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        self.stack.append(_Frame(container, path, event.anchor))

    def _seq_start(self, event: ev.SequenceStartEvent) -> None:
        self._start(event, [])

    def _map_start(self, event: ev.MappingStartEvent) -> None:
        self._start(event, {})

    def _end(self, event: Any) -> None:
        frame = self.stack.pop()
        if frame.anchor:
            self.anchors[frame.anchor] = (frame.container, frame.nodes)
        self._attach(frame.container, frame.nodes, event)

    # -- building ----------------------------------------------------------------------------
    def _child_path(self, event: Any) -> PathKey:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.container, list):
            return (*top.path, len(top.container))
        if not top.has_key:
            raise self.fail(
                "complex-key",
                "a mapping key must be a plain value, not a collection",
                event.start_mark,
            )
        return (*top.path, top.key)

    def _add(self, value: Any, size: int, event: Any) -> None:
        if self.stack and isinstance(self.stack[-1].container, dict) and not self.stack[-1].has_key:
            self._set_key(value, event)
            return
        path = self._child_path(event)
        self.positions[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        anchor = getattr(event, "anchor", None)
        if anchor and isinstance(event, ev.ScalarEvent):
            self.anchors[anchor] = (value, 1)
        self._attach(value, size, event)

    def _set_key(self, value: Any, event: Any) -> None:
        top = self.stack[-1]
        if isinstance(value, list | dict):
            raise self.fail("complex-key", "a mapping key must be a plain value", event.start_mark)
        key = (
            "null"
            if value is None
            else str(value).lower()
            if isinstance(value, bool)
            else str(value)
        )
        if key in top.key_lines:
            line, col = top.key_lines[key]
            raise self.fail(
                "duplicate-key",
                f"duplicate key '{key}'",
                event.start_mark,
                f"the first '{key}' is at line {line}, column {col}",
            )
        top.key_lines[key] = (event.start_mark.line + 1, event.start_mark.column + 1)
        top.key, top.has_key = key, True

    def _attach(self, value: Any, size: int, event: Any) -> None:
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        top.nodes += size
        if isinstance(top.container, list):
            top.container.append(value)
        else:
            top.container[top.key] = value
            top.has_key = False

    _handlers: ClassVar[dict[type, Callable[[Any, Any], None]]] = {
        ev.DocumentStartEvent: _document_start,
        ev.ScalarEvent: _scalar,
        ev.AliasEvent: _alias,
        ev.SequenceStartEvent: _seq_start,
        ev.MappingStartEvent: _map_start,
        ev.SequenceEndEvent: _end,
        ev.MappingEndEvent: _end,
    }


def _decode(raw: bytes, display: str) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise RelicError(
            [
                error(
                    "not-utf8",
                    f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
                    Span(display, line, col),
                    "save the file as UTF-8",
                )
            ]
        ) from None


def _syntax_error(exc: Exception, display: str) -> RelicError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if isinstance(exc, MarkedYAMLError) and mark is not None:
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        span = Span(display, mark.line + 1, mark.column + 1)
        return RelicError([error("yaml-syntax", f"{problem}{context}", span)])
    position = getattr(exc, "position", None)
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    col = position + 1 if isinstance(position, int) else 1
    return RelicError([error("yaml-syntax", text, Span(display, 1, col))])


def parse_text(text: str, display: str) -> tuple[Any, dict[PathKey, tuple[int, int]]]:
    """Compose YAML text into plain data and positions; raise `RelicError` on any problem."""
    composer = _Composer(display)
    parser = YAML(typ="safe", pure=False)
    try:
        for event in parser.parse(text):
            composer.feed(event)
    except RelicError:
        raise
    except (YAMLError, ValueError, TypeError, AttributeError, SystemError) as exc:
        raise _syntax_error(exc, display) from None
    return composer.root, composer.positions


def load_yaml(path: Path, display: str | None = None) -> SourceFile:
    """Read one YAML file within the bounds; raise `RelicError` with a located diagnostic."""
    display = display or str(path)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise RelicError(
            [
                error(
                    "file-too-large",
                    f"file is {size} bytes; the limit is {MAX_FILE_BYTES}",
                    Span(display),
                    "split the content into several files",
                )
            ]
        )
    data, positions = parse_text(_decode(path.read_bytes(), display), display)
    return SourceFile(path=path, display=display, data=data, positions=positions)


def load_bytes(raw: bytes, display: str = "<bytes>") -> SourceFile:
    """The same as `load_yaml` for bytes in memory (tests, stdin)."""
    if len(raw) > MAX_FILE_BYTES:
        raise RelicError([error("file-too-large", "file is too large", Span(display))])
    data, positions = parse_text(_decode(raw, display), display)
    return SourceFile(path=Path(display), display=display, data=data, positions=positions)


def try_load(path: Path, display: str) -> tuple[SourceFile | None, list[Diagnostic]]:
    try:
        return load_yaml(path, display), []
    except RelicError as exc:
        return None, list(exc.diagnostics)
