from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "packs"

# Property tests are reproducible: the "ci" profile derandomizes hypothesis (the examples follow
# from each test's own code, not from a random seed) and keeps no example database, so unchanged
# code never fails at random. It is the default, and always used when CI is set; explore with
# fresh random examples by running `HYPOTHESIS_PROFILE=explore pytest ...` locally.
settings.register_profile(
    "ci", derandomize=True, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", derandomize=False)
settings.load_profile(
    "ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "ci")
)


@pytest.fixture
def project_root() -> Path:
    return ROOT


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
