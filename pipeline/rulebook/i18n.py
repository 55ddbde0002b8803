"""Words the book itself prints (labels, stat names), by language."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LABELS_FILE = Path(__file__).resolve().parents[2] / "templates" / "print" / "labels.yaml"
STAT_LIST = Path(__file__).resolve().parents[2] / "schemas" / "defs.json"  # (`stat_names`)

LABELS: dict[str, dict[str, str]] = {
    "ru": {
        "contents": "Содержание",
        "see": "см. с.",
        "see_below": "см. ниже",
        "see_above": "см. выше",
        "below": "ниже",
        "above": "выше",
        "page": "с.",
        "glossary": "Словарь терминов",
        "index": "Указатель",
        "term": "Термин",
        "english": "English",
        "meaning": "Значение",
        "roll": "Бросок",
        "result": "Результат",
        "component": "Компонент",
        "count": "Кол-во",
        "players": "Игроки",
        "normal": "Обычный",
        "controlled": "Под управлением",
        "in_play": "В игре по числу игроков",
        "kit": "В наборе",
        "from_players": "Появляется от числа игроков",
        "reward_controlled": "за управляемого",
        "start": "Старт",
        "attack": "Атака",
        "reward": "Награда",
        "provisional": "Решение составителя",
        "proof": "ПРОБНЫЙ ОТТИСК",
        "monster": "Монстр",
        "obstacle": "Препятствие",
        "and": "и",
        "or": "или",
        "yes": "да",
        "no": "нет",
        "subtitle": "Правила игры",
        "health": "Здоровье",
        "motive": "Мотив",
        "thrift": "Бережливость",
        "weapon_limit": "Лимит оружия",
        "hire_limit": "Лимит найма",
        "damage": "Урон",
    },
    "en": {
        "contents": "Contents",
        "see": "see p.",
        "see_below": "see below",
        "see_above": "see above",
        "below": "below",
        "above": "above",
        "page": "p.",
        "glossary": "Glossary",
        "index": "Index",
        "term": "Term",
        "english": "Русский",
        "meaning": "Meaning",
        "roll": "Roll",
        "result": "Result",
        "component": "Component",
        "count": "Count",
        "players": "Players",
        "normal": "Normal",
        "controlled": "Controlled",
        "in_play": "In play by number of players",
        "kit": "In the box",
        "from_players": "Appears with players",
        "reward_controlled": "controlled",
        "start": "Start",
        "attack": "Attack",
        "reward": "Reward",
        "provisional": "Designer's decision",
        "proof": "PROOF",
        "monster": "Monster",
        "obstacle": "Obstacle",
        "and": "and",
        "or": "or",
        "yes": "yes",
        "no": "no",
        "subtitle": "Rules of play",
        "health": "Health",
        "motive": "Motive",
        "thrift": "Thrift",
        "weapon_limit": "Weapon limit",
        "hire_limit": "Hire limit",
        "damage": "Damage",
    },
}

def _labels_of(path: Path) -> dict[str, Any]:
    """The `labels` of a captions file, parsed once for every build that uses the same cache
    (`cards.kept`, keyed by the file's bytes): a process that finds them kept imports no YAML
    parser (the loader, 0.03 s)."""
    from pipeline.cards.kept import kept

    def parse() -> dict[str, Any]:
        from pipeline.loader import load_yaml

        return json.loads(json.dumps(load_yaml(path).data.get("labels") or {}))

    return kept("labels", path.read_bytes(), "rulebook labels 1", parse)


@cache
def _stats() -> dict[str, dict[str, str]]:
    """The stats' names by language (the stats from the schemas' stat list, their names from the
    captions the cards print), kept as the captions are: a process that finds them kept
    imports neither the schemas nor jsonschema (0.07 s)."""
    from pipeline.cards.kept import kept

    def parse() -> dict[str, dict[str, str]]:
        from pipeline.schemas import CATALOGUE

        labels = _labels_of(LABELS_FILE)
        return {key: dict(labels[key]) for key in CATALOGUE.stat_names}

    source = LABELS_FILE.read_bytes() + b"\0" + STAT_LIST.read_bytes()
    return kept("stat-names", source, "rulebook stats 1", parse)

# Keys that appear in results and rewards (treasure rows, monster rewards).
AMOUNTS: dict[str, dict[str, str]] = {
    "treasures": {"ru": "сокровища", "en": "treasures"},
    "common_items": {"ru": "простые вещи", "en": "common items"},
    "magic_items": {"ru": "магические вещи", "en": "magic items"},
    "secret_knowledge": {"ru": "тайные знания", "en": "secret knowledge"},
    "antidotes": {"ru": "антидоты", "en": "antidotes"},
    "item_cards": {"ru": "карты вещей в закрытую", "en": "item cards face down"},
    "spell_cards": {"ru": "карты заклинаний в закрытую", "en": "spell cards face down"},
    "intrigue_cards": {"ru": "карты козней", "en": "intrigue cards"},
    "melee": {"ru": "ближний бой", "en": "melee"},
    "ranged": {"ru": "дальний бой", "en": "ranged"},
    "poison": {"ru": "отравление", "en": "poisoning"},
}


# Plain words that appear as data values.
WORDS: dict[str, dict[str, str]] = {
    "antipathy": {"ru": "антипатия", "en": "antipathy"},
    "neutral": {"ru": "нейтрально", "en": "neutral"},
    "sympathy": {"ru": "симпатия", "en": "sympathy"},
    "head": {"ru": "голова", "en": "head"},
    "body": {"ru": "тело", "en": "body"},
    "hands": {"ru": "руки", "en": "hands"},
    "legs": {"ru": "ноги", "en": "legs"},
    "blue": {"ru": "синие", "en": "blue"},
    "red": {"ru": "красные", "en": "red"},
    "move": {"ru": "движение", "en": "move"},
    "common": {"ru": "обычная", "en": "common"},
    "unique": {"ru": "уникальная", "en": "unique"},
    "magic": {"ru": "магическая", "en": "magic"},
    "accessory": {"ru": "аксессуар", "en": "accessory"},
    "search": {"ru": "исследование", "en": "search"},
}


def pack_words(model: Any) -> Mapping[str, Mapping[str, str]]:
    """The pack's own captions (`content/<pack>/print/labels.yaml`), which also name the pack's
    data values, table columns (`field-<path>`) and component groups (`group-<kind>`) in the
    book; empty when the pack has none."""
    path = Path(model.pack.root) / "print" / "labels.yaml"
    if not path.is_file():
        return {}
    found = _PACK_WORDS.get(path)
    if found is None:
        found = _PACK_WORDS[path] = _labels_of(path)
    return found


_PACK_WORDS: dict[Path, dict[str, Mapping[str, str]]] = {}


def pack_word(model: Any, key: str, lang: str) -> str | None:
    """A pack caption in `lang` (or the source language), if the pack has one for `key`."""
    text = pack_words(model).get(key)
    if not isinstance(text, Mapping):
        return None
    return text.get(lang) or text.get(model.pack.source_language)


def label(key: str, lang: str) -> str:
    return LABELS.get(lang, LABELS["en"]).get(key, key)


def word(key: str, lang: str) -> str:
    """A stat or amount name in `lang`, or the key itself with underscores spaced."""
    for table in (_stats(), AMOUNTS, WORDS):
        if key in table:
            return table[key].get(lang) or table[key]["en"]
    return key.replace("_", " ")


def localized(value: Any, lang: str, fallback: str = "ru") -> Any:
    """A text mapping in `lang` (or the source language); anything else unchanged."""
    if isinstance(value, Mapping) and fallback in value and all(isinstance(k, str) for k in value):
        text = value.get(lang) or value.get(fallback)
        if isinstance(text, str):
            return text
    return value
