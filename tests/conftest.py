"""Suite-wide setup: the fake API and temporary folder fixtures, a home and git config never the
developer's own (tests/support/hermetic.py), and the `cli` mark of the slow lane."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = [
    "tests.support.hermetic",
    "tests.fakeapi.plugin",
    "tests.support.temp_dirs",
    "tests.support.routing_fixtures",
    "tests.support.browser",
]

# No property test fails for being slow (a deadline, or the health check on slow generation): speed
# depends on what else shares the cores, a parallel run's other workers among them.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# A test that takes one of these, however indirectly, starts a real agent CLI.
CLI_FIXTURES = frozenset({"claude_bin", "copilot_cache"})


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Marked here rather than test by test, so a new test on a CLI fixture cannot miss the mark. Tests
    # that start a CLI, build a venv or run the benchmarks without these fixtures say so themselves.
    for item in items:
        if CLI_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.cli)
