"""Bindings: Jinja expressions and templates over a face's data, with the field each one reads.

Layouts are data, so the values they print are Jinja (a sandboxed environment: a layout can
read the face's data but call nothing else). Every template and expression is compiled once per
process, and with a cache folder (`keep_compiled_in`) kept there in Jinja's bytecode cache, so
that a build compiles only what no earlier build did. A `Scope` carries the variables of one
face (and of the loop items inside it) together with the entity field path each variable
stands for, so that a text that cannot fit is reported at the field it prints
(`special.2.text`), not at the layout.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.bccache import Bucket
from jinja2.environment import TemplateExpression
from jinja2.sandbox import SandboxedEnvironment

from pipeline.cards.prune import mark_used


class BindError(Exception):
    """A template or expression of a layout failed for one face."""


def _signed(value: Any) -> str:
    """+2, 0, −3 (a true minus sign)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"\u2212{-number}")


MACROS = Path(__file__).resolve().parents[3] / "templates" / "layouts"


@cache
def environment() -> SandboxedEnvironment:
    """Layout templates may `{% import "macros.j2" as m with context %}` shared macros
    (templates/layouts/*.j2)."""
    env = SandboxedEnvironment(autoescape=False, undefined=jinja2.ChainableUndefined,
                                        keep_trailing_newline=False,
                                        loader=jinja2.FileSystemLoader(str(MACROS)))
    env.filters["signed"] = _signed
    return env


class _Compiled(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache in the build's cache folder; a file read counts as used (prune)."""

    def load_bytecode(self, bucket: Bucket) -> None:
        super().load_bytecode(bucket)
        if bucket.code is not None:
            mark_used(self._get_cache_filename(bucket))


_COMPILED: list[_Compiled] = []  # the cache in use, if any (`keep_compiled_in`)
_CODE_VERSION = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()
                               ).hexdigest()[:16]  # this module's and Jinja's


def keep_compiled_in(folder: Path) -> None:
    """Keep what this process compiles from now on in `folder` (the build's cache/jinja)."""
    if not _COMPILED or _COMPILED[0].directory != str(folder):
        folder.mkdir(parents=True, exist_ok=True)
        _COMPILED[:] = [_Compiled(str(folder))]
        # the templates layouts import (`macros.j2`) too: Jinja's loader keeps them there
        # itself (compiling them took 0.03-0.05 s of a one-card edit)
        environment().bytecode_cache = _COMPILED[0]


def _code(kind: str, source: str, compile_: Callable[[], CodeType]) -> CodeType:
    """`compile_()`, or the code an earlier process compiled from the same source."""
    if not _COMPILED:
        return compile_()
    name = f"relic-{kind}-{_CODE_VERSION}-{hashlib.sha256(source.encode()).hexdigest()}"
    bucket = _COMPILED[0].get_bucket(environment(), name, None, source)
    if bucket.code is None:
        bucket.code = compile_()
        with contextlib.suppress(OSError):
            _COMPILED[0].set_bucket(bucket)
    return bucket.code


def _from_code(code: CodeType) -> jinja2.Template:
    env = environment()
    return env.template_class.from_code(env, code, env.make_globals(None))


@cache
def _template(source: str) -> jinja2.Template:
    return _from_code(_code("template", source, lambda: environment().compile(source)))


@cache
def _expression(source: str) -> TemplateExpression:
    """Jinja's compile_expression: the expression kept as the template that assigns it to
    `result`, the very code compile_expression builds (so it can live in the bytecode cache)."""
    env = environment()
    if not _COMPILED:
        return env.compile_expression(source, undefined_to_none=True)

    def compile_() -> CodeType:
        env.compile_expression(source)  # its errors, as without a cache
        return env.compile(f"{{% set result = ({source}) %}}")

    return TemplateExpression(_from_code(_code("expression", source, compile_)), True)


@cache
def _constant(source: str) -> bool:
    return "{{" not in source and "{%" not in source


_PATH = re.compile(r"^\s*([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\s*$")
_MISSING = object()


@cache
def _simple(source: str, expression: bool) -> tuple[str, ...] | None:
    """`entity.stats.speed` (or `{{ entity.name }}`): a plain path, read without Jinja."""
    if not expression:
        if not (source.startswith("{{") and source.endswith("}}")) or source.count("{{") != 1:
            return None
        source = source[2:-2]
    match = _PATH.match(source)
    return tuple(match[1].split(".")) if match else None


_JINJA = object()


def _lookup(values: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """Jinja's `a.b` for plain data: a mapping's key; _MISSING when absent (Jinja's undefined);
    _JINJA when only Jinja knows (an attribute such as a dict's `items`)."""
    cur = values.get(path[0], _MISSING)
    for part in path[1:]:
        if cur is _MISSING:
            return _MISSING
        if not isinstance(cur, Mapping) or hasattr(cur, part):
            return _JINJA
        cur = cur.get(part, _MISSING)
    return cur


@dataclass(frozen=True)
class Scope:
    """The variables of a face, and for some of them the entity field path they stand for."""

    values: Mapping[str, Any]
    paths: Mapping[str, str]

    def child(self, name: str, value: Any, index: int, path: str | None) -> Scope:
        values = {**self.values, name: value, "index": index}
        paths = dict(self.paths)
        if path is not None:
            paths[name] = path
        else:
            paths.pop(name, None)
        return Scope(values, paths)

    def with_values(self, extra: Mapping[str, Any]) -> Scope:
        return Scope({**self.values, **extra}, self.paths)

    def render(self, source: str | None) -> str:
        """A template's text for this face ('' for none)."""
        if source is None:
            return ""
        if _constant(source):
            return source
        path = _simple(source, False)
        if path is not None:
            value = _lookup(self.values, path)
            if value is _MISSING:
                return ""
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                return str(value)
        try:
            return _template(source).render(self.values)
        except jinja2.TemplateError as exc:
            raise BindError(f"template {source!r}: {exc}") from exc
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            raise BindError(f"template {source!r}: {type(exc).__name__}: {exc}") from exc

    def eval(self, source: Any) -> Any:
        """An expression's value (None when it reads something absent)."""
        if not isinstance(source, str):
            return source
        path = _simple(source, True)
        if path is not None:
            value = _lookup(self.values, path)
            if value is _MISSING:
                return None
            if value is not _JINJA:
                return value
        try:
            return _expression(source)(**self.values)
        except jinja2.TemplateError as exc:
            raise BindError(f"expression {source!r}: {exc}") from exc
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            raise BindError(f"expression {source!r}: {type(exc).__name__}: {exc}") from exc

    def truth(self, source: Any) -> bool:
        if source is None:
            return True
        value = self.eval(source)
        return bool(value) and not isinstance(value, jinja2.Undefined)

    def field(self, source: Any, expression: bool = False) -> str | None:
        """The entity field path a template (or expression) prints first, if it reads one."""
        if not isinstance(source, str):
            return None
        chain = _first_chain(source, expression)
        if chain is None or chain[0] not in self.paths:
            return None
        base = self.paths[chain[0]]
        parts = [p for p in (base, *chain[1]) if p != ""]
        return ".".join(parts)


@cache
def _first_chain(source: str, expression: bool) -> tuple[str, tuple[str, ...]] | None:
    """The first `name.attr[...]...` chain in a template or expression: (name, attrs)."""
    env = environment()
    try:
        tree = env.parse(f"{{{{ {source} }}}}" if expression else source)
    except jinja2.TemplateSyntaxError:
        return None
    best: tuple[str, tuple[str, ...]] | None = None
    callees = {id(call.node) for call in tree.find_all(nodes.Call)}  # `x.items()`: x
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if id(node) in callees:
            continue
        attrs: list[str] = []
        cur: nodes.Node = node
        while isinstance(cur, nodes.Getattr | nodes.Getitem):
            if isinstance(cur, nodes.Getattr):
                attrs.append(cur.attr)
            elif isinstance(cur.arg, nodes.Const):
                attrs.append(str(cur.arg.value))
            else:
                attrs = []
            cur = cur.node
        if isinstance(cur, nodes.Name) and attrs:
            chain = (cur.name, tuple(reversed(attrs)))
            if best is None or len(chain[1]) > len(best[1]):
                best = chain
            break
    return best


def check_syntax(source: Any, expression: bool) -> str | None:
    """Why a layout's template or expression does not compile (None when it does)."""
    if not isinstance(source, str):
        return None
    try:
        if expression:
            _expression(source)
        else:
            _template(source)
    except jinja2.TemplateSyntaxError as exc:
        return str(exc)
    return None
