"""A module that builds something once for its tests (a real run, a venv) marks itself with
`xdist_group`, and `--dist loadgroup` keeps the group on one worker by the `@group` suffix xdist adds
to each node id. A pytest that drops the suffix spreads the group silently and every worker builds it
again, so a worker refuses to run such a collection."""

from __future__ import annotations

import pytest


def group_of(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


@pytest.hookimpl(trylast=True)  # after xdist's own hook has suffixed the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on_worker = hasattr(config, "workerinput")
    if not on_worker or config.getoption("dist", "no") != "loadgroup":
        return
    for item in items:
        group = group_of(item)
        if group and not item.nodeid.endswith(f"@{group}"):
            raise pytest.UsageError(
                f"{item.nodeid} is in xdist group {group!r}, but its node id lacks the '@{group}' suffix, "
                "so --dist loadgroup would spread the group over workers: install requirements-dev.txt's "
                "pinned pytest and pytest-xdist."
            )
