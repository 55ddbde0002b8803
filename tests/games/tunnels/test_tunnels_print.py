"""The tunnels' print set, built by `relic build --pack tunnels --lang all` into a temporary
folder: the component list derived from the model (what the issue asks to print, with the
content's counts) is what manifest.json lists in both languages; the scenarios' and the
cards' needs are met; treasure tokens share one back; the rulebook's box contents list exactly
the printed components with their counts; and a plain `relic build` in a fresh process gives
the same bytes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from ruamel.yaml import YAML
from tunnels_support import ROOT, plain

from pipeline.cli import main

PACK = ROOT / "content" / "tunnels"
LANGS = ("ru", "en")


def _build(out: Path, cache: Path) -> None:
    """Cards and rulebooks in both languages, as `relic build --pack tunnels` makes them."""
    args = ["build", "--pack", "tunnels", "--content", str(ROOT / "content"), "--out",
            str(out), "--cache", str(cache), "--jobs", "2", "--quiet", "--lang", "all"]
    assert main(args) == 0


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tunnels-print")
    _build(root / "out", root / "cache")
    return root / "out"


def _manifest(built: Path, lang: str) -> dict:
    return json.loads((built / lang / "manifest.json").read_text(encoding="utf-8"))


def _of(kind: str) -> dict[str, dict]:
    return {e["id"]: e for e in plain()["entities"] if e["kind"] == kind}


def _count(entity: dict) -> int:
    return int(entity.get("count", 1))


def expected_components() -> dict[str, int]:
    """Every physical component the issue and the rulebook name, from the model alone."""
    sides, warriors, cards = _of("side"), _of("warrior"), _of("warrior-card")
    out: dict[str, int] = {}
    for board in _of("board").values():  # the two fixed boards
        out[board["id"]] = _count(board)
    for card in sides["mortal"]["cards"]:  # a card and a figure token for each warrior
        out[card] = _count(cards[card])
        out[f"{card}.warrior-token"] = _count(cards[card])
    for w in warriors.values():  # the demon side's figures, and the Demon's card
        if w["side"] == "demon-player":
            out[w["id"]] = _count(w)
        if w["damage_taken_as"] == "wound-token":
            out[f"{w['id']}.demon-card"] = 1
    for marker in _of("marker").values():  # treasure, wound, damage and round tokens
        out[marker["id"]] = _count(marker)
    for weapon in _of("weapon").values():  # grenade tokens
        out[weapon["id"]] = _count(weapon)
    for aid in _of("aid").values():  # the player aids and the fate-dice reference
        out[aid["id"]] = _count(aid)
    return out


def test_the_derived_list_is_what_the_issue_names() -> None:
    got = expected_components()
    cards = _of("warrior-card")
    assert set(_of("board")) == {"vault-board", "warrens-board"}
    assert set(cards) == {"sergeant", "scout", "strongman", "sapper"}
    assert got["troglodyte"] == 12 and got["demon"] == 1
    assert got["treasure-loot"] == 1 and got["treasure-decoy"] == 3
    assert got["wound"] == 6 and got["damage"] == 15 and got["grenade"] == 4
    assert got["round-marker"] == 1
    # the numbers a game needs, from the other entities that need them
    assert got["damage"] == sum(c["fields"] for c in cards.values())
    assert got["wound"] == _of("warrior")["demon"]["wounds"]
    assert got["grenade"] == sum(c["grenades"] for c in cards.values())
    rules = _of("special-rule")
    glitter = rules["all-that-glitters"]
    assert got["treasure-loot"] + got["treasure-decoy"] == (glitter["tokens_per_warrior"]
                                                            * glitter["warriors"])
    for scenario in (r["scenario"] for r in rules.values() if "scenario" in r):
        assert sum(t["count"] for t in scenario["troglodytes"]) <= got["troglodyte"]
    assert got["player-aid"] == 2  # one for each player


@pytest.mark.parametrize("lang", LANGS)
def test_the_manifest_lists_exactly_the_derived_components(built: Path, lang: str) -> None:
    manifest = _manifest(built, lang)
    assert manifest["components"] == expected_components()
    assert manifest["total_components"] == sum(expected_components().values())


@pytest.mark.parametrize("lang", LANGS)
def test_each_component_has_its_format_and_backs_where_it_needs_them(built: Path,
                                                                    lang: str) -> None:
    formats = _manifest(built, lang)["formats"]
    assert {f: v["components"] for f, v in formats.items()} == {
        "tunnels-board": 2, "poker": 6, "token-figure": 17, "token-round": 4,
        "tunnels-chit": 26, "tunnels-aid": 2}
    two_sided = {"poker", "token-round", "tunnels-aid"}
    for name, fmt in formats.items():
        files = sorted(Path(f).name for f in fmt["files"])
        if name in two_sided:
            assert files == sorted([f"{name}-a4-duplex.pdf", f"{name}-a4-simplex.pdf",
                                    f"{name}.pdf"]), files
        else:
            assert files == sorted([f"{name}-a4.pdf", f"{name}.pdf"]), files
    assert formats["tunnels-board"]["trim_mm"] == [260.0, 184.0]
    assert formats["tunnels-board"]["per_sheet"] == 1


def _page_pixels(path: Path) -> list[bytes]:
    document = pdfium.PdfDocument(str(path))
    try:
        return [document[i].render(scale=0.5).to_pil().tobytes() for i in range(len(document))]
    finally:
        document.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_treasure_token_shows_the_same_back(built: Path, lang: str) -> None:
    """shop/token-round.pdf holds the treasure tokens alone: front, back, front, back..."""
    pages = _page_pixels(built / lang / "shop" / "token-round.pdf")
    fronts, backs = pages[0::2], pages[1::2]
    assert len(fronts) == len(backs) == 4
    assert len(set(backs)) == 1, "a back tells the loot from a decoy"
    assert len(set(fronts)) == 2, "the loot's face and the decoys' face"


def _group_label(entry: str, lang: str) -> str:
    labels = YAML(typ="safe").load((PACK / "print" / "labels.yaml").read_text(encoding="utf-8"))
    return labels["labels"][f"group-{entry}"][lang]


def _heading(section: str, lang: str) -> str:
    """A section's title in the chapter sources (`## Title {#section}`)."""
    for path in sorted((PACK / "rules" / lang).glob("*.md")):
        found = re.search(rf"^#+ (.+?) \{{#{section}\}}$", path.read_text(encoding="utf-8"), re.M)
        if found:
            return found[1]
    raise AssertionError(f"no section {section} in rules/{lang}")


def expected_box(lang: str) -> dict[str, tuple[int, dict[str, int]]]:
    """The box contents the manifest implies, from the model: per print entry, its group's
    label, total and each distinct name with its copies (a copy `<id>.<entry>` belongs to the
    entry, a plain `<id>` to its kind's own entry)."""
    entities = {e["id"]: e for e in plain()["entities"]}
    groups: dict[str, dict[str, int]] = {}
    for cid, count in expected_components().items():
        eid, _, entry = cid.partition(".")
        entity = entities[eid]
        parts = groups.setdefault(_group_label(entry or entity["kind"], lang), {})
        name = entity["name"][lang]
        parts[name] = parts.get(name, 0) + count
    return {label: (sum(parts.values()), parts) for label, parts in groups.items()}


def _book_section(built: Path, lang: str) -> str:
    """The printed text of the rulebook's components section (pdfium's text, lines joined)."""
    document = pdfium.PdfDocument(str(built / lang / "rulebook.pdf"))
    try:
        text = " ".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()
    text = re.sub(r"\s+", " ", text.replace("\xa0", " "))
    first = text.index("×")  # the contents page names the section too, without counts
    start = text.rindex(_heading("components", lang), 0, first)
    return text[start:text.index(_heading("printing", lang), first)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_box_contents_list_exactly_what_is_printed(built: Path, lang: str) -> None:
    """The box contents the players read in rulebook.pdf: every group with its total and every
    component with its copies is printed (manifest.json), and nothing printed is left out."""
    section = _book_section(built, lang)
    expected = expected_box(lang)
    for label, (total, parts) in expected.items():
        found = re.search(rf"{re.escape(label)} — (\d+)\. (.+?)\.(?: |$)", section)
        assert found, (label, section)
        listed = {}
        for part in found[2].split("; "):
            name, _, count = part.rpartition(" ×")
            listed[name] = int(count)
        assert (int(found[1]), listed) == (total, parts), label
    groups = re.findall(r" — (\d+)\. [^.—]*?×", section)
    assert len(groups) == len(expected), groups
    copies = sum(int(n) for n in re.findall(r"×(\d+)", section))
    assert copies == sum(int(g) for g in groups) == _manifest(built, lang)["total_components"]


def test_a_plain_relic_build_from_the_project_folder_gives_the_same_bytes(built: Path,
                                                                         tmp_path: Path) -> None:
    """What a user types, in a fresh process from the project folder: the default (relative)
    content folder, an empty cache and worker processes that read the checked layouts back from
    it. Every face must be drawn (no template error) and the files must be the same bytes."""
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "build", "--pack", "tunnels", "--lang", "ru",
         "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache"), "--jobs", "2",
         "--quiet", "--no-rulebook"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0 and "error[" not in run.stdout + run.stderr, run.stdout + run.stderr
    def cards(out: Path) -> list[dict]:  # the fixture's build has the rulebook too
        return [f for f in _manifest(out, "ru")["files"] if f["path"] != "rulebook.pdf"]

    assert cards(tmp_path / "out") == cards(built)
    assert len(cards(built)) == len(_manifest(built, "ru")["files"]) - 1
