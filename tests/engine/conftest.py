"""Engine test fixtures; the helpers they use live in engine_support.py (a unique module name,
so test files can import them whatever conftest pytest loaded first)."""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import canonical_plain, tiny_plain


@pytest.fixture(scope="session")
def plain() -> dict[str, Any]:
    return canonical_plain()


@pytest.fixture(scope="session")
def data(plain):
    from engine.games.catacombs.data import from_plain

    return from_plain(plain)


@pytest.fixture
def tiny() -> dict[str, Any]:
    return tiny_plain()
