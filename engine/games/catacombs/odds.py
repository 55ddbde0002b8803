"""Exact odds from the content: every table and check, per relevant stat level (icepool)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from engine.core.dice import Dice, distribution
from engine.core.game import OddsTable
from engine.core.odds import fraction_text as frac
from engine.core.odds import odds_row
from engine.games.catacombs.data import Catacombs, Check, Table

# ----- tables ---------------------------------------------------------------------------------


def step_levels(table: Table, effect: str) -> list[tuple[str, Any]]:
    """The stat levels that matter for one modifier: below the first step, then each step."""
    mod = table.modifier(effect)
    if mod is None:
        return [("-", None)]
    steps = sorted(mod.steps, key=lambda s: s.min)
    out: list[tuple[str, Any]] = [(f"{mod.stat} < {steps[0].min}", None)]
    for i, step in enumerate(steps):
        top = steps[i + 1].min - 1 if i + 1 < len(steps) else None
        label = f"{mod.stat} {step.min}+" if top is None else f"{mod.stat} {step.min}-{top}"
        out.append((label, step))
    return out


def table_rows(table: Table, bonus: int, add: int, jackpot: frozenset[int]) -> list[Fraction]:
    """Probability of each row: d6 + bonus + add, unless the luck die lands on `jackpot`."""
    die: icepool.Die = table.dice.die(bonus + add)
    dist = distribution(die)
    probs = [Fraction(0)] * len(table.rows)
    for total, p in dist.items():
        index = _row_index(table, total)
        probs[index] += p
    if jackpot:
        pj = Fraction(len(jackpot), 6)
        probs = [p * (1 - pj) for p in probs]
        probs[-1] += pj
    return probs


def _row_index(table: Table, total: int) -> int:
    clamped = max(total, table.range.low)
    for i, row in enumerate(table.rows):
        if clamped in row.roll:
            return i
    raise ValueError(f"{table.id}: no row covers the total {total}")


def cache_bonuses(data: Catacombs, table: Table) -> list[int]:
    bonuses = sorted(
        {
            int(t.hidden.get("bonus", 0))
            for t in data.tokens.values()
            if t.type == "cache" and t.table == table.id
        }
    )
    floor = max(0, table.range.low - table.dice.low)
    return sorted(set(bonuses) | {floor}) if table.bonus else [0]


def treasure_odds(data: Catacombs, table: Table) -> list[dict[str, Any]]:
    out = []
    for bonus in cache_bonuses(data, table):
        for a_label, a_step in step_levels(table, "add-to-roll"):
            for l_label, l_step in step_levels(table, "jackpot"):
                add = a_step.add if a_step else 0
                faces = l_step.success if l_step else frozenset()
                probs = table_rows(table, bonus, add, faces)
                out.append(
                    {
                        "bonus": bonus,
                        "attention": a_label,
                        "luck": l_label,
                        "rows": {
                            str(r.roll): frac(p) for r, p in zip(table.rows, probs, strict=True)
                        },
                    }
                )
    return out


def reveal_odds(table: Table) -> list[dict[str, Any]]:
    """Sarcophagus-like tables: outcome probabilities with and without the luck reroll."""
    preference = ["treasure", "empty", "monster"]
    out = []
    faces = Dice.parse(str(table.dice)).faces()
    for label, step in step_levels(table, "reroll-pick-best"):
        probs: dict[str, Fraction] = {}
        n = len(faces)
        for a in faces:
            first = table.row_for(a).outcome
            if step is None or first == preference[0]:
                probs[first] = probs.get(first, Fraction(0)) + Fraction(1, n)
                continue
            for b in faces:
                second = table.row_for(b).outcome
                keep = min(first, second, key=preference.index)
                probs[keep] = probs.get(keep, Fraction(0)) + Fraction(1, n * n)
        out.append({"luck": label, "outcomes": {k: frac(v) for k, v in sorted(probs.items())}})
        seal = table.modifier("seal")
        if seal is not None and seal.steps and "monster" in probs:
            sealed = dict(probs)
            sealed["sealed"] = sealed.pop("monster")
            out.append(
                {
                    "luck": f"{label}, {seal.stat} {min(s.min for s in seal.steps)}+ (seal)",
                    "outcomes": {k: frac(v) for k, v in sorted(sealed.items())},
                }
            )
    return out


# ----- checks ---------------------------------------------------------------------------------


def check_success(check: Check, active: list) -> Fraction:
    faces = check.success
    add = 0
    for m in active:
        if m.success is not None:
            faces = m.success
        add += m.add
    sides = check.dice.sides if check.dice else 6
    hits = sum(1 for f in range(1, sides + 1) if min(f + add, sides) in faces)
    return Fraction(hits, sides)


def check_bands(check: Check, active: list) -> dict[str, Fraction]:
    add = sum(m.add for m in active)
    sides = check.dice.sides if check.dice else 6
    out: dict[str, Fraction] = {}
    for f in range(1, sides + 1):
        total = min(f + add, sides)
        for band in check.results:
            if total in band.roll:
                out[band.result] = out.get(band.result, Fraction(0)) + Fraction(1, sides)
    return out


def check_odds(check: Check) -> list[dict[str, Any]]:
    """Each combination of the check's modifiers (none, each alone, all together)."""
    if check.dice is None or check.parity:
        return []
    combos: list[tuple[str, list]] = [("base", [])]
    for m in check.modifiers:
        combos.append((m.id, [m]))
    if len(check.modifiers) > 1:
        combos.append(("+".join(m.id for m in check.modifiers), list(check.modifiers)))
    out = []
    for label, active in combos:
        if check.results:
            out.append(
                {
                    "with": label,
                    "results": {k: frac(v) for k, v in check_bands(check, active).items()},
                }
            )
        elif check.success or any(m.success for m in active):
            out.append({"with": label, "success": frac(check_success(check, active))})
    return out


def parity_odds(check: Check) -> list[dict[str, Any]]:
    """Run-up jumps: death when the second roll's parity matches the first (a reroll helps)."""
    if not check.parity:
        return []
    die = 1 @ icepool.d(check.dice.sides if check.dice else 6)
    fail = Fraction(1, 2)
    out = [{"with": "base", "success": frac(1 - fail)}]
    for m in check.modifiers:
        if m.reroll:
            out.append({"with": m.id, "success": frac(1 - fail * fail)})
    _ = die
    return out


# ----- characters -----------------------------------------------------------------------------


def crevice_odds(data: Catacombs) -> list[dict[str, Any]]:
    jump = data.check("crevice-horizontal", "jump")
    if jump is None:
        return []
    widths = sorted(
        {
            t.width
            for t in data.tokens.values()
            if t.type == "crevice" and t.orientation == "horizontal"
        }
    ) or [1]
    out = []
    for ch in sorted(data.characters.values(), key=lambda c: c.id):
        row = {"character": ch.id}
        active = jump.active_modifiers(ch.stats)
        length = ch.stats["speed"] + sum(m.cells for m in active)
        faces = jump.success
        for m in active:
            if m.success is not None:
                faces = m.success
        for w in widths:
            need = w + int(jump.cells_add or 0)
            p = Fraction(1) if length >= need else Fraction(len(faces), 6)
            row[f"width {w}"] = frac(p)
        out.append(row)
    return out


def ghost_odds(data: Catacombs) -> list[dict[str, Any]]:
    out = []
    for m in data.monsters.values():
        for cid in m.checks:
            check = data.checks.get(cid)
            if check is None or check.action != "resist":
                continue
            for ch in sorted(data.characters.values(), key=lambda c: c.id):
                active = check.active_modifiers(ch.stats)
                bands = check_bands(check, active)
                out.append(
                    {
                        "monster": m.id,
                        "character": ch.id,
                        "results": {k: frac(v) for k, v in bands.items()},
                    }
                )
    return out


def all_odds(data: Catacombs) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for table in sorted(data.tables.values(), key=lambda t: t.id):
        if any(r.outcome for r in table.rows):
            tables[table.id] = {"dice": str(table.dice), "outcomes": reveal_odds(table)}
        else:
            tables[table.id] = {"dice": str(table.dice), "rows": treasure_odds(data, table)}
    checks = {}
    for check in sorted(data.checks.values(), key=lambda c: c.id):
        rows = check_odds(check) or parity_odds(check)
        if rows:
            checks[check.id] = rows
    return {
        "tables": tables,
        "checks": checks,
        "crevice_jump": crevice_odds(data),
        "ghost": ghost_odds(data),
    }


def odds_tables(data: Catacombs) -> list[OddsTable]:
    """`all_odds` as the typed tables every game gives `relic odds`."""
    odds = all_odds(data)
    out: list[OddsTable] = []
    for tid, t in odds["tables"].items():
        rows = [odds_row(f"+{r['bonus']} {r['attention']:<16} {r['luck']}", _fracs(r["rows"]))
                for r in t.get("rows", [])]
        rows += [odds_row(r["luck"], _fracs(r["outcomes"])) for r in t.get("outcomes", [])]
        out.append(OddsTable(f"table-{tid}", f"table {tid} ({t['dice']})", tuple(rows)))
    checks = [odds_row(f"{cid:<28} {r['with']}",
                  {"success": Fraction(r["success"])} if "success" in r else _fracs(r["results"]))
              for cid, rows in odds["checks"].items() for r in rows]
    out.append(OddsTable("checks", "checks (chance of success)", tuple(checks)))
    jumps = [odds_row(r["character"], _fracs({k: v for k, v in r.items() if k != "character"}))
             for r in odds["crevice_jump"]]
    out.append(OddsTable("crevice-jump", "clearing a horizontal crevice by jumping "
                         "(one action)", tuple(jumps)))
    ghosts = [odds_row(f"{r['character']} vs {r['monster']}", _fracs(r["results"]))
              for r in odds["ghost"]]
    out.append(OddsTable("ghost", "resisting a ghost", tuple(ghosts)))
    return out


def _fracs(cells: dict[str, str]) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in cells.items()}
