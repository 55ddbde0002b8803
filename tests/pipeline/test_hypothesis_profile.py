"""Property tests are reproducible: the profile tests/conftest.py loads is derandomized."""

from __future__ import annotations

import os

from hypothesis import settings

from tests.pipeline.test_loader import SETTINGS


def test_the_default_profile_is_derandomized_without_a_database() -> None:
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci" or os.environ.get("CI"):
        assert settings.default.derandomize is True
        assert settings.default.database is None
        assert SETTINGS.derandomize is True  # settings made in a test module inherit it
