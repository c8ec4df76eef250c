"""The costliest modules first, so a parallel run does not end on one worker still busy with a long
test or xdist group that started last while the others sit idle.

A module's cost is the costliest of its tests' cost marks (tests/conftest.py adds them, before this
hook runs). Modules are stably sorted by it, each module's tests kept together and in their own order
(a module-scoped fixture is then built once per worker that runs the module, as before) and node ids
untouched (the `@group` suffix --dist loadgroup groups by). xdist's scheduler would sort its work
units by their number of tests instead, undoing this order, so that reordering is turned off.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

# Most costly first: the benchmark scripts each drive agent CLIs for up to a minute or two; a venv
# group builds environments and installs packages; then single agent-CLI runs; then the browser.
RANKED_COSTS = ("bench", "venv", "agent_cli", "browser")


def cost_of(item: pytest.Item) -> int:
    """How costly a test is: the number of cheaper cost marks below its costliest, 0 for none."""
    for place, mark in enumerate(RANKED_COSTS):
        if item.get_closest_marker(mark) is not None:
            return len(RANKED_COSTS) - place
    return 0


def module_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def costliest_first(items: Sequence[pytest.Item]) -> list[pytest.Item]:
    """`items` with the modules of the costliest tests first; each module's tests together, in their
    order, and modules of the same cost in their collection order."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(module_of(item), []).append(item)
    ranked = sorted(modules.values(), key=lambda tests: -max(cost_of(test) for test in tests))
    return [item for tests in ranked for item in tests]


def pytest_configure(config: pytest.Config) -> None:
    # The collection order below reaches the workers only if the scheduler keeps it (pytest-xdist's
    # --no-loadscope-reorder); without xdist the option is unknown and nothing reorders anyway.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = costliest_first(items)
