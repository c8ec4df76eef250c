"""Suite-wide setup: the fake API and temporary folder fixtures, a home and git config never the
developer's own (tests/support/hermetic.py), and the marks of the slow lane: `cli`, the union of its
costs `agent_cli`, `venv`, `browser` and `bench`, which also put the costliest modules first
(tests/support/ordering.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The plugins below import one another and other support modules (fakeapi.plugin imports temp_dirs):
# marked before any is imported, each is rewritten whichever import comes first, not only the plugins.
pytest.register_assert_rewrite("tests.support", "tests.fakeapi")

pytest_plugins = [
    "tests.support.hermetic",
    "tests.fakeapi.plugin",
    "tests.support.temp_dirs",
    "tests.support.routing_fixtures",
    "tests.support.scripted",
    "tests.support.browser",
    "tests.support.grouping",
    "tests.support.ordering",
]

# No property test fails for being slow (a deadline, or the health check on slow generation): speed
# depends on what else shares the cores, a parallel run's other workers among them.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
# The developer's fast lane (`--hypothesis-profile fast`, CONTRIBUTING.md): a tenth of the examples,
# written counts included (tests/support/examples.py). CI loads no profile: the suite's, every count.
settings.register_profile("fast", parent=settings.get_profile("suite"), max_examples=10)

# The slow lane's costs, one mark each; `cli` is their union, so `-m "not cli"` stays the fast lane.
COSTS = {
    "agent_cli": "starts a real agent CLI (claude, copilot, codex, gemini or opencode) against tests/fakeapi",
    "venv": "builds a venv or installs packages (the launcher, nox, packaging and pre-commit tests)",
    "browser": "drives headless Chromium through Playwright (the report pages)",
    "bench": "runs the benchmark scripts in benchmarks/",
}
# A test that takes one of these fixtures, however indirectly, pays that cost.
FIXTURE_COSTS = {"claude_bin": "agent_cli", "copilot_cache": "agent_cli", "browser": "browser"}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    # Every test module sits in a package (tests/test_collection.py holds them to it); the folders
    # that are not hold data (scenario repos, corpora: 1,800 folders), which pytest would walk
    # entry by entry, in every worker, looking for tests and conftest files.
    if collection_path.is_dir() and not (collection_path / "__init__.py").exists():
        return True
    return None


def pytest_configure(config: pytest.Config) -> None:
    for mark, what in COSTS.items():
        config.addinivalue_line("markers", f"{mark}: {what}; part of `cli` (CONTRIBUTING.md)")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Marked here rather than test by test, so a new test on a CLI or browser fixture cannot miss its
    # mark. Tests that pay a cost without these fixtures (a venv, the benchmarks, a CLI found by path)
    # carry its mark themselves; every cost mark adds `cli`.
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        for fixture, mark in FIXTURE_COSTS.items():
            if fixture in fixtures:
                item.add_marker(mark)
        if any(item.get_closest_marker(mark) for mark in COSTS):
            item.add_marker(pytest.mark.cli)
