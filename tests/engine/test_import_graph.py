"""The catacombs engine's modules import each other without a cycle.

The graph is read from the source with `ast`: every `import` and `from … import` of a sibling
module counts, wherever it stands in the module (a function-level "lazy" import hides a cycle
from Python, not from this test). Only imports under `if TYPE_CHECKING:` are left out: they
never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine_support import ROOT

PACKAGE = "engine.games.catacombs"
SOURCE = ROOT / "engine" / "games" / "catacombs"


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported_names(tree: ast.AST) -> list[str]:
    """Dotted names of every module an import statement reaches, outside TYPE_CHECKING."""
    names: list[str] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*PACKAGE.split(".")[: 4 - node.level], base]).rstrip(".")
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        pending.extend(ast.iter_child_nodes(node))
    return names


def import_graph(source: Path = SOURCE) -> dict[str, set[str]]:
    """Module name -> the sibling modules it imports (the package's `__init__` excluded as a
    target: importing `engine.games.catacombs.x` runs it, but it imports only `game`)."""
    modules = {path.stem for path in source.glob("*.py") if path.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for path in sorted(source.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for name in _imported_names(tree):
            if not name.startswith(PACKAGE + "."):
                continue
            stem = name[len(PACKAGE) + 1:].split(".")[0]
            if stem in modules and stem != path.stem:
                targets.add(stem)
        graph[path.stem] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path `a -> b -> … -> a`, or None (depth-first, deterministic order)."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return [*path[path.index(child):], child]
            elif child not in done:
                stack.append((child, iter(sorted(graph.get(child, ())))))
                path.append(child)
                on_path.add(child)
    return None


def test_the_graph_sees_every_kind_of_import(tmp_path):
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from engine.games.catacombs import b\n"
        "if TYPE_CHECKING:\n    from engine.games.catacombs.d import X\n", encoding="utf-8")
    (tmp_path / "b.py").write_text(
        "def later():\n    import engine.games.catacombs.c\n", encoding="utf-8")
    (tmp_path / "c.py").write_text(
        "class K:\n    def m(self):\n        from .a import thing\n", encoding="utf-8")
    (tmp_path / "d.py").write_text("from engine.games.catacombs.a import y\n", encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_catacombs_modules_import_without_a_cycle():
    graph = import_graph()
    assert len(graph) > 20  # the package was found
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
