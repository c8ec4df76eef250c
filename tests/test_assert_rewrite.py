"""The suite's support modules get pytest's assertion rewriting, whichever imports them first: a
plugin imported by another plugin before its own turn was left plain, and pytest warned about it
(PytestAssertRewriteWarning, once per process) while its asserts failed with a bare message."""

from __future__ import annotations

import sys

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook

from tests.conftest import pytest_plugins


def test_every_plugin_and_support_module_the_suite_loaded_is_rewritten(pytestconfig: pytest.Config) -> None:
    if pytestconfig.getoption("assertmode") != "rewrite":
        pytest.skip("run with --assert=plain: nothing is rewritten")
    loaded = [
        name
        for name, module in sorted(sys.modules.items())
        if name.startswith(("tests.support.", "tests.fakeapi.")) and getattr(module, "__file__", None)
    ]
    assert set(pytest_plugins) <= set(loaded)
    plain = [name for name in loaded if not isinstance(sys.modules[name].__loader__, AssertionRewritingHook)]
    assert plain == []
