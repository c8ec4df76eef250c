"""The routing room most command tests share: skills alpha and beta, and an environment that points the
real claude CLI at the scripted API. Registered for the suite in tests/conftest.py; a module that needs
another repo or environment declares its own `repo` or `env`, which pytest prefers."""

from __future__ import annotations

import pytest

from tests.support.kept_probes import sharing_probes
from tests.support.routing import routing_env, skills_repo


@pytest.fixture
def repo(tmp_path):
    return skills_repo(tmp_path / "repo", "alpha", "beta")


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, kept_probes):
    """The routing environment, its HOME given the CLIs' probe answers kept for the session."""
    environ = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    with sharing_probes(kept_probes, environ):
        yield environ
