"""`relic sim --pack catacombs … --format json` byte for byte against committed outputs.

The files in golden/sim/ were written by the CLI before the engine was moved onto the game
registry; a refactor must not change a byte of them. A change of rules or bots does, on
purpose: regenerate with `RELIC_REGEN_GOLDEN=1 pytest tests/engine/test_sim_golden.py` and
review the diff.
"""

from __future__ import annotations

import pytest
from engine_support import GOLDEN, REGEN, ROOT

from pipeline.cli import main

RUNS = [
    *[(seed, players, ()) for seed in (7, 42, 2026) for players in (2, 4, 6)],
    *[(seed, 4, ("--bot", "random", "--teams", "--monster-players")) for seed in (7, 42)],
]


def golden_name(seed: int, players: int, extra: tuple[str, ...]) -> str:
    suffix = "-random-teams-monsters" if extra else ""
    return f"catacombs-s{seed}-p{players}{suffix}.json"


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players", "extra"), RUNS,
                         ids=[golden_name(*run)[:-5] for run in RUNS])
def test_sim_json_is_byte_identical(capsys, seed, players, extra):
    argv = ["sim", "--pack", "catacombs", "--content", str(ROOT / "content"),
            "--players", str(players), "--games", "12", "--seed", str(seed), *extra,
            "--format", "json"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    path = GOLDEN / "sim" / golden_name(seed, players, extra)
    if REGEN:
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8")
