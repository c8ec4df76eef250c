"""pytest fixtures for tests that drive the real `claude` CLI against the fake API.

Load with `pytest_plugins = ["tests.fakeapi.plugin"]` in the top-level conftest.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from harness import agent
from harness.agent.probes import PROBES
from harness.memo import user_cache
from tests.support.kept_probes import sharing_probes
from tests.support.temp_dirs import built_once

from . import cli as fakecli
from .cli import CLAUDE_ENV, CliRun, find_claude, hermetic_env
from .runtimes import find_runtime
from .server import FakeAPI


@pytest.fixture(scope="session")
def claude_bin() -> str:
    """Path of the real CLI; a missing CLI fails the test (the suite never skips it)."""
    path = find_claude()
    if path is None:
        pytest.fail(
            f"the claude CLI is needed for these tests: set {CLAUDE_ENV}=/path/to/claude "
            "or put `claude` on PATH",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def copilot_cache(tmp_path_factory) -> str:
    """One COPILOT_CACHE_HOME for the run, filled here: Copilot CLI unpacks its package (about 235 MB)
    there on its first start, which on a busy machine can outlast a test's version probe or run limit. So
    that first start happens now, with no limit but the test's own, and no test pays for it. The workers
    of a parallel run (pytest-xdist) share it: whichever comes first fills it, the others wait."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's own folder
    cache = shared / "copilot-cache"
    with open(shared / "copilot-cache.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        cache.mkdir(exist_ok=True)
        filled = cache / ".filled-by-the-suite"
        binary = find_runtime("copilot")
        if binary is not None and not filled.exists():  # a test that needs Copilot fails on its own
            home = tmp_path_factory.mktemp("copilot-unpack-home")
            environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}
            environ["COPILOT_CACHE_HOME"] = str(cache)
            subprocess.run([binary, "--version"], env=environ, capture_output=True, check=False)
            filled.touch()
    return str(cache)


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    """A started FakeAPI with an empty script (every turn answers "done.")."""
    with FakeAPI() as api:
        yield api


# Copilot CLI's first start unpacks its package (the copilot_cache fixture): its tests probe it themselves.
PREFILLED = ("claude", "codex", "gemini", "opencode")


@pytest.fixture(scope="session")
def kept_probes(tmp_path_factory) -> Path:
    """The session's folder of agent CLI probe answers (tests/support/kept_probes.py), made once a run
    for every worker; runs add the answers they probe later."""
    return Path(built_once(tmp_path_factory, "kept-probes", probed_home))


def probed_home(home: Path) -> str:
    """The probe cache of `home` once the harness has probed each installed CLI there. A CLI that is
    missing or fails its probe is left out (a test that needs it fails on its own)."""
    environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}
    for runtime in PREFILLED:
        binary = find_claude() if runtime == "claude" else find_runtime(runtime)
        if binary is not None:
            with contextlib.suppress(agent.AgentUnavailable):
                agent.connect_runtime(runtime, binary, environ, home)
    folder = user_cache(environ) / PROBES
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder)


@pytest.fixture
def fake_env(fake_api: FakeAPI, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """Hermetic environment for code that spawns the CLI itself (no CLAUDE_CONFIG_DIR:
    the harness makes a fresh one per run because ANTHROPIC_API_KEY is set); the CLIs' probe answers
    kept for the session."""
    env = hermetic_env(fake_api.base_url, tmp_path / "env", config_dir=False)
    if request.node.get_closest_marker("agent_cli") is None:
        # A test that starts no real CLI (a stub `claude`) has no answer to share, and asking for the
        # session's would start every installed CLI to probe it, in the fast lane too.
        yield env
        return
    with sharing_probes(request.getfixturevalue("kept_probes"), env):
        yield env


@pytest.fixture
def run_claude(claude_bin: str, fake_api: FakeAPI) -> Callable[..., CliRun]:
    """`run_claude(prompt, cwd=None, extra_args=(), env=None) -> CliRun` against `fake_api`."""

    def run(
        prompt: str,
        cwd: Path | None = None,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        *,
        timeout: float = 120,
    ) -> CliRun:
        return fakecli.run_claude(
            claude_bin, fake_api.base_url, prompt, cwd, extra_args, env, timeout=timeout
        )

    return run
