"""What the edit loop's builder process and the loop tell each other: small frozen values.

    loop -> builder:  Request (cards, odds or rulebook), or None to stop
    builder -> loop:  Progress while it works, Built after a rebuild of the cards,
                      Checked when the slower plug-in checks are through, Report for the rest
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.diagnostics import Diagnostic, Severity
from pipeline.serve.gallery import Gallery


@dataclass(frozen=True)
class Settings:
    """One pack watched and built into one folder."""

    pack_dir: Path
    out_root: Path  # languages go to <out_root>/<lang>/
    cache_dir: Path
    langs: tuple[str, ...] = ()  # empty: every language of the pack
    jobs: int = 1
    duplex: bool = True
    pdf: bool = True  # False: pictures and manifest only (the browser preview needs no PDFs)
    gallery: bool = True  # the browser preview wants the gallery; `relic watch` does not
    rulebook: bool = False  # rebuild the rulebook after every good build (`relic watch`)
    rulebook_paper: str | None = None


@dataclass(frozen=True)
class Request:
    generation: int
    what: str  # "cards", "odds" or "rulebook"


@dataclass(frozen=True)
class Progress:
    generation: int
    label: str
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class Built:
    """A rebuild of the cards: its diagnostics and, when it succeeded, what it produced."""

    generation: int
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    seconds: float
    gallery: Gallery | None = None
    changed: tuple[str, ...] = ()  # files under out_root whose bytes changed (or are new)
    folders: tuple[str, ...] = ()
    components: int = 0
    rendered: int = 0  # faces rendered (the others came from the cache)
    checks: bool = False  # the plug-in checks run next and report in a `Checked`
    timings: tuple[tuple[str, float], ...] = ()  # seconds per step: check, render, write...

    @property
    def errors(self) -> int:
        return sum(d.severity is Severity.ERROR for d in self.diagnostics)


@dataclass(frozen=True)
class Checked:
    """The plug-in checks (counts, trace, engine, rulebook) on the model of a good build."""

    generation: int
    diagnostics: tuple[Diagnostic, ...]
    seconds: float


@dataclass(frozen=True)
class Report:
    """Odds tables or rulebook pages, made on request."""

    generation: int
    name: str  # "odds" or "rulebook"
    data: Any = None
    diagnostics: tuple[Diagnostic, ...] = ()
    files: tuple[str, ...] = field(default=())
