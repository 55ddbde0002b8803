"""The house's geometry: floors of square cells, doorways on tile edges, stairs, the line of fire.

A placed room is `[floor, x, y, doors]` (doors: the edges with a doorway once the tile is turned,
a string such as "nes"). North is +y. Two rooms are connected through a doorway when both facing
edges have one; the stairs connect the rooms the content names.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence

from engine.games.haunted_house.data import DIRS, House
from engine.games.haunted_house.registry import rule

STEP = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}

Placed = Sequence  # [floor, x, y, doors]


def cell(floor: str, x: int, y: int) -> str:
    return f"{floor}:{x}:{y}"


def turned(doorways: Sequence[str], quarter_turns: int) -> str:
    """The doorways after turning the tile clockwise by quarter turns, in n-e-s-w order."""
    shifted = {DIRS[(DIRS.index(d) + quarter_turns) % 4] for d in doorways}
    return "".join(d for d in DIRS if d in shifted)


@rule("house.connect")
def orientations(doorways: Sequence[str], need: str) -> list[str]:
    """The distinct ways to lay a tile so that one of its doorways is on the edge `need`."""
    seen: list[str] = []
    for q in range(4):
        doors = turned(doorways, q)
        if need in doors and doors not in seen:
            seen.append(doors)
    return seen


class Layout:
    """The rooms laid so far and how they connect (rebuilt from the state's `rooms`)."""

    def __init__(self, house: House, rooms: Mapping[str, Placed]):
        self.house = house
        self.rooms = rooms
        self.grid = {cell(p[0], p[1], p[2]): rid for rid, p in rooms.items()}
        self._near: dict[str, list[str]] = {}
        self._edges: dict[str, list[str]] = {}

    def at(self, floor: str, x: int, y: int) -> str | None:
        return self.grid.get(cell(floor, x, y))

    def beyond(self, room: str, d: str) -> tuple[str, int, int]:
        floor, x, y, _ = self.rooms[room]
        dx, dy = STEP[d]
        return floor, x + dx, y + dy

    def through(self, room: str, d: str) -> str | None:
        """The room reached through the doorway on edge `d`, if both sides have a doorway."""
        if d not in self.rooms[room][3]:
            return None
        other = self.at(*self.beyond(room, d))
        if other is None or OPPOSITE[d] not in self.rooms[other][3]:
            return None
        return other

    def stairs(self, room: str) -> list[str]:
        """Rooms reached by the stairs (both ends laid)."""
        links = set(self.house.rooms[room].stairs)
        links |= {r for r in self.rooms if room in self.house.rooms[r].stairs}
        return sorted(r for r in links if r in self.rooms and r != room)

    @rule("house.move")
    def neighbours(self, room: str) -> list[str]:
        """Rooms one step away: through open doorways (n, e, s, w order), then the stairs."""
        found = self._near.get(room)
        if found is None:
            out = [r for d in DIRS if (r := self.through(room, d)) is not None]
            found = self._near[room] = out + [r for r in self.stairs(room) if r not in out]
        return found

    def open_edges(self, room: str) -> list[str]:
        """Doorways of the room that face a cell with no room yet."""
        found = self._edges.get(room)
        if found is None:
            found = self._edges[room] = [d for d in self.rooms[room][3]
                                         if self.at(*self.beyond(room, d)) is None]
        return found

    def distances(self, start: str) -> dict[str, int]:
        """Steps from `start` to every reachable room (breadth first)."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self.neighbours(here):
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return seen

    def first_step(self, start: str, goals: set[str]) -> str | None:
        """The first room on a shortest way from `start` to any of `goals` (None: none)."""
        if start in goals:
            return None
        parent: dict[str, str] = {start: start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self.neighbours(here):
                if nxt in parent:
                    continue
                parent[nxt] = here
                if nxt in goals:
                    while parent[nxt] != start:
                        nxt = parent[nxt]
                    return nxt
                queue.append(nxt)
        return None

    @rule("special-attacks.ranged")
    def line_of_fire(self, room: str) -> list[str]:
        """Rooms on the line of fire from `room`: itself, then straight along each direction for
        as long as every doorway on the way is open."""
        seen = [room]
        for d in DIRS:
            here = room
            while (here := self.through(here, d)) is not None:
                seen.append(here)
        return seen

    def with_feature(self, feature: str) -> list[str]:
        return sorted(r for r in self.rooms if feature in self.house.rooms[r].features)

    def open_doorways(self) -> Iterator[tuple[str, str]]:
        """Every (room, edge) whose doorway faces an empty cell, in a fixed order."""
        for room in sorted(self.rooms):
            for d in self.open_edges(room):
                yield room, d
