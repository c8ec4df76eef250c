"""Suite-wide setup: the fake API and temporary folder fixtures, and a home and git config never the
developer's own (tests/support/hermetic.py)."""

from __future__ import annotations

pytest_plugins = [
    "tests.support.hermetic",
    "tests.fakeapi.plugin",
    "tests.support.temp_dirs",
    "tests.support.routing_fixtures",
]
