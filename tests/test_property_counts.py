"""The property tests' example counts: without an option every property runs the count written in
its `@settings` (CI's full suite); `--hypothesis-profile fast` scales them all (tests/support/examples.py)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from hypothesis import settings

from tests.fuzz import strategies
from tests.support.examples import FLOOR, examples

TESTS = Path(__file__).resolve().parent
# Where the profiles' own counts are declared and explained, not overruled.
PROFILES = {Path("conftest.py"), Path("support/examples.py"), Path("test_property_counts.py")}


def written_counts() -> list[tuple[str, str, int]]:
    """(module, test, count) for each test decorated with `@settings(max_examples=examples(N))`."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        source = path.read_bytes()
        if b"max_examples=" not in source:
            continue
        module = ".".join(path.relative_to(TESTS.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                for keyword in getattr(decorator, "keywords", ()):
                    if keyword.arg == "max_examples":
                        assert isinstance(keyword.value, ast.Call) and isinstance(
                            keyword.value.args[0], ast.Constant
                        )
                        found.append((module, node.name, keyword.value.args[0].value))
    return found


COUNTS = written_counts()


def test_every_written_count_goes_through_the_profile():
    # A bare `max_examples=N` would overrule the fast profile; a count named otherwise would escape the
    # check below.
    bare = [
        f"{path.relative_to(TESTS)}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if re.search(r"max_examples=(?!examples\()", line) and path.relative_to(TESTS) not in PROFILES
    ]
    assert bare == []
    assert len(COUNTS) > 50


@pytest.mark.parametrize(("module", "test", "written"), COUNTS)
def test_a_property_runs_its_written_count_under_the_suite_profile(module, test, written):
    effective = getattr(importlib.import_module(module), test)._hypothesis_internal_use_settings.max_examples
    assert effective == examples(written)
    assert examples(written, settings.get_profile("suite")) == written
    fast = examples(written, settings.get_profile("fast"))
    assert min(written, FLOOR) <= fast <= written


def test_the_suite_profile_is_loaded_unless_the_developer_asks_for_another(request):
    asked = request.config.getoption("hypothesis_profile")
    assert settings.get_current_profile_name() == (asked or "suite")
    if asked is None:
        # the collected properties run their written counts, the fuzz targets included
        block_plan = importlib.import_module("tests.markdown.test_block_plan")
        assert (
            block_plan.test_line_patterns_match_where_multiline_anchors_would._hypothesis_internal_use_settings.max_examples
            == 3000
        )
        assert strategies.FUZZ.max_examples == strategies.EXAMPLES


def test_the_fast_profile_scales_a_tenth_with_a_floor():
    fast = settings.get_profile("fast")
    assert [examples(n, fast) for n in (3000, 300, 60, 12, 5)] == [300, 30, 10, 10, 5]
    assert (fast.deadline, fast.suppress_health_check) == (
        settings.get_profile("suite").deadline,
        settings.get_profile("suite").suppress_health_check,
    )
