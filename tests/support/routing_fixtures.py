"""The routing room most command tests share: skills alpha and beta, and an environment that points the
real claude CLI at the scripted API. Registered for the suite in tests/conftest.py; a module that needs
another repo or environment declares its own `repo` or `env`, which pytest prefers."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

import pytest

from harness import agent
from harness.agent.probes import PROBES
from harness.memo import user_cache
from tests.fakeapi.cli import find_claude
from tests.fakeapi.runtimes import find_runtime
from tests.support.routing import routing_env, skills_repo


@pytest.fixture
def repo(tmp_path):
    return skills_repo(tmp_path / "repo", "alpha", "beta")


# Copilot CLI's first start unpacks its package (the copilot_cache fixture): its tests probe it themselves.
PREFILLED = ("claude", "codex", "gemini", "opencode")


@pytest.fixture(scope="session")
def agent_probes(tmp_path_factory) -> Path:
    """The agent CLIs' answers to `--version` and `--help`, probed once for the whole test run by the
    harness itself; `routing_env(probes=...)` copies them into each test's home, so a test's CLI starts
    for its runs only. Parallel workers share it: whichever comes first fills it, the others wait. A CLI
    that is missing or fails its probe is left out (a test that needs it fails on its own)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    home = shared / "agent-probes-home"
    with open(shared / "agent-probes.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        filled = shared / "agent-probes.filled"
        if not filled.exists():
            home.mkdir(exist_ok=True)
            environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}
            for runtime in PREFILLED:
                binary = find_claude() if runtime == "claude" else find_runtime(runtime)
                if binary is not None:
                    with contextlib.suppress(agent.AgentUnavailable):
                        agent.connect_runtime(runtime, binary, environ, home)
            filled.touch()
    return user_cache({"HOME": str(home)}) / PROBES


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, agent_probes):
    return routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=agent_probes)
