"""Every rules module of the catacombs, imported in one place: importing this module registers
all their actions, handlers, tasks, options and arrival stages with `registry.py`, where the
state machine finds them. (The legal-action order is `registry.ACTION_ORDER`, not this order.)"""

from engine.games.catacombs import (  # noqa: F401
    cards,
    combat,
    controlled,
    crevices,
    doors,
    ending,
    exploration,
    inventory,
    labyrinths,
    mercenaries,
    monster_phase,
    monsters,
    movement,
    relationships,
    sarcophagi,
    search,
    setup,
    shelters,
    statues,
    traps,
    turn,
)
