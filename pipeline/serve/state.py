"""What the preview shows: the last good gallery, the latest diagnostics, reports and progress.

`Preview.receive()` folds each builder message into the state and returns the event the open
pages are told about (server-sent events); `Preview.to_json()` is the whole state a page reads.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from pipeline.diagnostics import Diagnostic, Severity, Span, error
from pipeline.serve.builder import Stopped
from pipeline.serve.gallery import Gallery, Image, Item, attach
from pipeline.serve.messages import Built, Checked, Progress, Report

CANCELLED_BY_EDITS = ("rulebook",)  # reports made in a job that each rebuild cancels


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    return {**d.to_json(), "where": str(d.span), "text": d.text()}


def _image_json(image: Image | None) -> dict[str, str] | None:
    return None if image is None else {"path": image.path, "url": image.url}


@dataclass
class Preview:
    pack: str
    lang: str
    editor_url: str = "vscode://file{path}:{line}:{col}"
    root: str = ""  # the folder that `file` paths of diagnostics are relative to
    generation: int = 0
    building: bool = True  # a rebuild of the cards or a report is under way
    rebuilding: bool = True  # a rebuild of the cards is under way
    progress: dict[str, Any] | None = None
    gallery: Gallery | None = None  # the last good one
    ok: bool = False  # the latest build succeeded
    built: dict[str, Any] = field(default_factory=dict)  # figures of the latest build
    diagnostics: tuple[Diagnostic, ...] = ()  # of the latest build
    checks: tuple[Diagnostic, ...] = ()  # plug-in checks of the latest good build
    checks_state: str = "waiting"  # waiting, running, done
    reports: dict[str, dict[str, Any]] = field(default_factory=dict)

    # ----- builder messages -> state and events ---------------------------------------------

    def receive(self, message: Any) -> Event | None:
        if isinstance(message, Progress):
            return self._progress(message)
        if isinstance(message, Built):
            return self._built(message)
        if isinstance(message, Checked):
            return self._checked(message)
        if isinstance(message, Report):
            return self._report(message)
        if isinstance(message, Stopped):
            self.building = self.rebuilding = self.ok = False
            self.progress = None
            self.diagnostics = (error(
                "builder-stopped", "the builder process stopped unexpectedly; the next edit "
                "starts it again", Span(self.root or ".")),)
            return Event("stopped", {"message": self.diagnostics[0].message})
        return None

    def started(self, generation: int) -> Event:
        self.generation, self.building, self.rebuilding = generation, True, True
        self.progress = {"label": "waiting for the builder", "done": 0, "total": 0}
        return Event("progress", {"generation": generation, "building": True, **self.progress})

    def _progress(self, message: Progress) -> Event:
        self.building = True
        self.progress = {"label": message.label, "done": message.done, "total": message.total}
        return Event("progress", {"generation": message.generation, "building": True,
                                  **self.progress})

    def _built(self, message: Built) -> Event:
        self.generation = message.generation
        self.building = self.rebuilding = False
        self.progress = None
        self.ok, self.diagnostics = message.ok, message.diagnostics
        self.checks = ()
        self.checks_state = "running" if message.checks else "waiting"
        shown: list[str] = []
        if message.ok and message.gallery is not None:
            before = self.gallery.images() if self.gallery is not None else {}
            after = message.gallery.images()
            shown = sorted(p for p, sha in after.items() if before.get(p) != sha)
            self.gallery = message.gallery
        if message.ok:  # the figures of the last good build: its pictures are the ones shown
            self.built = {"seconds": round(message.seconds, 3), "rendered": message.rendered,
                          "components": message.components, "at": time.time(),
                          "changed_files": len(message.changed)}
        for name, report in self.reports.items():
            if name in CANCELLED_BY_EDITS and report.get("state") == "running":
                report.update(state="cancelled", stale=True)  # the builder dropped it
            elif message.ok:  # it describes an older model now
                report["stale"] = True
        return Event("built", {
            "generation": message.generation, "ok": message.ok, "errors": message.errors,
            "seconds": round(message.seconds, 3), "rendered": message.rendered,
            "timings": dict(message.timings), "changed": shown, "urls": self._urls(shown)})

    def _urls(self, paths: list[str]) -> dict[str, str]:
        if self.gallery is None:
            return {}
        out = {}
        for item in self.gallery.items:
            for image in (item.front, item.back):
                if image is not None and image.path in paths:
                    out[image.path] = image.url
        return out

    def _checked(self, message: Checked) -> Event | None:
        if message.generation != self.generation:
            return None
        self.checks, self.checks_state = message.diagnostics, "done"
        return Event("checked", {"generation": message.generation, "errors": self.errors,
                                 "seconds": round(message.seconds, 3)})

    def _report(self, message: Report) -> Event:
        if not self.rebuilding:
            self.building, self.progress = False, None
        data: dict[str, Any] = {"state": "failed" if message.diagnostics else "done",
                                "generation": message.generation, "stale": False,
                                "diagnostics": [diagnostic_json(d) for d in message.diagnostics]}
        if message.name == "rulebook" and isinstance(message.data, dict):
            data["pdf"] = _image_json(message.data.get("pdf"))
            data["pages"] = [_image_json(p) for p in message.data.get("pages", [])]
        elif message.data is not None:
            data["data"] = message.data
        self.reports[message.name] = data
        return Event("report", {"name": message.name, "state": data["state"]})

    def asked(self, name: str) -> Event:
        report = self.reports.setdefault(name, {})
        report["state"] = "running"
        return Event("report", {"name": name, "state": "running"})

    # ----- what a page reads ----------------------------------------------------------------

    @property
    def all_diagnostics(self) -> list[Diagnostic]:
        return sorted({*self.diagnostics, *self.checks}, key=Diagnostic.sort_key)

    @property
    def errors(self) -> int:
        return sum(d.severity is Severity.ERROR for d in self.all_diagnostics)

    def to_json(self) -> dict[str, Any]:
        found = self.all_diagnostics
        items = self.gallery.items if self.gallery is not None else ()
        own = attach(items, found)
        return {
            "pack": self.pack, "lang": self.lang,
            "title": self.gallery.title if self.gallery is not None else self.pack,
            "generation": self.generation, "building": self.building, "progress": self.progress,
            "ok": self.ok, "built": self.built, "checks": self.checks_state,
            "errors": self.errors, "warnings": len(found) - self.errors,
            "diagnostics": [diagnostic_json(d) for d in found],
            "items": [self._item_json(item, own.get(item.id, [])) for item in items],
            "reports": self.reports,
            "ruleset": self.gallery.ruleset if self.gallery is not None else None,
            "players": self.gallery.players if self.gallery is not None else None,
        }

    def _item_json(self, item: Item, found: list[Diagnostic]) -> dict[str, Any]:
        data = asdict(item)
        data.pop("source")
        data["front"], data["back"] = _image_json(item.front), _image_json(item.back)
        data["where"] = f"{item.source.file}:{item.source.line}"
        data["editor"] = self.editor_link(item.source.file, item.source.line, item.source.col)
        data["diagnostics"] = [diagnostic_json(d) for d in found]
        return data

    def editor_link(self, file: str, line: int, col: int) -> str:
        from pathlib import Path

        path = Path(file) if Path(file).is_absolute() else Path(self.root) / file
        return self.editor_url.format(path=path.as_posix(), line=line, col=col)
