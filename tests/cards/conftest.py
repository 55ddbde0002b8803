"""One small fixture pack built once per test session; tests read the files it produced."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cards import BuildOptions, build
from pipeline.model import Model
from pipeline.stages import load_model

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini"


@pytest.fixture(scope="session")
def mini_model() -> Model:
    return load_model(FIXTURE)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory, mini_model: Model) -> Path:
    """build/mini with ru/ and en/ folders (duplex and simplex sheets, shop PDFs, PNGs)."""
    root = tmp_path_factory.mktemp("built")
    build(mini_model, BuildOptions(out_root=root / "out", cache_dir=root / "cache", workers=2,
                                   png=True))
    return root / "out"


def copy_pack(tmp_path: Path) -> Path:
    """A writable copy of the fixture pack, for tests that edit content."""
    target = tmp_path / "content" / "mini"
    shutil.copytree(FIXTURE, target)
    return target
