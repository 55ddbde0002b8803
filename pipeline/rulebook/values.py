"""Plain-language forms of model values: numbers, dice faces, thresholds, amounts, rewards."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.model import Model
from pipeline.rulebook.i18n import WORDS, label, localized, pack_word, word

# Russian needs three plural forms (1, 2-4, 5+); English two.
PLURALS: dict[str, dict[str, tuple[str, ...]]] = {
    "treasures": {"ru": ("сокровище", "сокровища", "сокровищ"), "en": ("treasure", "treasures")},
    "common_items": {
        "ru": ("простая вещь", "простые вещи", "простых вещей"),
        "en": ("common item", "common items"),
    },
    "magic_items": {
        "ru": ("магическая вещь", "магические вещи", "магических вещей"),
        "en": ("magic item", "magic items"),
    },
    "unique_magic_items": {
        "ru": ("уникальная магическая вещь", "уникальные магические вещи",
               "уникальных магических вещей"),
        "en": ("unique magic item", "unique magic items"),
    },
    "secret_knowledge": {
        "ru": ("тайное знание", "тайных знания", "тайных знаний"),
        "en": ("secret knowledge", "secret knowledge"),
    },
    "antidotes": {"ru": ("антидот", "антидота", "антидотов"), "en": ("antidote", "antidotes")},
    "item_cards": {
        "ru": ("карта вещи в закрытую", "карты вещей в закрытую", "карт вещей в закрытую"),
        "en": ("item card face down", "item cards face down"),
    },
    "spells": {
        "ru": ("карта заклинания в закрытую", "карты заклинаний в закрытую",
               "карт заклинаний в закрытую"),
        "en": ("spell card face down", "spell cards face down"),
    },
    "intrigues": {
        "ru": ("карта козней", "карты козней", "карт козней"),
        "en": ("intrigue card", "intrigue cards"),
    },
    "banknotes": {"ru": ("банкнота", "банкноты", "банкнот"), "en": ("banknote", "banknotes")},
    "health": {"ru": ("хп", "хп", "хп"), "en": ("health", "health")},
    "cells": {"ru": ("клетка", "клетки", "клеток"), "en": ("cell", "cells")},
    "actions": {"ru": ("действие", "действия", "действий"), "en": ("action", "actions")},
    "turns": {"ru": ("ход", "хода", "ходов"), "en": ("turn", "turns")},
    "cards": {"ru": ("карта", "карты", "карт"), "en": ("card", "cards")},
    "poisonings": {"ru": ("отравление", "отравления", "отравлений"),
                   "en": ("poisoning", "poisonings")},
    "figures": {"ru": ("фигурка", "фигурки", "фигурок"), "en": ("figure", "figures")},
    "hands": {"ru": ("рука", "руки", "рук"), "en": ("hand", "hands")},
    "compartments": {"ru": ("отделение", "отделения", "отделений"),
                     "en": ("compartment", "compartments")},
}


RANGE = re.compile(r"^\d+-\d+$|^\d+\+$")


def plural(n: int, key: str, lang: str) -> str:
    forms = PLURALS.get(key, {}).get(lang)
    if not forms:
        return f"{n} {word(key, lang)}"
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            form = forms[0]
        elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            form = forms[1]
        else:
            form = forms[2]
    else:
        form = forms[0] if n == 1 else forms[1]
    return f"{n} {form}"


def number(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("-", "−")


def faces(values: Sequence[int], lang: str) -> str:
    """[5, 6] -> "5–6"; [1, 3] -> "1, 3"."""
    vals = sorted(values)
    if len(vals) > 1 and vals == list(range(vals[0], vals[-1] + 1)):
        return f"{vals[0]}–{vals[-1]}"
    return ", ".join(str(v) for v in vals)


def is_threshold(value: Any) -> bool:
    return isinstance(value, Mapping) and "stat" in value and "min" in value


def threshold(value: Mapping[str, Any], lang: str) -> str:
    return f"{word(str(value['stat']), lang)} {value['min']}+"


def roll_range(text: str) -> str:
    return str(text).replace("-", "–")


def entity_name(model: Model, entity_id: str, lang: str) -> str | None:
    entity = model.by_id.get(entity_id)
    if entity is None:
        return None
    name = localized(entity.get("name"), lang, model.pack.source_language)
    return name if isinstance(name, str) else None


def amounts(value: Mapping[str, Any], model: Model, lang: str) -> str:
    """{treasures: 3, common_items: 1, items: [key]} -> "3 сокровища, 1 простая вещь, ключ"."""
    parts = []
    for key, amount in value.items():
        if isinstance(amount, bool):
            parts.append(word(key, lang))
        elif isinstance(amount, int) and key in ("melee", "ranged", "poison", "acid"):
            parts.append(f"{word(key, lang)} {number(amount)}")
        elif isinstance(amount, int):
            parts.append(plural(amount, key, lang))
        elif key == "stat_increase":
            for inc in amount:
                stat = "any" if inc["stat"] == "any" else inc["stat"]
                name = {"ru": "любая характеристика", "en": "any stat"}[lang] if stat == "any" \
                    else word(stat, lang)
                parts.append(f"{name} +{inc['amount']}")
        elif isinstance(amount, Sequence) and not isinstance(amount, str):
            parts.extend(entity_name(model, str(i), lang) or str(i) for i in amount)
        else:
            parts.append(fmt(amount, model, lang))
    return ", ".join(parts)


def alternatives(value: Sequence[Any], model: Model, lang: str) -> str:
    """A list of reward mappings: one of them."""
    return f" {label('or', lang)} ".join(amounts(v, model, lang) for v in value)


def fmt(value: Any, model: Model, lang: str) -> str:
    """Any model value in words."""
    if isinstance(value, bool):
        return label("yes" if value else "no", lang)
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, str):
        if RANGE.match(value):
            return roll_range(value)
        return (entity_name(model, value, lang) or (word(value, lang) if value in WORDS else None)
                or pack_word(model, value, lang) or value)
    text = localized(value, lang, model.pack.source_language)
    if isinstance(text, str):
        return text
    if is_threshold(value):
        return threshold(value, lang)
    if isinstance(value, Mapping):
        return amounts(value, model, lang)
    items = list(value)
    if items and all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        return faces(items, lang)
    if items and all(is_threshold(v) for v in items):
        return f" {label('and', lang)} ".join(threshold(v, lang) for v in items)
    if items and all(isinstance(v, Mapping) for v in items):
        return alternatives(items, model, lang)
    return series([fmt(v, model, lang) for v in items], lang)


def series(parts: list[str], lang: str) -> str:
    """["a", "b", "c"] -> "a, b и c" / "a, b and c"."""
    if len(parts) < 2:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} {label('and', lang)} {parts[-1]}"
