"""The builder, in this process: a rebuild reports exactly the files an edit changed, errors keep
the last good model, the plug-in checks report after, and a bug becomes a diagnostic."""

from __future__ import annotations

from multiprocessing.connection import wait
from pathlib import Path

import pytest

from pipeline.serve.builder import Builder
from pipeline.serve.messages import Built, Checked, Progress, Report, Request, Settings
from tests.serve.conftest import BROKEN, BROKEN_AT, PRINTED, edit


class Pipe:
    """Stands in for the builder's end of the pipe: keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[object] = []

    def send(self, message: object) -> None:
        self.sent.append(message)

    def last(self, kind: type):
        return next(m for m in reversed(self.sent) if isinstance(m, kind))


@pytest.fixture(params=[True, False], ids=["with-pdf", "preview"])
def builder(request: pytest.FixtureRequest, pack: Path, render_cache: Path,
            tmp_path: Path) -> Builder:
    settings = Settings(pack_dir=pack, out_root=tmp_path / "out", cache_dir=render_cache,
                        langs=("ru",), pdf=request.param)
    return Builder(settings, Pipe())  # type: ignore[arg-type]


def finish_jobs(builder: Builder) -> None:
    """What the builder's loop does with its jobs: forward until each has its final word."""
    while builder.jobs:
        for job in list(builder.jobs):
            if wait([job.conn], timeout=120):
                builder._from_job(job)


def test_a_rebuild_reports_what_the_edit_changed(builder: Builder, pack: Path) -> None:
    builder.handle(Request(1, "cards"))
    first = builder.conn.last(Built)  # type: ignore[attr-defined]
    assert first.ok and first.gallery is not None
    assert {i.id for i in first.gallery.items} == PRINTED
    assert any(isinstance(m, Progress) and m.total for m in builder.conn.sent)  # type: ignore
    assert [k for k, _ in first.timings][:2] == ["check", "prepare"]
    assert [job.name for job in builder.jobs] == ["checks"]
    finish_jobs(builder)
    assert builder.conn.last(Checked).generation == 1  # type: ignore[attr-defined]
    edit(pack / "cards.yaml", "Сквозняк", "Ледяной ветер")
    builder.handle(Request(2, "cards"))
    second = builder.conn.last(Built)  # type: ignore[attr-defined]
    pictures = [p for p in second.changed if p.endswith(".png")]
    assert pictures == ["ru/png/draught-1.png", "ru/png/draught-2.png"]
    others = [p for p in second.changed if not p.endswith(".png")]
    if builder.settings.pdf:  # the sheets and shop file that show the card
        assert others and all(p.endswith(".pdf") and "poker" in p for p in others)
    else:  # the preview: pictures only
        assert others == [] and not list((builder.settings.out_root / "ru").rglob("*.pdf"))
    builder._cancel_jobs()


def test_errors_keep_the_last_good_model(builder: Builder, pack: Path) -> None:
    builder.handle(Request(1, "cards"))
    edit(pack / "cards.yaml", *BROKEN)
    builder.handle(Request(2, "cards"))
    broken = builder.conn.last(Built)  # type: ignore[attr-defined]
    file, line, col = BROKEN_AT
    assert not broken.ok and broken.gallery is None and builder.jobs == []  # checks cancelled
    [problem] = broken.diagnostics
    assert (problem.code, problem.span.file.endswith(file), problem.span.line,
            problem.span.col) == ("yaml-syntax", True, line, col)
    builder.handle(Request(2, "odds"))  # the reports still answer, from the last good model
    assert builder.conn.last(Report).diagnostics == ()  # type: ignore[attr-defined]


def test_a_bug_is_a_diagnostic_not_a_dead_builder(builder: Builder,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(builder, "_build", broken)
    builder.handle(Request(1, "cards"))
    built = builder.conn.last(Built)  # type: ignore[attr-defined]
    assert not built.ok and built.diagnostics[0].code == "internal"
    assert "KeyError" in built.diagnostics[0].message


def test_reports_need_a_good_build_first(builder: Builder) -> None:
    builder.handle(Request(1, "rulebook"))
    report = builder.conn.last(Report)  # type: ignore[attr-defined]
    assert report.name == "rulebook" and report.diagnostics[0].code == "no-model"


def test_a_job_that_fails_says_so(builder: Builder, monkeypatch: pytest.MonkeyPatch) -> None:
    builder.handle(Request(1, "cards"))
    builder._cancel_jobs()

    def broken(*args, **kwargs):
        raise ValueError("no pages")

    monkeypatch.setattr("pipeline.serve.reports.rulebook", broken)
    builder.handle(Request(1, "rulebook"))
    assert [job.name for job in builder.jobs] == ["rulebook"]
    finish_jobs(builder)
    report = builder.conn.last(Report)  # type: ignore[attr-defined]
    assert report.name == "rulebook" and report.diagnostics[0].code == "internal"
    assert "ValueError: no pages" in report.diagnostics[0].message


def test_an_edit_cancels_the_slow_jobs(builder: Builder) -> None:
    builder.handle(Request(1, "cards"))
    [checks] = builder.jobs
    builder.handle(Request(2, "cards"))
    assert checks.process.exitcode is not None  # killed, not left running
    assert [job.generation for job in builder.jobs] == [2]
    builder._cancel_jobs()


def test_the_builder_reads_again_only_the_files_an_edit_changed(
        pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline import stages

    monkeypatch.setattr(stages, "_REMEMBERED", {})  # what remember_files() sets up
    first = stages.analyze(pack, plugins=False)
    edit(pack / "cards.yaml", "Сквозняк", "Ледяной ветер")
    second = stages.analyze(pack, plugins=False)
    assert first.ok and second.ok
    before, after = first.model.by_id, second.model.by_id
    assert after["zombie"].source is before["zombie"].source  # monsters.yaml: not read again
    assert after["draught"].source is not before["draught"].source
    assert after["draught"].data["name"]["ru"] == "Ледяной ветер"
    edit(pack / "cards.yaml", *BROKEN)
    broken = stages.analyze(pack, plugins=False)
    assert not broken.ok
    file, line, col = BROKEN_AT
    assert [(Path(d.span.file).name, d.span.line, d.span.col, d.code)
            for d in broken.diagnostics] == [(file, line, col, "yaml-syntax")]
    edit(pack / "cards.yaml", BROKEN[1], BROKEN[0])
    fixed = stages.analyze(pack, plugins=False)
    assert fixed.ok and fixed.model.by_id["draught"].data["name"]["ru"] == "Ледяной ветер"


CHAPTERS = {
    "ru": "# Игра {#play}\n\n{{ name(\"zombie\") }} проходит {{ stat(\"zombie\", "
          "\"stats.speed\") }} клетки за ход.\n\n{{ thumbnails(\"zombie\") }}\n",
    "en": "# Play {#play}\n\n{{ name(\"zombie\") }} walks {{ stat(\"zombie\", \"stats.speed\") }}"
          " cells a turn.\n\n{{ thumbnails(\"zombie\") }}\n",
}


def test_the_rulebook_shows_the_card_pictures_and_keeps_its_pages(
        pack: Path, render_cache: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader

    for lang, text in CHAPTERS.items():
        (pack / "rules" / lang).mkdir(parents=True)
        (pack / "rules" / lang / "01-play.md").write_text(text, encoding="utf-8")
    settings = Settings(pack_dir=pack, out_root=tmp_path / "out", cache_dir=render_cache,
                        langs=("ru",), pdf=False)
    builder = Builder(settings, Pipe())  # type: ignore[arg-type]

    def rulebook(generation: int) -> Report:
        builder.handle(Request(generation, "cards"))
        builder._cancel_jobs()  # the plug-in checks are not what this test looks at
        builder.handle(Request(generation, "rulebook"))
        finish_jobs(builder)
        report = builder.conn.last(Report)  # type: ignore[attr-defined]
        assert report.name == "rulebook" and not report.diagnostics, report.diagnostics
        return report

    first = rulebook(1)
    folder = tmp_path / "out" / "rulebook" / "ru"
    reader = PdfReader(folder / "rulebook.pdf")
    assert "Зомби" in "".join(page.extract_text() for page in reader.pages)
    assert any(page.images for page in reader.pages)  # the zombie's card, drawn by the cards
    assert first.data["pages"] and all((tmp_path / "out" / p.path).is_file()
                                       for p in first.data["pages"])
    drawn = {p.path: (tmp_path / "out" / p.path).stat().st_mtime_ns for p in first.data["pages"]}

    edit(pack / "cards.yaml", "Сквозняк", "Ледяной ветер")  # a card the book does not show
    second = rulebook(2)
    assert second.data == first.data
    assert {p: (tmp_path / "out" / p).stat().st_mtime_ns for p in drawn} == drawn


def test_a_build_into_a_held_folder_waits_for_the_next_change(builder: Builder) -> None:
    """The folder's lock is `relic build`'s: a build that holds it makes the rebuild fail with
    a diagnostic; the next change builds."""
    from pipeline.commands.output import build_lock

    with build_lock(builder.settings.out_root, "vault"):
        builder.handle(Request(1, "cards"))
    held = builder.conn.last(Built)  # type: ignore[attr-defined]
    assert not held.ok and [d.code for d in held.diagnostics] == ["build-running"]
    assert "another build of vault is running" in held.diagnostics[0].message
    builder.handle(Request(2, "cards"))
    assert builder.conn.last(Built).ok  # type: ignore[attr-defined]
    builder._cancel_jobs()
