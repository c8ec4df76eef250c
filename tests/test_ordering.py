"""The costliest modules run first (tests/support/ordering.py), each module's tests kept together and
in their order, node ids untouched."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.conftest import COSTS
from tests.support.ordering import RANKED_COSTS, cost_of, costliest_first


@dataclass
class Stub:
    """What the ordering reads of a test: its node id and its marks."""

    nodeid: str
    marks: tuple[str, ...] = field(default=())

    def get_closest_marker(self, name: str):
        return getattr(pytest.mark, name) if name in self.marks else None


def ids(items) -> list[str]:
    return [item.nodeid for item in items]


def test_the_costliest_modules_come_first_each_whole_and_in_its_order():
    items = [
        Stub("tests/test_a.py::test_one"),
        Stub("tests/test_venv.py::test_build@venvs", ("venv", "cli")),
        Stub("tests/test_b.py::test_cli", ("agent_cli", "cli")),
        Stub("tests/test_venv.py::test_install@venvs"),  # in the module's group, without the mark
        Stub("tests/test_a.py::test_two"),
        Stub("tests/test_benchmarks.py::test_benchmark[x]", ("bench", "cli")),
        Stub("tests/test_b.py::test_plain"),
        Stub("tests/test_benchmarks.py::test_every_benchmark_is_run_here"),
        Stub("tests/test_c.py::test_page", ("browser", "cli")),
    ]
    assert ids(costliest_first(items)) == [
        "tests/test_benchmarks.py::test_benchmark[x]",
        "tests/test_benchmarks.py::test_every_benchmark_is_run_here",
        "tests/test_venv.py::test_build@venvs",
        "tests/test_venv.py::test_install@venvs",
        "tests/test_b.py::test_cli",
        "tests/test_b.py::test_plain",
        "tests/test_c.py::test_page",
        "tests/test_a.py::test_one",
        "tests/test_a.py::test_two",
    ]


def test_modules_of_one_cost_keep_their_collection_order():
    items = [Stub(f"tests/test_{name}.py::test_it") for name in "zyx"]
    assert costliest_first(items) == items


def test_every_cost_mark_is_ranked():
    assert sorted(RANKED_COSTS) == sorted(COSTS)


def test_a_test_costs_its_costliest_mark():
    assert [cost_of(Stub("t.py::t", (mark,))) for mark in RANKED_COSTS] == [4, 3, 2, 1]
    assert cost_of(Stub("t.py::t", ("browser", "bench"))) == 4
    assert cost_of(Stub("t.py::t", ("cli",))) == 0


def test_this_sessions_modules_run_costliest_first(request):
    # This very session's collection went through the hook: no module costs more than one before it.
    costs: dict[str, int] = {}
    for item in request.session.items:
        module = item.nodeid.split("::", 1)[0]
        costs[module] = max(costs.get(module, 0), cost_of(item))
    assert list(costs.values()) == sorted(costs.values(), reverse=True)


def test_xdist_keeps_the_collection_order(pytestconfig):
    # pytest-xdist would sort its work units by their size, undoing the order; the plugin turns that off.
    assert getattr(pytestconfig.option, "loadscopereorder", False) is False
