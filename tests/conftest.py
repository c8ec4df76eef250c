"""Suite-wide setup: the fake API and temporary folder fixtures, and a home never the developer's own."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.fakeapi.plugin", "tests.support.temp_dirs", "tests.support.routing_fixtures"]


@pytest.fixture(autouse=True)
def _no_personal_config(tmp_path_factory, monkeypatch):
    # Nothing under test may read the developer's ~/.claude or CI's step summary by accident.
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name in (
        "GITHUB_STEP_SUMMARY",
        "GITHUB_ACTIONS",
        "SKILLSCOPE_REPO",
        "SKILLSCOPE_SKILLS",
        "SKILLSCOPE_VERSION",
        "CLAUDE_CONFIG_DIR",
        "XDG_CACHE_HOME",  # the parse memo lives in the user cache: the temporary home's, never theirs
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
