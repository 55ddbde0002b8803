"""The component-count check (pipeline/checks/components.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pipeline.checks import components
from pipeline.stages import analyze, load_model

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "content" / "fixtures"
CATACOMBS = ROOT / "content" / "catacombs"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Diagnostics name files relative to the working folder."""
    monkeypatch.chdir(ROOT)


def located(pack: Path) -> list[tuple[str, str, int, int]]:
    return sorted((d.code, d.span.file, d.span.line, d.span.col) for d in analyze(pack).diagnostics)


def test_monsters_beyond_the_kit_fail() -> None:
    assert located(FIXTURES / "kit-short") == [
        ("monster-kit-short", "tests/content/fixtures/kit-short/monsters.yaml", 17, 43)
    ]


def test_a_shop_deck_too_small_for_eight_players_fails() -> None:
    [diag] = analyze(FIXTURES / "shop-short").diagnostics
    assert (diag.code, diag.span.file, diag.span.line, diag.span.col) == (
        "shop-deck-short",
        "tests/content/fixtures/shop-short/shop.yaml",
        2,
        3,
    )
    assert "8 players need 24, the deck holds 20" in diag.message


def test_missing_relationship_titles_and_a_wrong_start_fail() -> None:
    assert located(FIXTURES / "relationships-missing") == [
        (
            "relationship-missing",
            "tests/content/fixtures/relationships-missing/characters.yaml",
            26,
            3,
        ),
        (
            "relationship-start",
            "tests/content/fixtures/relationships-missing/characters.yaml",
            43,
            10,
        ),
    ]


def test_the_catacombs_components_suffice() -> None:
    model = load_model(CATACOMBS)
    assert list(components.check(model)) == []


def test_the_catacombs_have_a_title_for_every_pair() -> None:
    model = load_model(CATACOMBS)
    n = len(model.of_kind("character"))
    assert n == 8
    assert sum(t.count for t in model.of_kind("relationship")) == n * (n - 1) // 2 == 28


def test_the_catacombs_shop_fits_eight_players() -> None:
    model = load_model(CATACOMBS)
    sizes, taken = components.deck_sizes(model), components.starting_cards(model)
    assert sizes["common-item-deck"] - taken["common-item-deck"] >= 3 * 8
    assert sizes["magic-item-deck"] - taken["magic-item-deck"] >= 2 * 8
    assert sizes["unique-item-deck"] > 0
    assert sizes["mercenary-deck"] > 0


# ----- branches, on small packs written by the test -------------------------------------------


MONSTER = """\
- id: monster-deck
  kind: deck
  name: {{ru: Монстры, en: Monsters}}
  cards: monster
  type: monster
- id: beast
  kind: monster
  count: {count}
  deck: monster-deck
  name: {{ru: Зверь, en: Beast}}
  text: {{ru: Зверь., en: A beast.}}
  stats: {{speed: 1}}
  kit: {kit}
  min_players: {min_players}
  by_players: {by_players}
  attack: [melee]
  rewards: {{uncontrolled: [{{treasures: 1}}], controlled: [{{treasures: 1}}]}}
{extra}"""


PRINTED = ("monster", "character", "relationship", "tile", "token", "card")


def write_pack(root: Path, files: dict[str, str], players: str = "{min: 1, max: 8}") -> Path:
    pack = root / "mini-pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: mini-pack\ntitle: {ru: Мини, en: Mini}\nlanguages: [ru, en]\n"
        f"players: {players}\nprint: {{components: {{"
        + ", ".join(f"{k}: {{format: poker}}" for k in PRINTED)
        + "}}\n",
        encoding="utf-8",
    )
    for name, text in files.items():
        (pack / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return pack


def codes(pack: Path) -> list[str]:
    return sorted(d.code for d in analyze(pack).diagnostics)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"count": 2, "kit": 2, "min_players": 1, "by_players": '{"1-8": 2}'}, []),
        (
            {"count": 2, "kit": 3, "min_players": 1, "by_players": '{"1-8": 2}'},
            ["monster-kit-exceeds-count"],
        ),
        (
            {"count": 2, "kit": 2, "min_players": 4, "by_players": '{"1-8": 1}'},
            ["monster-below-min-players"],
        ),
        ({"count": 2, "kit": 2, "min_players": 4, "by_players": '{"1-3": 0, "4-8": 2}'}, []),
        (
            {"count": 2, "kit": 2, "min_players": 1, "by_players": '{"1-4": 2, "5-8": 3}'},
            ["monster-kit-short"],
        ),
    ],
)
def test_monster_counts(tmp_path: Path, fields: dict, expected: list[str]) -> None:
    pack = write_pack(tmp_path, {"monsters.yaml": MONSTER.format(extra="", **fields)})
    assert codes(pack) == expected


def test_player_counts_outside_the_pack_are_not_checked(tmp_path: Path) -> None:
    fields = {"count": 2, "kit": 2, "min_players": 1, "by_players": '{"1-4": 2, "5-8": 3}'}
    pack = write_pack(
        tmp_path, {"monsters.yaml": MONSTER.format(extra="", **fields)}, "{min: 1, max: 4}"
    )
    assert codes(pack) == []


def test_species_must_add_up_to_the_kit(tmp_path: Path) -> None:
    species = (
        "  species:\n"
        "    - {id: spider, name: {ru: Паук, en: Spider}, kit: 2}\n"
        "    - {id: snake, name: {ru: Змея, en: Snake}, kit: 2}\n"
    )
    fields = {"count": 3, "kit": 3, "min_players": 1, "by_players": '{"1-8": 3}'}
    pack = write_pack(tmp_path, {"monsters.yaml": MONSTER.format(extra=species, **fields)})
    assert codes(pack) == ["monster-species-kit"]


CHARACTER = """\
- id: {id}
  kind: character
  name: {{ru: Персонаж, en: {id}}}
  motive: {{ru: Мотив., en: A motive.}}
  health: 5
  stats:
    {{speed: 3, strength: 3, dexterity: 3, knowledge: 3, luck: 3, communication: 3, attention: 3}}
  thrift: 1
  weapon_limit: 1
  hire_limit: 1
  start: {{banknotes: 1}}
  attitudes: {attitudes}
"""


def test_every_character_needs_an_attitude_towards_every_other(tmp_path: Path) -> None:
    text = CHARACTER.format(id="aa", attitudes="{bb: neutral, zz: sympathy}") + CHARACTER.format(
        id="bb", attitudes="{}"
    )
    pack = write_pack(tmp_path, {"characters.yaml": text})
    assert codes(pack) == ["attitude-missing", "attitude-unknown-character"]


def test_icons_need_their_tokens(tmp_path: Path) -> None:
    tile = """\
    - id: hall
      kind: tile
      name: {ru: Зал, en: Hall}
      type: labyrinth
      grid: {cols: 2, rows: 1}
      icons:
        - {icon: statue, cell: [0, 0]}
        - {icon: statue, cell: [1, 0]}
    - id: statue
      kind: token
      type: statue
      name: {ru: Статуя, en: Statue}
    """
    pack = write_pack(tmp_path, {"tiles.yaml": tile})
    [diag] = analyze(pack).diagnostics
    assert diag.code == "icon-components-short"
    assert "2 'statue' icon(s)" in diag.message and "1 'statue' tokens" in diag.message


def test_every_placed_tile_needs_an_event_card(tmp_path: Path) -> None:
    tiles = "".join(
        f"- {{id: t{n}, kind: tile, name: {{ru: П, en: T}}, type: labyrinth, "
        "grid: {cols: 1, rows: 1}}\n"
        for n in range(4)
    )
    deck = (
        "- {id: events, kind: deck, name: {ru: С, en: E}, cards: card, type: event}\n"
        "- {id: calm, kind: card, count: 2, deck: events, name: {ru: Т, en: C}, "
        "text: {ru: Тихо., en: Calm.}}\n"
    )
    pack = write_pack(tmp_path, {"tiles.yaml": tiles, "cards.yaml": deck})
    [diag] = analyze(pack).diagnostics
    assert diag.code == "event-deck-short"
    assert "4 tiles draw 3 event cards" in diag.message and "holds 2" in diag.message


def test_token_pools_cover_the_starting_kits(tmp_path: Path) -> None:
    characters = CHARACTER.format(id="aa", attitudes="{bb: neutral}") + CHARACTER.format(
        id="bb", attitudes="{aa: neutral}"
    )
    tokens = (
        "- {id: banknote, kind: token, count: 1, type: banknote, name: {ru: Б, en: B}}\n"
        "- {id: health, kind: token, count: 5, value: 2, type: health, name: {ru: З, en: H}}\n"
        "- {id: blue, kind: token, count: 7, type: team, team: blue, name: {ru: С, en: B}}\n"
    )
    pack = write_pack(tmp_path, {"characters.yaml": characters, "tokens.yaml": tokens})
    found = sorted(d.message for d in analyze(pack).diagnostics)
    assert found == [
        "8 players may all pick blue, but there are 7 blue team markers",
        "the game needs 2 banknote token(s) at setup, the pack has 1",
    ]
