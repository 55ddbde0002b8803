"""Localized, plain views of entities for the book's block templates (tables, stat blocks)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pipeline.model import Entity, Model
from pipeline.rulebook.i18n import label, localized, pack_word, word
from pipeline.rulebook.values import alternatives, amounts, fmt, number, roll_range

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas" / "kinds"
OBSTACLES: dict[str, dict[str, str]] = {
    "door": {"ru": "Дверь", "en": "Door"},
    "locked-door": {"ru": "Запертая дверь", "en": "Locked door"},
    "crevice-vertical": {"ru": "Верт. расщелина", "en": "Vertical crevice"},
    "crevice-horizontal": {"ru": "Гориз. расщелина", "en": "Horizontal crevice"},
    "bridge": {"ru": "Мост", "en": "Bridge"},
    "water": {"ru": "Вода", "en": "Water"},
}
KINDS: dict[str, dict[str, str]] = {
    "character": {"ru": "Планшеты персонажей", "en": "Character boards"},
    "relationship": {"ru": "Тайтлы отношений", "en": "Relationship titles"},
    "tile": {"ru": "Площадки", "en": "Tiles"},
    "monster": {"ru": "Карты монстров", "en": "Monster cards"},
    "item": {"ru": "Карты предметов", "en": "Item cards"},
    "card": {"ru": "Прочие карты", "en": "Other cards"},
    "deck": {"ru": "Рубашки колод", "en": "Deck backs"},
    "token": {"ru": "Жетоны", "en": "Tokens"},
    "trap": {"ru": "Открытые ловушки", "en": "Open traps"},
}

def name_of(model: Model, e: Entity, lang: str) -> str:
    text = e.get("name") or e.get("title")
    return str(localized(text, lang, model.pack.source_language) or e.id)


def printed_kinds(model: Model) -> list[str]:
    comps = model.pack.print_profile.get("components", {})
    return sorted(comps) if isinstance(comps, Mapping) else []


def physical_kinds(model: Model) -> list[str]:
    """Kinds with physical components: the printed ones, else every kind that is not standalone
    (tables, checks, rules and matrices live only in the book)."""
    printed = printed_kinds(model)
    if printed:
        return printed
    out = []
    for kind in model.kinds():
        schema = SCHEMAS / f"{kind}.json"
        standalone = schema.is_file() and json.loads(schema.read_text()).get("x-standalone")
        if not standalone:
            out.append(kind)
    return out


def table_view(model: Model, e: Entity, lang: str) -> dict[str, Any]:
    src = model.pack.source_language
    rows = []
    for row in e.get("rows", ()):
        if isinstance(row.get("result"), Mapping):
            result = amounts(row["result"], model, lang)
        elif row.get("text") is not None:
            result = str(localized(row["text"], lang, src))
        else:
            result = fmt(row.get("result", ""), model, lang)
        rows.append({"roll": roll_range(row["roll"]), "result": result})
    dice = str(e.get("dice", ""))
    if e.get("bonus") == "cache":
        dice += " + N"
    return {"id": e.id, "name": name_of(model, e, lang), "dice": dice, "rows": rows}


def acid(lang: str) -> str:
    return {"ru": "кислота", "en": "acid"}[lang]


def _players(spread: Mapping[str, Any]) -> list[dict[str, str]]:
    return [{"players": roll_range(k), "count": number(v)} for k, v in spread.items()]


def monster_view(model: Model, e: Entity, lang: str, thumb: Path | None) -> dict[str, Any]:
    normal = e.get("stats") or {}
    ctrl = e.get("controlled") or {}
    lines = []
    for stat in ("speed", "health"):
        if stat in normal or stat in ctrl:
            lines.append({"label": word(stat, lang), "normal": fmt(normal.get(stat, "—"),
                          model, lang), "controlled": fmt(ctrl.get(stat, "—"), model, lang)})
    if e.get("health_by_players"):
        shown = ", ".join(f"{number(v)} ({roll_range(k)})"
                          for k, v in e.get("health_by_players").items())
        lines.append({"label": word("health", lang), "normal": shown, "controlled": shown})
    kinds = list(dict.fromkeys([*(normal.get("damage") or {}), *(ctrl.get("damage") or {})]))
    for kind in kinds:
        name = acid(lang) if kind == "acid" else word(kind, lang)
        lines.append({"label": f"{label('damage', lang)}: {name}",
                      "normal": fmt((normal.get("damage") or {}).get(kind, "—"), model, lang),
                      "controlled": fmt((ctrl.get("damage") or {}).get(kind, "—"), model, lang)})
    rewards = e.get("rewards") or {}
    return {
        "id": e.id,
        "name": name_of(model, e, lang),
        "text": localized(e.get("text"), lang, model.pack.source_language),
        "lines": lines,
        "kit": number(e.get("kit", e.count)),
        "min_players": number(e.get("min_players", 1)),
        "by_players": _players(e.get("by_players") or {}),
        "attack": ", ".join(word(a, lang) for a in e.get("attack", ())),
        "reward_normal": alternatives(rewards.get("uncontrolled", ()), model, lang),
        "reward_controlled": alternatives(rewards.get("controlled", ()), model, lang),
        "thumb": thumb_url(thumb) if thumb else None,
    }


SYMBOLS = {"pass": "✓", "blocked": "■", "held": "≈", "dies": "☠", "breaks": "⚒"}
LEGEND: dict[str, dict[str, str]] = {
    "ru": {"pass": "проходит", "blocked": "останавливается", "held": "задержан",
           "dies": "гибнет", "loses-health": "теряет N хп", "breaks": "взламывает",
           "turns": "тратит N ходов", "width": "только до ширины N",
           "controlled": "после «/» — под управлением игрока",
           "shielded": "в скобках — пока цел покров"},
    "en": {"pass": "passes", "blocked": "stops", "held": "held up", "dies": "dies",
           "loses-health": "loses N health", "breaks": "breaks it open",
           "turns": "spends N turns", "width": "only up to width N",
           "controlled": "after “/”: controlled by a player",
           "shielded": "in brackets: while the shield holds"},
}


def symbol(cell: Mapping[str, Any] | None) -> str:
    """One matrix cell in symbols: effect, limits, then the shielded and controlled overrides."""
    if not cell:
        return "—"
    effect = cell["effect"]
    text = f"−{cell.get('health', '')}" if effect == "loses-health" else SYMBOLS.get(effect, effect)
    if cell.get("max_width"):
        text += f" ≤{cell['max_width']}"
    if cell.get("turns"):
        text += f" ↻{cell['turns']}"
    if cell.get("shielded"):
        text += f" ({symbol(cell['shielded'])})"
    if cell.get("controlled"):
        text += f" / {symbol(cell['controlled'])}"
    return text


def matrix_view(model: Model, e: Entity, lang: str) -> dict[str, Any]:
    """Obstacles down, monsters (or species) across; cells in symbols with a legend."""
    src = model.pack.source_language
    heads = []
    for row in e.get("rows", ()):
        monster = model.by_id.get(row["monster"])
        title = name_of(model, monster, lang) if monster else row["monster"]
        if row.get("species") and monster is not None:
            for sp in monster.get("species", ()):
                if sp.get("id") == row["species"]:
                    title = str(localized(sp.get("name"), lang, src))
        heads.append(title)
    rows = []
    for ob in e.get("obstacles", ()):
        found = model.by_id.get(ob)
        name = name_of(model, found, lang) if found else OBSTACLES.get(ob, {}).get(lang, ob)
        cells = [symbol(row.get("cells", {}).get(ob)) for row in e.get("rows", ())]
        rows.append({"name": name, "cells": cells})
    legend = LEGEND.get(lang, LEGEND["en"])
    keys = [("✓", "pass"), ("■", "blocked"), ("≈", "held"), ("☠", "dies"),
            ("−N", "loses-health"), ("⚒", "breaks"), ("↻N", "turns"), ("≤N", "width")]
    return {"id": e.id, "name": name_of(model, e, lang), "heads": heads, "rows": rows,
            "legend": [f"{sym} {legend[key]}" for sym, key in keys]
            + [legend["shielded"], legend["controlled"]],
            "text": localized(e.get("text"), lang, src) if e.get("text") else None}


def character_view(model: Model, e: Entity, lang: str, thumb: Path | None) -> dict[str, Any]:
    src = model.pack.source_language
    stats = [{"label": word(k, lang), "value": number(v), "pair": (word(k, lang), number(v))}
             for k, v in (e.get("stats") or {}).items()]
    start = e.get("start") or {}
    return {
        "id": e.id,
        "name": name_of(model, e, lang),
        "motive": localized(e.get("motive"), lang, src),
        "health": number(e.get("health", 0)),
        "stats": stats,
        "thrift": number(e.get("thrift", 0)),
        "weapon_limit": number(e.get("weapon_limit", 0)),
        "hire_limit": number(e.get("hire_limit", 0)),
        "start": amounts(start, model, lang) if start else "—",
        "abilities": [localized(a.get("text"), lang, src) for a in e.get("abilities", ())
                      if a.get("text") is not None],
        "thumb": thumb_url(thumb) if thumb else None,
    }


def components_view(model: Model, lang: str, kinds: list[str] | None) -> list[dict[str, Any]]:
    """Per kind: its total and every distinct component name with its copies."""
    chosen = kinds if kinds is not None else physical_kinds(model)
    groups = []
    for kind in chosen:
        counts: dict[str, int] = {}
        for e in model.of_kind(kind):
            name = name_of(model, e, lang)
            counts[name] = counts.get(name, 0) + e.count
        items = [{"name": n, "count": number(counts[n])}
                 for n in sorted(counts, key=lambda n: n.lower())]
        group = KINDS.get(kind, {}).get(lang) or pack_word(model, f"group-{kind}", lang) or kind
        groups.append({"group": group,
                       "count": number(sum(counts.values())), "parts": items})
    return groups


FIELD_LABELS: dict[str, dict[str, str]] = {
    "price": {"ru": "Цена", "en": "Price"},
    "hands": {"ru": "Руки", "en": "Hands"},
    "backpack": {"ru": "Рюкзак", "en": "Pack"},
    "slot": {"ru": "Куда", "en": "Slot"},
    "rarity": {"ru": "Вид", "en": "Kind"},
    "count": {"ru": "Шт.", "en": "Qty"},
    "requires": {"ru": "Условие", "en": "Needs"},
    "roll.success": {"ru": "Успех", "en": "Success"},
    "actions": {"ru": "Действия", "en": "Actions"},
    "weapon": {"ru": "Оружие", "en": "Weapon"},
    "heal": {"ru": "Лечение", "en": "Heal"},
}


def list_view(model: Model, kind: str, fields: list[str], lang: str) -> dict[str, Any]:
    """A table of every entity of `kind`: name, then the fields (— where an entity lacks one)."""
    heads = [FIELD_LABELS.get(f, {}).get(lang) or pack_word(model, f"field-{f}", lang) or f
             for f in fields]
    rows = []
    for e in sorted(model.of_kind(kind), key=lambda x: name_of(model, x, lang).lower()):
        cells = []
        for f in fields:
            got = e.count if f == "count" else e.get(f)
            cells.append("—" if got in (None, "none", ()) else fmt(got, model, lang))
        rows.append({"name": name_of(model, e, lang), "cells": cells})
    return {"heads": heads, "rows": rows}


THUMBS_URL = "/relic-thumbs/"


def thumb(model: Model, entity_id: str, lang: str, path: Path) -> dict[str, str]:
    return {"name": name_of(model, model.by_id[entity_id], lang), "src": thumb_url(path)}


def thumb_url(path: Path) -> str:
    """A stable virtual URL: WeasyPrint names images by the hash of their URL, so a temporary
    folder's name must not reach it (builds stay byte-identical)."""
    return f"file://{THUMBS_URL}{quote(path.name)}"
