"""Localized, plain views of entities for the book's block templates (tables, stat blocks)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pipeline.model import Entity, Model
from pipeline.rulebook.blocks import Block, BlockSpec
from pipeline.rulebook.i18n import LABELS, label, localized, pack_word, word
from pipeline.rulebook.pictures import NoPictures, Picture, Pictures, pixels
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
    "card": {"ru": "Карты", "en": "Cards"},
    "deck": {"ru": "Рубашки колод", "en": "Deck backs"},
    "token": {"ru": "Жетоны", "en": "Tokens"},
    "trap": {"ru": "Открытые ловушки", "en": "Open traps"},
}

def name_of(model: Model, e: Entity, lang: str) -> str:
    text = e.get("name") or e.get("title")
    return str(localized(text, lang, model.pack.source_language) or e.id)


def printed_kinds(model: Model) -> list[str]:
    """The kinds the print profile prints (an entry's own `kind`, else its name)."""
    comps = model.pack.print_profile.get("components", {})
    if not isinstance(comps, Mapping):
        return []
    return sorted({spec.get("kind", name) if isinstance(spec, Mapping) else name
                   for name, spec in comps.items()})


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


def monster_block(model: Model, e: Entity, spec: BlockSpec) -> Block:
    """A monster's stat block, drawn apart (`blocks.py`): its stats normal and controlled,
    then its attack, kit, players, spread and rewards."""
    m = monster_view(model, e, spec.lang)
    words = LABELS.get(spec.lang, LABELS["en"])
    rows = tuple((line["label"], line["normal"], line["controlled"]) for line in m["lines"])
    notes = [((f"{words['attack']}:", True), (f" {m['attack']}. ", False),
              (f"{words['kit']}:", True), (f" {m['kit']}. ", False),
              (f"{words['from_players']}:", True), (f" {m['min_players']}+.", False))]
    if m["by_players"]:
        spread = "; ".join(f"{b['players']}\u00a0→\u00a0{b['count']}" for b in m["by_players"])
        notes.append(((f"{words['in_play']}:", True), (f" {spread}", False)))
    reward: list[tuple[str, bool]] = [(f"{words['reward']}:", True),
                                      (f" {m['reward_normal']}", False)]
    if m["reward_controlled"]:
        reward += [("; ", False), (f"{words['reward_controlled']}:", True),
                   (f" {m['reward_controlled']}", False)]
    notes.append((*reward, (".", False)))
    return Block(spec, m["name"], ("", words["normal"], words["controlled"]), rows,
                 tuple(notes))


BLOCKS: dict[str, Callable[[Model, Entity, BlockSpec], Block]] = {"monster": monster_block}
"""The blocks drawn apart, by the reference that shows them."""


def drawn_block(model: Model, spec: BlockSpec) -> Block | None:
    """The block as the model has it now (None: its entity is gone)."""
    e = model.by_id.get(spec.entity_id)
    return BLOCKS[spec.kind](model, e, spec) if e is not None else None


def monster_view(model: Model, e: Entity, lang: str) -> dict[str, Any]:
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


MATRIX_COLUMNS = {"a5": 5, "a4": 8, "letter": 8}
"""The most monster columns one matrix table takes on a page of that size (portrait): wider
matrices are split into tables of near-equal width, one under the other."""


def column_groups(count: int, most: int) -> list[range]:
    """`count` columns in the fewest tables of at most `most`, as even as possible."""
    tables = max(1, -(-count // most))
    size = -(-count // tables)
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


def matrix_view(model: Model, e: Entity, lang: str, paper: str = "a5") -> dict[str, Any]:
    """Obstacles down, monsters (or species) across; cells in symbols with a legend. A matrix
    wider than the page is split into tables of a few monster columns each."""
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
    names, cells = [], []
    for ob in e.get("obstacles", ()):
        found = model.by_id.get(ob)
        names.append(name_of(model, found, lang) if found else OBSTACLES.get(ob, {}).get(lang, ob))
        cells.append([symbol(row.get("cells", {}).get(ob)) for row in e.get("rows", ())])
    tables = [{"heads": [heads[i] for i in cols],
               "rows": [{"name": name, "cells": [row[i] for i in cols]}
                        for name, row in zip(names, cells, strict=True)]}
              for cols in column_groups(len(heads), MATRIX_COLUMNS.get(paper, 5))]
    legend = LEGEND.get(lang, LEGEND["en"])
    keys = [("✓", "pass"), ("■", "blocked"), ("≈", "held"), ("☠", "dies"),
            ("−N", "loses-health"), ("⚒", "breaks"), ("↻N", "turns"), ("≤N", "width")]
    return {"id": e.id, "name": name_of(model, e, lang), "tables": tables,
            "legend": [{"symbol": sym, "meaning": legend[key]} for sym, key in keys],
            "notes": [legend["shielded"], legend["controlled"]],
            "text": localized(e.get("text"), lang, src) if e.get("text") else None}


def character_view(model: Model, e: Entity, lang: str,
                   thumb: Mapping[str, Any] | None) -> dict[str, Any]:
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
        "thumb": thumb,
    }


def component_groups(model: Model, kind: str, back_by: str | None = None,
                     members: list[Entity] | None = None,
                     ) -> list[tuple[Entity | None, list[Entity]]]:
    """A kind's entities (or the given members of it) by the entity that groups them in the
    box: its deck when the print entry gives a back per group (`back_by: deck`), else one
    group."""
    if back_by is None and members is None:
        spec = model.pack.print_profile.get("components", {}).get(kind)
        back_by = spec.get("back_by") if isinstance(spec, Mapping) else None
    groups: dict[str | None, list[Entity]] = {}
    for e in model.of_kind(kind) if members is None else members:
        owner = e.get(back_by) if back_by else None
        groups.setdefault(owner if owner in model.by_id else None, []).append(e)
    return [(model.by_id[g] if g is not None else None, members) for g, members in groups.items()]


def _box_parts(model: Model, kinds: list[str] | None) -> list[tuple[str, str | None, list[Entity]]]:
    """(group name, back_by, entities) for each print entry of the box: an entry that names
    its kind prints its own components (a card's standee), one with `where` only some
    entities of its kind, as the card build does. Without a print profile, every physical kind."""
    from pipeline.cards.formats import load_profile
    from pipeline.diagnostics import RelicError

    try:
        entries = sorted(load_profile(model.pack).kinds, key=lambda k: k.name)
    except RelicError:
        entries = []
    if not entries:
        chosen = kinds if kinds is not None else physical_kinds(model)
        return [(k, None, list(model.of_kind(k))) for k in chosen]
    out = [(e.name, e.back_by, [x for x in model.of_kind(e.kind) if e.prints(x.get)])
           for e in entries if kinds is None or e.name in kinds or e.kind in kinds]
    named = {e.name for e in entries} | {e.kind for e in entries}
    out += [(k, None, list(model.of_kind(k))) for k in kinds or () if k not in named]
    return out


def components_view(model: Model, lang: str, kinds: list[str] | None) -> list[dict[str, Any]]:
    """Per print entry (or the chosen kinds' entries), and per deck where a kind is dealt in
    decks: its total and every distinct component name with its copies."""
    out = []
    for group, back_by, entities in _box_parts(model, kinds):
        for owner, members in component_groups(model, group, back_by, entities):
            counts: dict[str, int] = {}
            for e in members:
                name = name_of(model, e, lang)
                counts[name] = counts.get(name, 0) + e.count
            items = [{"name": n, "count": number(counts[n])}
                     for n in sorted(counts, key=lambda n: n.lower())]
            title = (name_of(model, owner, lang) if owner is not None
                     else kind_label(model, group, lang))
            out.append({"group": title, "kind": group, "count": number(sum(counts.values())),
                        "parts": items})
    return out


def kind_label(model: Model, kind: str, lang: str) -> str:
    """A kind's name in the box contents (the pack's print labels may give it: group-KIND)."""
    return (KINDS.get(kind, {}).get(lang) or pack_word(model, f"group-{kind}", lang)
            or kind.replace("-", " ").capitalize())


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


PICTURES_URL = "/relic-pictures/"
BLOCKS_URL = f"{PICTURES_URL}blocks/"  # blocks drawn apart (`blocks.py`)
PICTURE_MM = {"cover": 26.0, "block": 22.0, "strip": 19.0}
"""Printed widths of component pictures: on the cover, beside a stat block, in a strip."""


@dataclass
class Figures:
    """The component pictures a book shows, each at the width it is printed: views ask for one
    by entity id and place; the book rasterizes exactly the ones asked for, at that size."""

    pictures: Pictures = field(default_factory=NoPictures)
    used: dict[str, tuple[Picture, int]] = field(default_factory=dict)  # URL path -> use
    drawn: dict[str, Block] = field(default_factory=dict)  # URL path -> block drawn apart
    read: dict[str, Mapping[str, str]] = field(default_factory=dict)  # what its words read
    measure: bool = True  # False: only the references are checked, no block is measured

    def block(self, block: Block, read: Mapping[str, str]) -> dict[str, str]:
        """{"src", "width", "height"} (mm) for the `<img>` a block drawn apart takes the place
        of: its URL names the block, not its words, so that new words of the same size leave
        the chapter's HTML as it was."""
        from pipeline.rulebook.blocks import height_mm

        spec = block.spec
        path = f"{BLOCKS_URL}{quote(spec.kind)}-{quote(spec.entity_id)}-{spec.width_mm:g}.pdf"
        self.drawn[path] = block
        self.read[path] = read
        height = height_mm(block) if self.measure else 0.0
        return {"src": f"file://{path}", "width": f"{spec.width_mm:g}mm",
                "height": f"{height:.2f}mm"}

    def use(self, model: Model, entity_id: str, lang: str, place: str) -> dict[str, Any] | None:
        """{"name", "src", "width", "height"} (mm) for `<img>`, or None without a picture."""
        found = self.pictures.find(entity_id)
        if found is None:
            return None
        width = PICTURE_MM[place]
        px = pixels(width)
        path = f"{PICTURES_URL}{quote(entity_id)}-{px}.png"
        self.used[path] = (found, px)
        return {"name": name_of(model, model.by_id[entity_id], lang),
                "src": f"file://{path}",  # virtual and stable: WeasyPrint names images by URL
                "width": f"{width:g}mm", "height": f"{width * found.aspect:.2f}mm"}
