"""Consistency checks for `relic check`, each pointing at the content value it concerns:
event tables cover every total, targets are reachable, tracks climb, counts suffice for every
player count, the fight example plays on its explorer's card, and a seeded game per player
count ends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.core.api import EngineError
from engine.core.game import TURN_BOUND, Finding
from engine.games.haunted_house.data import FLOORS, TRAITS, House

if TYPE_CHECKING:
    from engine.games.haunted_house.game import HauntedHouseGame

SMOKE_SEED = 4


def run_all(game: HauntedHouseGame) -> list[Finding]:
    house = game.data
    found = [*event_coverage(house), *targets(house), *tracks(house), *counts(game),
             *scenario_needs(house), *fight_example(house)]
    if not any(f.severity == "error" for f in found):
        found += smoke(game)
    return found


def most_dice(house: House, trait: str) -> int:
    """The most dice a roll of the trait can use: the top of the tracks plus item bonuses."""
    top = max(max(e.tracks[trait].values) for e in house.explorers.values())
    bonus = max([i.bonus[1] for i in house.items.values() if i.bonus and i.bonus[0] == trait],
                default=0)
    return min(top + bonus, house.rules.dice_in_box)


def best_total(house: House, dice: int) -> int:
    return dice * max(house.rules.faces)


def event_coverage(house: House) -> Iterator[Finding]:
    """Every total an event's roll can show falls in exactly one band."""
    top = best_total(house, house.rules.dice_in_box)
    for event in house.events.values():
        if event.trait is None:
            continue
        for total in range(min(house.rules.faces), top + 1):
            hits = [i for i, b in enumerate(event.bands) if b.holds(total)]
            if len(hits) != 1:
                what = "no band" if not hits else f"bands {', '.join(map(str, hits))}"
                yield Finding("table-coverage", f"event '{event.id}': a total of {total} "
                              f"falls in {what}", event.id, "outcomes")
                break


def targets(house: House) -> Iterator[Finding]:
    """Every check and task target can be reached by some explorer's best roll."""
    def reach(trait: str, target: int, entity: str, path: str) -> Iterator[Finding]:
        best = best_total(house, most_dice(house, trait))
        if target > best:
            yield Finding("threshold-unreachable", f"{entity}: {trait} {target}+ needs more "
                          f"than the best roll ({best})", entity, path)

    for room in house.rooms.values():
        if room.effect and room.effect.check:
            yield from reach(room.effect.check.trait, room.effect.check.target, room.id,
                             "effect.check.target")
    for event in house.events.values():
        for i, band in enumerate(event.bands):
            if event.trait and band.low > best_total(house, most_dice(house, event.trait)):
                yield Finding("threshold-unreachable", f"event '{event.id}': band {band.low}+ "
                              "cannot be rolled", event.id, f"outcomes.{i}.roll")
    for sc in house.scenarios.values():
        for name, side in (("heroes", sc.heroes), ("traitor", sc.traitor)):
            t = side.task
            best = max(best_total(house, most_dice(house, tr)) for tr in t.traits)
            if max(t.targets) > best:
                yield Finding("threshold-unreachable", f"task '{t.id}' needs "
                              f"{max(t.targets)}+, the best roll is {best}", sc.id,
                              f"sides.{name}.task.target")
            for i, sp in enumerate(side.specials):
                if sp.check:
                    yield from reach(sp.check.trait, sp.check.target, sc.id,
                                     f"sides.{name}.specials.{i}.check.target")
    r = house.rules
    if r.dread_target > best_total(house, min(r.dread_certain_at - 1, r.dice_in_box)):
        yield Finding("threshold-unreachable", f"the dread roll's {r.dread_target}+ cannot be "
                      "rolled before the scenario begins for certain", "dread-roll", "target")
    for m in house.monsters.values():
        values = [(trait, v, f"traits.{trait}") for trait, v in m.traits.items()]
        values += [(trait, v, f"by_players.{key}.{trait}")
                   for key, changes in (house.raw[m.id].get("by_players") or {}).items()
                   for trait, v in changes.items()]
        for trait, value, path in values:
            if trait not in m.traits:
                yield Finding("monster-trait", f"{m.id}: a player count changes {trait}, which "
                              "it lacks", m.id, path)
            elif value > r.dice_in_box:
                yield Finding("dice-exceed-box", f"{m.id}: {trait} {value} needs more dice "
                              f"than the box holds ({r.dice_in_box})", m.id, path)
        if m.attack_trait not in m.traits:
            yield Finding("monster-trait", f"{m.id} attacks with {m.attack_trait}, which it "
                          "lacks", m.id, "attack_trait")


def tracks(house: House) -> Iterator[Finding]:
    """Tracks climb from the bottom up and fit the dice in the box."""
    for e in house.explorers.values():
        for trait in TRAITS:
            values = e.tracks[trait].values
            if list(values) != sorted(values):
                yield Finding("track-order", f"{e.id}: the {trait} track does not climb",
                              e.id, f"traits.{trait}.track")
            if max(values) > house.rules.dice_in_box:
                yield Finding("dice-exceed-box", f"{e.id}: {trait} {max(values)} needs more "
                              "dice than the box holds", e.id, f"traits.{trait}.track")


def counts(game: HauntedHouseGame) -> Iterator[Finding]:
    """Enough explorers, omens, omen rooms, item tokens and landings for every player count."""
    house = game.data
    if len(house.explorers) < house.max_players:
        yield Finding("count-short", f"{len(house.explorers)} explorers for up to "
                      f"{house.max_players} players", None)
    certain = house.rules.dread_certain_at
    omen_rooms = [r for r in house.rooms.values() if r.symbol == "omen"]
    if len(house.omens) < certain:
        yield Finding("count-short", f"{len(house.omens)} omen cards; the scenario is certain "
                      f"only at {certain}", "dread-roll", "certain_at")
    if len(omen_rooms) < certain:
        yield Finding("count-short", f"{len(omen_rooms)} rooms with the omen symbol; the "
                      f"scenario is certain only at {certain}", "dread-roll", "certain_at")
    for floor in FLOORS:
        starts = [r for r in house.rooms.values() if r.start == floor]
        tiles = [r for r in house.rooms.values() if not r.start and floor in r.floors]
        if len(starts) != 1:
            yield Finding("floor-start", f"the {floor} floor needs one landing, has "
                          f"{len(starts)}", "setup", "rooms")
        if not tiles:
            yield Finding("count-short", f"no room tile may lie on the {floor} floor",
                          "setup", "rooms")
    for sc in house.scenarios.values():
        for i, spec in enumerate(sc.tokens):
            have = house.raw.get(spec.item, {}).get("count", 1)
            if spec.count > have:
                yield Finding("count-short", f"{sc.id} uses {spec.count} {spec.item}, the box "
                              f"has {have}", sc.id, f"tokens.{i}.count")
            if spec.place == "landings" and spec.count > len(house.rules.landings):
                yield Finding("count-short", f"{sc.id} puts {spec.count} tokens on "
                              f"{len(house.rules.landings)} landings", sc.id, f"tokens.{i}.count")


def scenario_needs(house: House) -> Iterator[Finding]:
    """Each scenario is named by an omen, its rooms exist, its tasks' tokens are defined."""
    for sc in house.scenarios.values():
        if not any(o.scenario == sc.id for o in house.omens.values()):
            yield Finding("scenario-unreachable", f"no omen wakes {sc.id}", sc.id, "")
        if sc.monster_place == "room" and sc.monster_room not in house.rules.landings:
            yield Finding("scenario-room", f"{sc.id}: the monster starts in {sc.monster_room}, "
                          "which is not laid at setup", sc.id, "monster_start.room")
        for name, side in (("heroes", sc.heroes), ("traitor", sc.traitor)):
            t = side.task
            if t.where == "feature" and not any(t.feature in r.features
                                                for r in house.rooms.values()):
                yield Finding("scenario-room", f"no room has the feature {t.feature}", sc.id,
                              f"sides.{name}.task.feature")
            for role in (t.token, t.makes):
                if role and sc.token(role) is None:
                    yield Finding("scenario-token", f"{sc.id} defines no token '{role}'", sc.id,
                                  f"sides.{name}.task")


def fight_example(house: House) -> Iterator[Finding]:
    """The fight example's explorer reads the example's numbers off their tracks."""
    ex = house.raw.get("combat-example")
    if not ex or not ex.get("explorer"):
        return
    explorer = house.explorers.get(ex["explorer"])
    if explorer is None:
        return
    if explorer.tracks[ex["trait"]].value(explorer.tracks[ex["trait"]].start) != ex["value"]:
        yield Finding("example-mismatch", f"{explorer.id} does not start with {ex['trait']} "
                      f"{ex['value']}", "combat-example", "value")
    for i, loss in enumerate(ex.get("losses", ())):
        t = explorer.tracks[loss["trait"]]
        after = t.value(max(0, t.start - loss["amount"]))
        if after != loss["after"]:
            yield Finding("example-mismatch", f"{explorer.id}: {loss['trait']} lowered by "
                          f"{loss['amount']} is {after}, the example says {loss['after']}",
                          "combat-example", f"losses.{i}.after")


def smoke(game: HauntedHouseGame) -> list[Finding]:
    """A seeded game with the heuristic bots per player count ends within the turn bound."""
    found = []
    for players in game.player_counts:
        try:
            state = game.new_initial_state(players, SMOKE_SEED)
            bots = [game.make_bot("heuristic", s, SMOKE_SEED) for s in range(players)]
            steps = 0
            while not state.is_terminal and steps < 50_000:
                action = (state.sample_chance() if state.is_chance_node
                          else bots[state.current_player].choose(state))
                state.apply(action)
                steps += 1
        except EngineError as exc:
            found.append(Finding("smoke-error", f"{players} players: the seeded game fails: "
                                 f"{exc}", None))
            continue
        if not state.is_terminal or state.ended_by == TURN_BOUND:
            found.append(Finding("smoke-unfinished", f"{players} players: the seeded game did "
                                 f"not end within {state.max_rounds} rounds", None,
                                 severity="warning"))
    return found
