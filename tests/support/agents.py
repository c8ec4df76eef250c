"""Any of the five agent CLIs connected to a fake model API, as the agent-layer tests drive them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.agent import Agent, connect_runtime
from tests.fakeapi.runtimes import endpoint_env, find_runtime
from tests.support.hermetic import git_isolation


def connect_fake(
    runtime: str, base_url: str, claude_bin: str, scratch: Path, copilot_cache: str | None = None
) -> Agent:
    """`runtime`'s CLI pointed at the fake API at `base_url`, its home and runs under `scratch`; a CLI
    that is not installed fails the test (the suite never skips it)."""
    home = scratch / "home"
    home.mkdir(parents=True)
    environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), **git_isolation()}
    if runtime == "claude":
        binary = claude_bin
        environ.update(ANTHROPIC_BASE_URL=base_url, ANTHROPIC_API_KEY="test-key")
    else:
        binary = find_runtime(runtime)
        if binary is None:
            pytest.fail(f"the {runtime} CLI is needed for this test", pytrace=False)
        environ.update(endpoint_env(runtime, base_url))
        if copilot_cache:
            environ["COPILOT_CACHE_HOME"] = copilot_cache
    runs = scratch / "runs"
    runs.mkdir()
    return connect_runtime(runtime, binary, environ, runs)
