"""The small fixture pack exported once per test session for each profile; tests read the files
back. Exports go through the command line (`relic export tts`, `relic build --shop`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.model import Model
from pipeline.stages import load_model

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures"
MINI = FIXTURES / "mini"


@pytest.fixture(scope="session")
def mini() -> Model:
    return load_model(MINI)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("export-cache")


def run(*argv: str) -> None:
    assert main([*argv, "--quiet", "--jobs", "1"]) == 0


@pytest.fixture(scope="session")
def tts_out(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("tts") / "out"
    run("export", "tts", "--pack", "mini", "--content", str(FIXTURES), "--out", str(out),
        "--cache", str(cache_dir))
    return out


def shop(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path, vendor: str) -> Path:
    out = tmp_path_factory.mktemp(vendor) / "out"
    run("build", "--pack", "mini", "--content", str(FIXTURES), "--shop", vendor, "--out",
        str(out), "--cache", str(cache_dir))
    return out
