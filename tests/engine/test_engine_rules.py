"""Every number of the content is exercised through the engine: each threshold, table row,
table step, check result, matrix cell and player-count entry; a last test asserts that the
cases below cover everything the canonical model holds."""

from __future__ import annotations

import pytest
from engine_support import arena as conftest_arena
from engine_support import canonical_plain, set_stat

from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.checks_util import may_try, passes
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.monsters import enter, ghost_resist, spawn
from engine.games.catacombs.pathfinding import obstacle_effect
from engine.games.catacombs.sarcophagi import resolve, sarcophagus_roll, sarcophagus_table
from engine.games.catacombs.search import (
    attention_add,
    jackpot_faces,
    open_stash,
    treasure_roll,
)
from engine.games.catacombs.setup import monster_pool
from engine.games.catacombs.state import Piece
from engine.games.catacombs.steps import (
    Acid,
    GhostResist,
    MonsterAct,
    SarcophagusRoll,
    TreasureRoll,
)

PLAIN = canonical_plain()
DATA = from_plain(PLAIN)
RULE_ENTITIES = {e["id"]: e for e in PLAIN["entities"] if e["kind"] == "rule"}
STATS = ("speed", "strength", "dexterity", "knowledge", "luck", "communication", "attention")


def arena(players: int = 2, seed: int = 1):
    return conftest_arena(DATA, players, seed)


def non_keeper(state):
    return next(h for h in state.heroes if not DATA.characters[h.character].relic_keeper)


# ----- thresholds ------------------------------------------------------------------------------


def threshold_cases():
    for check in sorted(DATA.checks.values(), key=lambda c: c.id):
        for t in check.requires:
            yield pytest.param(check.id, t, id=f"{t.src}")


@pytest.mark.parametrize(("check_id", "threshold"), list(threshold_cases()))
def test_check_threshold(check_id, threshold):
    state = arena()
    hero = non_keeper(state)
    check = DATA.checks[check_id]
    for other in check.requires:
        set_stat(state, hero, other.stat, max(other.min or 0, 0))
    set_stat(state, hero, threshold.stat, threshold.min)
    assert may_try(state, hero, check)
    set_stat(state, hero, threshold.stat, threshold.min - 1)
    assert not check.allowed(state.stats(hero))
    assert may_try(state, hero, check) == bool(set(check.items) & set(hero.items))


def modifier_cases():
    for check in sorted(DATA.checks.values(), key=lambda c: c.id):
        for m in check.modifiers:
            yield pytest.param(check.id, m, id=str(m.src))


@pytest.mark.parametrize(("check_id", "modifier"), list(modifier_cases()))
def test_check_modifier(check_id, modifier):
    state = arena()
    hero = state.heroes[0]
    check = DATA.checks[check_id]
    for t in modifier.requires:
        set_stat(state, hero, t.stat, t.min)
    hero.items = list(modifier.items[:1])
    assert modifier in check.active_modifiers(state.stats(hero), tuple(hero.items))
    if modifier.requires:
        t = modifier.requires[0]
        set_stat(state, hero, t.stat, t.min - 1)
        hero.items = list(modifier.items[:1])
        assert modifier not in check.active_modifiers(state.stats(hero), tuple(hero.items))
    elif modifier.items:
        hero.items = []
        assert modifier not in check.active_modifiers(state.stats(hero), ())
    else:  # a modifier without conditions (the surprise-attack bonus) always applies
        assert modifier in check.active_modifiers({}, ())


def card_threshold_cases():
    for card in sorted(DATA.cards.values(), key=lambda c: c.id):
        for t in card.requires:
            yield pytest.param(card.id, t, id=str(t.src))


@pytest.mark.parametrize(("card_id", "threshold"), list(card_threshold_cases()))
def test_stash_card_threshold(card_id, threshold):
    for value, taken in ((threshold.min - 1, False), (threshold.min, True)):
        state = arena()
        hero = state.heroes[0]
        set_stat(state, hero, threshold.stat, value)
        tile = state.tile_of(hero.pos)
        feature = {"uid": "fx", "type": "stash", "card": card_id, "cell": None}
        tile.features.append(feature)
        before = hero.treasures
        open_stash(state, hero, tile, feature)
        assert (feature not in tile.features) == taken
        card = DATA.cards[card_id]
        assert hero.treasures - before == (card.reward.treasures if taken else 0)


# ----- check rolls ------------------------------------------------------------------------------


def roll_cases():
    for check in sorted(DATA.checks.values(), key=lambda c: c.id):
        if check.dice is not None and check.success:
            yield pytest.param(check.id, id=f"{check.id}.roll")


@pytest.mark.parametrize("check_id", list(roll_cases()))
def test_check_roll_success_faces(check_id):
    state = arena()
    hero = state.heroes[0]
    check = DATA.checks[check_id]
    for stat in STATS:
        set_stat(state, hero, stat, 0)
    for face in range(1, check.dice.sides + 1):
        assert passes(state, hero, check, face) == (face in check.success)


def band_cases():
    for check in sorted(DATA.checks.values(), key=lambda c: c.id):
        for band in check.results:
            yield pytest.param(check.id, band, id=str(band.src))


@pytest.mark.parametrize(("check_id", "band"), list(band_cases()))
def test_resist_result_band(check_id, band):
    state = arena()
    hero = state.heroes[0]
    set_stat(state, hero, "luck", 0)
    ghost = spawn(state, "ghost", hero.pos, awake=True)
    lost = hero.turns_lost
    step = GhostResist(dice="d6", seat=hero.seat, uid=ghost.uid, check=check_id)
    ghost_resist(state, step, band.roll.low)
    assert hero.turns_lost - lost == band.outcome.turns_lost
    assert any(band.result in e for e in state.events[-3:])


# ----- tables -----------------------------------------------------------------------------------


def row_cases():
    for table in sorted(DATA.tables.values(), key=lambda t: t.id):
        for i, row in enumerate(table.rows):
            yield pytest.param(table.id, i, id=str(row.src))


@pytest.mark.parametrize(("table_id", "index"), list(row_cases()))
def test_table_row(table_id, index):
    state = arena()
    hero = non_keeper(state)
    set_stat(state, hero, "attention", 0)
    set_stat(state, hero, "luck", 0)
    table = DATA.tables[table_id]
    row = table.rows[index]
    if row.outcome is None:
        die = table.dice.low
        bonus = row.roll.low - die
        before = hero.treasures
        step = TreasureRoll(dice=str(table.dice), seat=hero.seat, table=table_id, bonus=bonus,
                            why="test")
        treasure_roll(state, step, die)
        assert hero.treasures - before == row.reward.treasures
        return
    tile = state.tile_of(hero.pos)
    tile.features.append({"uid": "fs", "type": "sarcophagus", "cell": None})
    pieces = len(state.pieces)
    resolve(state, hero, "fs", row.roll.low, sealable=False)
    feature = next(f for f in tile.features if f["uid"] == "fs")
    if row.outcome == "monster":
        assert feature["state"] == "lair-spent" and len(state.pieces) == pieces + 1
        assert state.pieces[-1].monster == row.monster
    elif row.outcome == "treasure":
        assert feature["state"] == "looted" and state._front[-1].fn.startswith("treasure")
    else:
        assert feature["state"] == "empty"


def step_cases():
    for table in sorted(DATA.tables.values(), key=lambda t: t.id):
        for m in table.modifiers:
            for step in m.steps:
                yield pytest.param(table.id, m.id, step, id=str(step.src))


@pytest.mark.parametrize(("table_id", "mod_id", "step"), list(step_cases()))
def test_table_modifier_step(table_id, mod_id, step):
    state = arena()
    hero = non_keeper(state)
    table = DATA.tables[table_id]
    mod = next(m for m in table.modifiers if m.id == mod_id)
    set_stat(state, hero, mod.stat, step.min)
    if mod.effect == "add-to-roll":
        assert attention_add(state, hero, table) == step.add
        set_stat(state, hero, mod.stat, step.min - 1)
        assert attention_add(state, hero, table) < step.add
    elif mod.effect == "jackpot":
        assert jackpot_faces(state, hero, table) == step.success
        set_stat(state, hero, mod.stat, step.min - 1)
        assert jackpot_faces(state, hero, table) != step.success
    elif mod.effect == "reroll-pick-best":
        worst = next(r for r in table.rows if r.outcome == "monster").roll.low
        step = SarcophagusRoll(dice=str(table.dice), seat=hero.seat, uid="none", first=None)
        sarcophagus_roll(state, step, worst)
        assert state._front and isinstance(state._front[-1], SarcophagusRoll)
        assert sarcophagus_table(state) is table
    elif mod.effect == "seal":
        monster_row = next(r for r in table.rows if r.outcome == "monster")
        for value, sealed in ((step.min, True), (step.min - 1, False)):
            set_stat(state, hero, mod.stat, value)
            tile = state.tile_of(hero.pos)
            uid = f"seal{value}"
            tile.features.append({"uid": uid, "type": "sarcophagus", "cell": None})
            resolve(state, hero, uid, monster_row.roll.low, sealable=True)
            feature = next(f for f in tile.features if f["uid"] == uid)
            assert (feature["state"] == "sealed") == sealed
    else:
        pytest.fail(f"unknown table modifier effect {mod.effect}")


# ----- the obstacle matrix ----------------------------------------------------------------------


def matrix_cases():
    for (who, obstacle), cell in sorted(DATA.matrix.items()):
        yield pytest.param(who, obstacle, cell, id=str(cell.src))


def _piece_for(who: str) -> Piece:
    monster = who if who in DATA.monsters else next(
        m.id for m in DATA.monsters.values() if any(s == who for s, _ in m.species)
    )
    species = "" if who in DATA.monsters else who
    return Piece(uid=99, monster=monster, pos=(0, 0, 0, 0), hp=5, species=species)


@pytest.mark.parametrize(("who", "obstacle", "cell"), list(matrix_cases()))
def test_matrix_cell(who, obstacle, cell):
    state = arena()
    piece = _piece_for(who)
    assert obstacle_effect(state, piece, obstacle, 1) == cell.effect
    if cell.max_width is not None:
        assert obstacle_effect(state, piece, obstacle, cell.max_width + 1) == "blocked"
    if obstacle in DATA.traps:
        tile = state.tile_of(state.heroes[0].pos)
        c, r = next((c, r) for c, r in tile.floor_cells())
        tile.traps.append([obstacle, c, r])
        state.refresh()
        pos = (tile.slot[0], tile.slot[1], c, r)
        piece.pos = (tile.slot[0], tile.slot[1], c, r)
        state.pieces.append(piece)
        moved_on = enter(state, piece, pos, pos, None)
        if cell.effect == "dies":
            assert not piece.alive and not moved_on
        elif cell.effect == "held":
            assert piece.held >= 1 and not moved_on
        elif cell.effect == "loses-health":
            assert piece.hp == 5 - cell.health
        elif cell.effect == "pass":
            assert piece.alive and moved_on


# ----- counts by player count ----------------------------------------------------------------


def count_cases():
    for m in sorted(DATA.monsters.values(), key=lambda m: m.id):
        for span, n in m.by_players:
            yield pytest.param(m.id, span, n, id=f"{m.id}.by_players.{span}")


@pytest.mark.parametrize(("monster_id", "span", "count"), list(count_cases()))
def test_monster_count_by_players(monster_id, span, count):
    monster = DATA.monsters[monster_id]
    for players in range(span.low, (span.high or 8) + 1):
        expected = count if players >= monster.min_players else 0
        assert monster.count_for(players) == expected
        assert monster_pool(DATA, players).get(monster_id, 0) == min(expected, monster.kit)


# ----- coverage against the model -------------------------------------------------------------


def _raw_items() -> set[str]:
    """Every number-bearing item of the plain model, walked independently of the engine."""
    out: set[str] = set()
    for e in PLAIN["entities"]:
        eid, kind = e["id"], e["kind"]
        if kind == "check":
            out |= {f"{eid}.requires.{i}" for i in range(len(e.get("requires", [])))}
            out |= {f"{eid}.modifiers.{i}" for i in range(len(e.get("modifiers", [])))}
            out |= {f"{eid}.results.{i}" for i in range(len(e.get("results", [])))}
            if e.get("roll", {}).get("success"):
                out.add(f"{eid}.roll")
        elif kind == "table":
            out |= {f"{eid}.rows.{i}" for i in range(len(e["rows"]))}
            for i, m in enumerate(e.get("modifiers", [])):
                out |= {f"{eid}.modifiers.{i}.steps.{j}" for j in range(len(m.get("steps", [])))}
        elif kind == "matrix":
            for i, row in enumerate(e["rows"]):
                out |= {f"{eid}.rows.{i}.cells.{k}" for k in row["cells"]}
        elif kind == "monster":
            out |= {f"{eid}.by_players.{k}" for k in e.get("by_players", {})}
            out |= {f"{eid}.health_by_players.{k}" for k in e.get("health_by_players", {})}
            stats = e.get("stats", {})
            out |= {f"{eid}.stats.{k}" for k in ("speed", "health") if stats.get(k)}
            out |= {f"{eid}.stats.{k}" for k, v in stats.get("damage", {}).items() if v}
        elif kind == "rule":
            out |= {f"{eid}.{k}" for k in RULE_KEYS if isinstance(e.get(k), int)}
            if "scale" in e:
                out |= {f"{eid}.scale.{k}" for k in ("min", "max", "friendly")}
        elif kind == "trap":
            out |= {f"{eid}.{k}" for k in ("speed", "health", "poison_per_stop") if e.get(k)}
            out |= {f"{eid}.jump.{i}" for i in range(len(e.get("jump", [])))}
        elif kind == "card":
            out |= {f"{eid}.requires.{i}" for i in range(len(e.get("requires", [])))}
    return out


def test_cases_cover_every_threshold_table_and_matrix_cell():
    covered = set()
    for cases in (threshold_cases(), modifier_cases(), card_threshold_cases(), roll_cases(),
                  band_cases(), row_cases(), step_cases(), matrix_cases(), count_cases(),
                  trap_cases(), monster_stat_cases(), rule_number_cases()):
        covered |= {case.id for case in cases}
    missing = sorted(_raw_items() - covered)
    assert missing == [], f"content numbers no test exercises: {missing[:20]}"
    assert len(covered) > 100


# ----- open traps and monster stats -----------------------------------------------------------


def trap_cases():
    for trap in sorted(DATA.traps.values(), key=lambda t: t.id):
        for name in ("speed", "health", "poison_per_stop"):
            if getattr(trap, name):
                yield pytest.param(trap.id, name, id=f"{trap.id}.{name}")
        for i, _ in enumerate(trap.jump):
            yield pytest.param(trap.id, f"jump.{i}", id=f"{trap.id}.jump.{i}")


def _line_state(trap_id: str):
    """A hero at the west end of a straight corridor with the trap two cells east."""
    state = arena()
    hero = non_keeper(state)
    tile = state.tile_of(hero.pos)
    row = next(r for r in range(tile.rows) if all(tile.floor(c, r) for c in range(tile.cols)))
    tile.traps[:] = [[trap_id, 2, row]]
    tile.features[:] = []
    hero.pos = (tile.slot[0], tile.slot[1], 0, row)
    for other in state.heroes:
        if other is not hero:
            other.pos = hero.pos
    state.refresh()
    return state, hero, tile, row


@pytest.mark.parametrize(("trap_id", "field"), list(trap_cases()))
def test_open_trap_number(trap_id, field):
    from engine.games.catacombs.reach import reachable
    from engine.games.catacombs.traps import run_into, trap_actions

    trap = DATA.traps[trap_id]
    state, hero, tile, row = _line_state(trap_id)
    if field == "speed":
        set_stat(state, hero, "speed", 5)
        state.refresh()
        assert reachable(state, hero)[(*tile.slot, 2, row)][0] == 2 - trap.speed
    elif field == "health":
        hero.hp = hero.max_hp = 20
        hero.pos = (*tile.slot, 2, row)
        run_into(state, hero, "test")
        assert hero.hp == 20 + trap.health
    elif field == "poison_per_stop":
        hero.hp = hero.max_hp = 20
        hero.antidotes = 0
        for t in DATA.checks[trap.checks[0]].requires:
            set_stat(state, hero, t.stat, t.min - 1)
        hero.pos = (*tile.slot, 2, row)
        from engine.games.catacombs.traps import stop_on_trap

        stop_on_trap(state, hero)
        assert hero.hp == 20 - trap.poison_per_stop
    else:
        distance, cells = trap.jump[int(field.split(".")[1])]
        hero.pos = (*tile.slot, 1 - distance, row)
        for speed, offered in ((cells - 1, False), (cells, True)):
            set_stat(state, hero, "speed", speed)
            state.refresh()
            assert bool(trap_actions(state, hero)) == offered


def monster_stat_cases():
    for m in sorted(DATA.monsters.values(), key=lambda m: m.id):
        for name in ("speed", "health", "melee", "ranged", "poison", "acid"):
            if getattr(m.stats, name):
                yield pytest.param(m.id, name, id=f"{m.id}.stats.{name}")
        for span, _ in m.health_by_players:
            yield pytest.param(m.id, f"health_by_players.{span}",
                               id=f"{m.id}.health_by_players.{span}")


@pytest.mark.parametrize(("monster_id", "field"), list(monster_stat_cases()))
def test_monster_stat(monster_id, field):
    from engine.core.api import Action
    from engine.games.catacombs.combat import do_attack
    from engine.games.catacombs.data import Span
    from engine.games.catacombs.monster_phase import monster_act
    from engine.games.catacombs.monsters import acid, attack

    monster = DATA.monsters[monster_id]
    state, hero, tile, row = _line_state("web")
    tile.traps[:] = []
    state.refresh()
    hero.hp = hero.max_hp = 50
    hero.antidotes = 0
    hero.character = next(c for c in DATA.characters if c not in monster.never_attacks
                          and not DATA.characters[c].ability("immune-to-monster"))
    far = (*tile.slot, tile.cols - 1, row)
    if field == "speed":
        piece = spawn(state, monster_id, far, awake=True)
        monster_act(state, MonsterAct(uid=piece.uid), None)
        assert tile.cols - 1 - piece.pos[2] == min(monster.stats.speed, tile.cols - 2)
    elif field.startswith("health_by_players"):
        span = Span.parse(field.split(".", 1)[1])
        expected = dict((str(s), v) for s, v in monster.health_by_players)[str(span)]
        assert monster.health_for(span.low) == expected
    elif field == "health":
        piece = spawn(state, monster_id, (*tile.slot, 1, row), awake=True)
        piece.shield = False
        set_stat(state, hero, "strength", monster.stats.health - 1)
        do_attack(state, hero, Action.of("attack", target=piece.uid, ranged=False))
        if state._front:
            return  # venomous creatures fall to a roll, exercised by their checks
        assert piece.alive and piece.hp == 1
        do_attack(state, hero, Action.of("attack", target=piece.uid, ranged=False))
        assert not piece.alive
    elif field == "acid":
        spawn(state, monster_id, hero.pos, awake=True)
        acid(state, Acid(), None)
        assert hero.hp == 50 - monster.stats.acid
    else:
        piece = spawn(state, monster_id, far if field == "ranged" else hero.pos, awake=True)
        attack(state, piece, monster)
        dealt = monster.stats.ranged if field == "ranged" else (
            monster.stats.melee + monster.stats.poison)
        assert hero.hp == 50 - dealt


# ----- rule numbers ---------------------------------------------------------------------------

RULE_KEYS = ("actions", "common_per_character", "magic_per_character", "same_accessories_worn",
             "treasures_per_banknote", "banknotes_per_turn", "relationship_change")


def rule_number_cases():
    for rid in sorted(RULE_ENTITIES):
        raw = RULE_ENTITIES[rid]
        for key in RULE_KEYS:
            if isinstance(raw.get(key), int):
                yield pytest.param(rid, key, id=f"{rid}.{key}")
        if "scale" in raw:
            for key in ("min", "max", "friendly"):
                yield pytest.param(rid, f"scale.{key}", id=f"{rid}.scale.{key}")


def test_rule_entities_are_typed_from_the_content():
    """Every value a rule entity gives reaches the engine as a typed field; absent ones are
    None (or empty), so a lookup can tell "not given" from zero."""
    from dataclasses import fields

    from engine.games.catacombs.data import RuleEntry, Scale

    for rid, raw in RULE_ENTITIES.items():
        entry = DATA.rules[rid]
        assert entry.phase == raw.get("phase", "turn")
        for f in fields(RuleEntry):
            if f.name in ("id", "phase", "scale"):
                continue
            value = getattr(entry, f.name)
            if f.name not in raw:
                assert value in (None, ()), (rid, f.name)
            else:
                assert value == (tuple(raw[f.name]) if isinstance(value, tuple) else raw[f.name])
        if "scale" in raw:
            assert entry.scale == Scale(**raw["scale"])
        else:
            assert entry.scale is None
    assert DATA.scale == next(DATA.rules[r].scale for r in sorted(DATA.rules)
                              if DATA.rules[r].scale is not None)


@pytest.mark.parametrize(("rule_id", "key"), list(rule_number_cases()))
def test_rule_number(rule_id, key):
    """Each number of a rule entity changes what the engine does."""
    from engine.games.catacombs import relationships as rel
    from engine.games.catacombs.relationships import friendly_level
    from engine.games.catacombs.turn import actions_per_turn, first_turn_actions

    raw = RULE_ENTITIES[rule_id]
    state = arena(players=2)
    a, b = state.heroes
    if key.startswith("scale."):
        scale = raw["scale"]
        if key == "scale.friendly":
            assert friendly_level(state) == scale["friendly"]
        else:
            state.set_relation(0, 1, 99 if key == "scale.max" else -99)
            assert state.relation(0, 1) == scale[key.split(".")[1]]
        return
    value = raw[key]
    if key == "actions":
        phase = DATA.rules[rule_id].phase
        if phase == "first-turn":
            assert first_turn_actions(state) == value
        elif "allowed_actions" in raw and phase == "turn":
            assert actions_per_turn(state) == value
        else:
            from engine.games.catacombs.crevices import bridge_cost
            from engine.games.catacombs.exploration import far_seeing_cost

            assert value in (bridge_cost(state), far_seeing_cost(state))
            tokens = set(raw.get("tokens", ()))
            assert (bridge_cost(state) == value) if tokens else (far_seeing_cost(state) == value)
    elif key in ("common_per_character", "magic_per_character"):
        counter = CatacombsGame.from_model(DATA).new_initial_state(2, 3, {})
        while counter.is_chance_node:
            counter.apply(counter.sample_chance())
        rarity = "common" if key.startswith("common") else "magic"
        laid = sum(n for c, n in counter.pools["counter"].items()
                   if c in DATA.items and DATA.items[c].rarity == rarity)
        assert laid == value * 2
    elif key == "same_accessories_worn":
        acc = next(i for i in DATA.items.values() if i.slot == "accessory" and i.stats)
        stat, bonus = next(iter(acc.stats.items()))
        a.items = []
        base = state.stat(a, stat)
        a.items = [acc.id] * (value + 1)
        assert state.stat(a, stat) == base + bonus * value
    elif key == "treasures_per_banknote":
        a.banknotes = b.banknotes = 1
        state.set_relation(0, 1, 0)
        rel.lend(state, a, b)
        assert a.debt == value
    elif key == "banknotes_per_turn":
        a.banknotes = b.banknotes = 1
        state.set_relation(0, 1, -1)
        rel.lend(state, a, b)
        debt = a.debt
        rel.interest(state, a)
        assert a.debt - debt == value * rel.loan_terms(state)[0]
    elif key == "relationship_change":
        _, forgive, slide, _ = rel.loan_terms(state)
        if rule_id == "loan":
            assert forgive == value
        elif rule_id == "usury":
            assert slide == value
        else:
            assert rel._step(state) == value
