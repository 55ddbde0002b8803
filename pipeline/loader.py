"""Stage 1, load: YAML bytes -> `SourceFile` (plain data + the place of every value).

The libyaml event parser (through ruamel.yaml) is fast and never recurses; the composer here is
our own and iterative, so that every safety bound is enforced while the data is built:
file size, encoding, characters, duplicate keys, custom tags, alias expansion, nesting depth and
the length of integers. Files are read through `pipeline.fsutil.read_file`: only regular files
inside the project, never a named pipe, never through a link that leads outside.
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
from pipeline.fsutil import Refused, read_file
from pipeline.model import PathKey, SourceFile

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_EXPANSION = 10_000
MAX_INT_DIGITS = 4300  # Python's own bound on reading an integer from text
_MAX_INT_BITS = 14_284  # an integer of 4300 decimal digits fits in this many bits

# Characters YAML allows in a stream (YAML 1.2, 5.1): tab, line breaks, printable ASCII, NEL and
# the printable ranges above; anything else is a control character or a non-character.
_NOT_PRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what libyaml counts as a new line
_CHAR_NAMES = {0: "NUL", 7: "BEL", 8: "backspace", 0x1B: "ESC", 0x7F: "DEL", 0xFEFF: "BOM"}

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
        digits = len(text.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise ValueError(f"an integer of {digits} digits is longer than the "
                             f"{MAX_INT_DIGITS} digits allowed")
        return int(text)
    if _INT_OTHER.match(text):
        value = int(text, 0)
        if value.bit_length() > _MAX_INT_BITS:
            raise ValueError(f"an integer of {len(text) - 2} digits is larger than the "
                             f"{MAX_INT_DIGITS} decimal digits allowed")
        return value
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

    def __init__(self, display: str, text: str = ""):
        self.display = display
        self.text = text
        self.has_question_mark = "?" in text
        self.positions: dict[PathKey, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Frame] = []
        self.expanded = 0
        self.root: Any = None
        self.documents = 0

    def fail(self, code: str, message: str, mark: Any, hint: str | None = None) -> RelicError:
        """A located error at a parser mark (or at a `Span`)."""
        if isinstance(mark, Span):
            span = mark
        else:
            span = Span(self.display, mark.line + 1, mark.column + 1) if mark else Span(
                self.display)
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

    def _check_key_indicator(self, event: Any) -> None:
        """`?` written right before a value in a flow collection (`{?0: 1}`, `[?x]`): libyaml
        (so relic) reads an explicit-key indicator, YAML 1.2 readers (editors) read the text
        `?0`. Content whose meaning depends on the reader is refused."""
        if not self.has_question_mark:
            return
        mark = event.start_mark
        index = getattr(mark, "index", 0) if mark is not None else 0
        if 0 < index <= len(self.text) and self.text[index - 1] == "?":
            value = getattr(event, "value", None)
            shown = f"?{value}" if isinstance(value, str) else "?..."
            raise self.fail(
                "ambiguous-key",
                f"'{shown}' inside [...] or {{...}}: YAML 1.1 readers (relic among them) take "
                f"'?' as a key indicator, YAML 1.2 readers (editors) as part of the text",
                Span(self.display, mark.line + 1, mark.column),
                f"quote the text ('{shown}'), or put a space after '?' if it marks a key",
            )

    def _scalar(self, event: ev.ScalarEvent) -> None:
        self._check_tag(event)
        self._check_key_indicator(event)
        try:
            if event.tag is None or event.tag == "!":
                plain = event.style in (None, "") and event.implicit[0]
                value = resolve_plain(event.value) if plain else event.value
            else:
                value = _tagged_scalar(event.tag, event.value)
        except ValueError as exc:
            raise self.fail("bad-scalar", str(exc), event.start_mark) from None
        self._add(value, 1, event)

    def _alias(self, event: ev.AliasEvent) -> None:
        self._check_key_indicator(event)
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
        mark = event.start_mark
        self.positions[path] = (mark.line + 1, mark.column + 1)
        anchor = event.anchor
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


def line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index, counting lines as the parser does."""
    before = text[:index]
    breaks = list(_LINE_BREAK.finditer(before))
    start = breaks[-1].end() if breaks else 0
    return len(breaks) + 1, index - start + 1


def _decode(raw: bytes, display: str) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", "replace")
        line, col = line_col(good, len(good))
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


def _char_name(ch: str) -> str:
    code = ord(ch)
    name = _CHAR_NAMES.get(code)
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def check_characters(text: str, display: str) -> None:
    """Refuse the first character YAML does not allow, at its own line and column."""
    found = _NOT_PRINTABLE.search(text)
    if found is None:
        return
    line, col = line_col(text, found.start())
    kind = "a control character" if ord(found.group()) < 0xA0 else "not a printable character"
    raise RelicError([error(
        "control-character",
        f"{_char_name(found.group())} is {kind}, which YAML does not allow",
        Span(display, line, col),
        "remove it; write it as an escape (\\x00, \\u200b) inside a double-quoted string "
        "if it is meant",
    )])


def _syntax_error(exc: Exception, display: str, text: str = "") -> RelicError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if isinstance(exc, MarkedYAMLError) and mark is not None:
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        span = Span(display, mark.line + 1, mark.column + 1)
        return RelicError([error("yaml-syntax", f"{problem}{context}", span)])
    position = getattr(exc, "position", None)  # libyaml counts it in UTF-8 bytes
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    line, col = 1, 1
    if isinstance(position, int) and text:
        before = text.encode("utf-8")[:position].decode("utf-8", "ignore")
        line, col = line_col(before, len(before))
    return RelicError([error("yaml-syntax", message, Span(display, line, col))])


def parse_text(text: str, display: str) -> tuple[Any, dict[PathKey, tuple[int, int]]]:
    """Compose YAML text into plain data and positions; raise `RelicError` on any problem."""
    check_characters(text, display)
    composer = _Composer(display, text)
    parser = YAML(typ="safe", pure=False)
    try:
        for event in parser.parse(text):
            composer.feed(event)
    except RelicError:
        raise
    except (YAMLError, ValueError, TypeError, AttributeError, SystemError) as exc:
        raise _syntax_error(exc, display, text) from None
    return composer.root, composer.positions


def load_yaml(path: Path, display: str | None = None, project: Path | None = None) -> SourceFile:
    """Read one YAML file within the bounds; raise `RelicError` with a located diagnostic.

    `project`: the folder no read may leave (default: the project of the file's folder, see
    `pipeline.fsutil.project_root`)."""
    display = display or str(path)
    try:
        raw = read_file(path, MAX_FILE_BYTES, project, display)
    except Refused as exc:
        raise RelicError([exc.diagnostic]) from None
    data, positions = parse_text(_decode(raw, display), display)
    return SourceFile(path=path, display=display, data=data, positions=positions)


def load_bytes(raw: bytes, display: str = "<bytes>") -> SourceFile:
    """The same as `load_yaml` for bytes in memory (tests, stdin)."""
    if len(raw) > MAX_FILE_BYTES:
        raise RelicError([error("file-too-large", "file is too large", Span(display))])
    data, positions = parse_text(_decode(raw, display), display)
    return SourceFile(path=Path(display), display=display, data=data, positions=positions)


def try_load(path: Path, display: str, project: Path | None = None
             ) -> tuple[SourceFile | None, list[Diagnostic]]:
    try:
        return load_yaml(path, display, project), []
    except RelicError as exc:
        return None, list(exc.diagnostics)
