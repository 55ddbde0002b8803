"""End to end in a real headless Chromium: the gallery shows every component, an edit redraws
that card in place, broken YAML brings the overlay with its `file:line`, a fix takes it away.

Needs Debian's `chromium` (`.ci/run` installs it) and the Playwright package (driving the system
browser; no browser is downloaded). Screenshots go to build/previews/. Two of them are the
README's pictures in docs/previews/: a run with RELIC_UPDATE_PREVIEWS=1 replaces them (when the
picture changed outside the status line); any other run leaves the checkout alone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.serve.client import ServeProcess
from tests.serve.conftest import BROKEN, BROKEN_AT, PRINTED, ROOT, edit

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "build" / "previews"
DOCS = ROOT / "docs" / "previews"
WAIT_MS = 90_000

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: the browser test needs Debian's chromium package "
                "(.ci/run installs it: apt-get install chromium)", allow_module_level=True)
playwright = pytest.importorskip(
    "playwright.sync_api", reason="the browser test needs the playwright package (pip install "
    "-e '.[test]')")


@pytest.fixture
def browser_page(tmp_path: Path) -> Iterator:
    with playwright.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), args=FLAGS,
            headless=True, viewport={"width": 1280, "height": 900}, device_scale_factor=1)
        try:
            yield context.new_page()
        finally:
            context.close()


def keep(shot: Path, name: str, volatile: dict | None) -> None:
    """With RELIC_UPDATE_PREVIEWS=1, copy a screenshot into docs/previews unless the kept one
    looks the same outside the `volatile` box (the status line, whose timings change every
    run). A test run never changes the checkout otherwise."""
    from PIL import Image, ImageChops, ImageDraw

    if os.environ.get("RELIC_UPDATE_PREVIEWS") != "1":
        return
    target = DOCS / name
    if target.is_file():
        with Image.open(shot) as new, Image.open(target) as old:
            if new.size == old.size:
                diff = ImageChops.difference(new.convert("RGB"), old.convert("RGB"))
                if volatile:
                    box = (volatile["x"], volatile["y"], volatile["x"] + volatile["width"],
                           volatile["y"] + volatile["height"])
                    ImageDraw.Draw(diff).rectangle(box, fill=(0, 0, 0))
                if diff.getbbox() is None:
                    return
    DOCS.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=DOCS, suffix=".png", delete=False) as tmp:
        shutil.copyfile(shot, tmp.name)
    Path(tmp.name).chmod(0o644)
    Path(tmp.name).replace(target)


def test_gallery_edit_overlay_in_chromium(served: ServeProcess, pack: Path,
                                          browser_page) -> None:
    page = browser_page
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(served.url)

    # every component, each with its pictures loaded
    page.wait_for_function(f"document.querySelectorAll('article.item').length === {len(PRINTED)}"
                           " && [...document.querySelectorAll('article.item img.front')]"
                           ".every(i => i.complete && i.naturalWidth > 0)", timeout=WAIT_MS)
    ids = set(page.eval_on_selector_all("article.item", "els => els.map(e => e.dataset.id)"))
    assert ids == PRINTED
    draught = page.locator("article.item[data-id=draught]")
    assert draught.locator(".caption").inner_text() == "Сквозняк"
    assert draught.locator(".copies").inner_text() == "×2"
    assert draught.locator(".source").inner_text() == "content/vault/cards.yaml:13"
    assert page.locator(".kind[data-kind=card] .deck h3").first.inner_text() == "События"
    page.fill("#search", "паутину")  # search finds the torch by its text
    assert page.locator("article.item:not([hidden])").count() == 1
    page.fill("#search", "")
    page.select_option("#kind", "monster")
    assert page.eval_on_selector_all("article.item:not([hidden])",
                                     "els => els.map(e => e.dataset.id)") == ["zombie"]
    page.select_option("#kind", "")
    page.locator("#kind").blur()
    gallery_shot = SHOTS / "serve-gallery.png"
    page.screenshot(path=str(gallery_shot))
    gallery_status = page.locator("#status").bounding_box()

    # a new name: that card's caption and picture change in place, nothing else reloads
    page.evaluate("window.__sameDocument = true")
    src = dict(page.eval_on_selector_all(
        "article.item img.front", "els => els.map(e => [e.closest('article').dataset.id, e.src])"))
    edit(pack / "cards.yaml", "Сквозняк", "Ледяной ветер")
    page.wait_for_function("document.querySelector('article.item[data-id=draught] .caption')"
                           ".textContent === 'Ледяной ветер'", timeout=WAIT_MS)
    page.wait_for_function("(() => { const i = document.querySelector("
                           "'article.item[data-id=draught] img.front');"
                           f" return i.src !== {src['draught']!r} && i.complete"
                           " && i.naturalWidth > 0; })()", timeout=WAIT_MS)
    assert page.evaluate("window.__sameDocument") is True  # no full reload
    told = page.evaluate("window.relicPreview.events.map(e => [e.name, e.data.building || false])")
    assert ["progress", True] in told and ["built", False] in told  # the page showed progress
    after = dict(page.eval_on_selector_all(
        "article.item img.front", "els => els.map(e => [e.closest('article').dataset.id, e.src])"))
    assert {k for k in src if src[k] != after[k]} == {"draught"}
    page.screenshot(path=str(SHOTS / "serve-renamed.png"))

    # broken YAML: the overlay names file:line, the last good pictures stay under it
    edit(pack / "cards.yaml", *BROKEN)
    file, line, col = BROKEN_AT
    overlay = page.locator("#overlay")
    overlay.wait_for(state="visible", timeout=WAIT_MS)
    text = page.locator("#overlay-list").inner_text()
    assert f"content/vault/{file}:{line}:{col}: error[yaml-syntax]" in text
    assert page.locator("article.item").count() == len(PRINTED)
    assert draught.locator(".caption").inner_text() == "Ледяной ветер"
    overlay_shot = SHOTS / "serve-overlay.png"
    page.screenshot(path=str(overlay_shot))
    overlay_status = page.locator("#status").bounding_box()

    # fixed: the overlay goes
    edit(pack / "cards.yaml", BROKEN[1], BROKEN[0])
    overlay.wait_for(state="hidden", timeout=WAIT_MS)
    assert page.evaluate("window.__sameDocument") is True
    page.screenshot(path=str(SHOTS / "serve-fixed.png"))

    for shot in (gallery_shot, overlay_shot):
        assert shot.read_bytes().startswith(b"\x89PNG")
    keep(gallery_shot, "serve-gallery.png", gallery_status)
    keep(overlay_shot, "serve-overlay.png", overlay_status)
