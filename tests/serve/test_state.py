"""The preview's state: the last good gallery stays, diagnostics come and go, events say what
changed."""

from __future__ import annotations

from pipeline.diagnostics import Span, error, warning
from pipeline.serve.builder import Stopped
from pipeline.serve.gallery import Gallery, Image, Item
from pipeline.serve.messages import Built, Checked, Progress, Report
from pipeline.serve.state import Preview


def _item(entity_id: str, sha: str, name: str = "Name") -> Item:
    return Item(id=entity_id, kind="card", deck="deck", deck_name="Deck", name=name, copies=2,
                front=Image(f"ru/png/{entity_id}-1.png", sha * 64),
                back=Image("ru/png/back-card-deck.png", "0" * 64),
                source=Span("content/p/cards.yaml", 10 if entity_id == "a" else 20, 3),
                last_line=19 if entity_id == "a" else 29, text=entity_id)


def _gallery(*items: Item) -> Gallery:
    return Gallery("p", "Pack", "ru", items)


def _built(generation: int, *items: Item, ok: bool = True, diagnostics=()) -> Built:
    return Built(generation, ok, tuple(diagnostics), 0.5, _gallery(*items) if ok else None,
                 checks=ok)


def test_a_rebuild_announces_only_the_pictures_that_changed() -> None:
    preview = Preview("p", "ru")
    first = preview.receive(_built(1, _item("a", "1"), _item("b", "2")))
    assert first is not None and first.name == "built"
    assert set(first.data["changed"]) == {"ru/png/a-1.png", "ru/png/b-1.png",
                                          "ru/png/back-card-deck.png"}
    second = preview.receive(_built(2, _item("a", "3", "New"), _item("b", "2")))
    assert second is not None
    assert second.data["changed"] == ["ru/png/a-1.png"]
    assert second.data["urls"]["ru/png/a-1.png"].endswith("?v=" + "3" * 16)
    state = preview.to_json()
    assert [i["name"] for i in state["items"]] == ["New", "Name"]
    assert state["items"][0]["where"] == "content/p/cards.yaml:10"


def test_errors_keep_the_last_good_gallery_until_fixed() -> None:
    preview = Preview("p", "ru")
    preview.receive(_built(1, _item("a", "1")))
    broken = error("yaml-syntax", "did not find ']'", Span("content/p/cards.yaml", 12, 7))
    event = preview.receive(_built(2, ok=False, diagnostics=[broken]))
    assert event is not None and event.data["ok"] is False and event.data["errors"] == 1
    state = preview.to_json()
    assert state["errors"] == 1 and [i["id"] for i in state["items"]] == ["a"]
    assert state["diagnostics"][0]["where"] == "content/p/cards.yaml:12:7"
    assert state["items"][0]["diagnostics"][0]["code"] == "yaml-syntax"  # line 12 is a's
    preview.receive(_built(3, _item("a", "1")))
    assert preview.to_json()["errors"] == 0


def test_checks_of_an_older_build_are_dropped() -> None:
    preview = Preview("p", "ru")
    preview.receive(_built(1, _item("a", "1")))
    preview.receive(_built(2, _item("a", "1")))
    late = warning("trace", "old", Span("content/p/trace.yaml", 1, 1))
    assert preview.receive(Checked(1, (late,), 1.0)) is None
    assert preview.to_json()["warnings"] == 0
    now = warning("trace", "new", Span("content/p/trace.yaml", 1, 1))
    assert preview.receive(Checked(2, (now,), 1.0)) is not None
    state = preview.to_json()
    assert state["warnings"] == 1 and state["checks"] == "done"


def test_progress_then_done() -> None:
    preview = Preview("p", "ru")
    event = preview.receive(Progress(1, "rendering 4 faces (ru)", 1, 4))
    assert event is not None and event.data["building"] and event.data["total"] == 4
    assert preview.to_json()["building"]
    preview.receive(_built(1, _item("a", "1")))
    assert not preview.to_json()["building"]
    assert preview.receive(Stopped()).name == "stopped"
    assert preview.to_json()["errors"] == 1  # the overlay says the builder is gone


def test_reports_go_stale_after_a_good_build() -> None:
    preview = Preview("p", "ru")
    preview.receive(_built(1, _item("a", "1")))
    preview.asked("odds")
    preview.receive(Report(1, "odds", {"t": {"title": "T", "note": "", "rows": []}}))
    assert preview.reports["odds"]["state"] == "done" and not preview.reports["odds"]["stale"]
    preview.receive(_built(2, _item("a", "2")))
    assert preview.reports["odds"]["stale"]


def test_editor_links_name_the_file_line_and_column() -> None:
    preview = Preview("p", "ru", editor_url="vscode://file{path}:{line}:{col}", root="/work")
    assert preview.editor_link("content/p/cards.yaml", 10, 3) == \
        "vscode://file/work/content/p/cards.yaml:10:3"


def test_a_rebuild_cancels_a_running_rulebook() -> None:
    preview = Preview("p", "ru")
    preview.receive(_built(1, _item("a", "1")))
    preview.asked("rulebook")
    preview.receive(_built(2, _item("a", "2")))
    assert preview.reports["rulebook"]["state"] == "cancelled"
    assert preview.reports["rulebook"]["stale"]  # so the open page asks again
