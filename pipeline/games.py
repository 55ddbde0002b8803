"""The pipeline's only door to the rules engines: the game registry (`engine/core/registry.py`).

A pack's manifest names its `ruleset`; the game registered under that name in the `relic.games`
entry-point group plays it. Nothing in `pipeline/` names a game.
"""

from __future__ import annotations

from typing import Any

from engine.core.api import ContentError
from engine.core.game import Finding, Game
from engine.core.registry import BrokenGameError, UnknownGameError, load, names, suggest
from pipeline.diagnostics import Diagnostic, RelicError, Severity, error
from pipeline.model import Model, PackInfo


def ruleset_problems(pack: PackInfo) -> list[Diagnostic]:
    """An unknown ruleset, at its line in the manifest, with a "did you mean"."""
    if pack.ruleset is None or pack.ruleset in names():
        return []
    known = names()
    close = suggest(pack.ruleset, known)
    return [error("unknown-ruleset",
                  f"no game is registered for ruleset '{pack.ruleset}' "
                  f"(registered: {', '.join(known) or 'none'})",
                  pack.manifest.span(("ruleset",)),
                  f"did you mean '{close}'?" if close else
                  "a game registers under the `relic.games` entry-point group")]


def game_class(pack: PackInfo) -> type[Game] | None:
    """The class of the pack's game; None when the pack names no ruleset."""
    if pack.ruleset is None:
        return None
    try:
        return load(pack.ruleset)
    except UnknownGameError:
        raise RelicError(ruleset_problems(pack)) from None
    except BrokenGameError as exc:
        raise RelicError([error("broken-game", str(exc), pack.manifest.span(("ruleset",)))]
                         ) from exc


def build_game(model: Model) -> Game | None:
    """The pack's game built from its plain model; None when the pack names no ruleset."""
    cls = game_class(model.pack)
    if cls is None:
        return None
    try:
        return cls.from_model(model.to_plain())
    except ContentError as exc:
        raise RelicError([error("engine-content", str(exc),
                                model.pack.manifest.span(("ruleset",)))]) from exc


def require_game(model: Model, command: str) -> Game:
    """The pack's game, or a plain error (exit 1) when the pack has no ruleset."""
    game = build_game(model)
    if game is None:
        raise RelicError([error(
            "no-ruleset",
            f"pack '{model.pack.id}' names no ruleset, so `relic {command}` has no game to play",
            model.pack.manifest.span(),
            f"games registered here: {', '.join(names()) or 'none'}; a pack chooses one with "
            "`ruleset:` in pack.yaml")])
    return game


def finding_diagnostic(model: Model, finding: Finding) -> Diagnostic:
    """A game's consistency finding at the content line it names (else the `ruleset` line)."""
    if finding.entity is not None and finding.entity in model.by_id:
        span = model.locate(finding.entity, finding.path)
    else:
        span = model.pack.manifest.span(("ruleset",))
    severity = Severity.WARNING if finding.severity == "warning" else Severity.ERROR
    return Diagnostic(f"engine-{finding.code}", finding.message, span, severity, finding.hint)


def game_package(game: Game | type[Game]) -> str:
    """The Python package a game lives in (the trace's `engine:` paths must point inside it)."""
    module: Any = type(game).__module__ if not isinstance(game, type) else game.__module__
    parts = module.split(".")
    return ".".join(parts[:-1]) if len(parts) > 1 else module
