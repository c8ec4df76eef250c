"""Fixtures for the agent layer; the fake API fixtures come from tests.fakeapi.plugin."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agent import Isolation, LocatedCLI, isolation_for, locate
from tests.fakeapi import write_skill
from tests.support.agent_runs import SharedAgents, shared_agents


@pytest.fixture(scope="session")
def claude_cli(claude_bin: str) -> LocatedCLI:
    return locate(claude_bin, {"PATH": os.environ.get("PATH", "")})


@pytest.fixture
def temp_root(tmp_path: Path) -> Path:
    """Where runs put their throwaway workspace and config dirs, so tests can see them go."""
    root = tmp_path / "runs"
    root.mkdir()
    return root


@pytest.fixture
def isolation(fake_env: dict[str, str], temp_root: Path) -> Isolation:
    chosen = isolation_for(fake_env, temp_root)
    assert chosen.fresh_config_dir  # fake_env carries ANTHROPIC_API_KEY
    return chosen


@pytest.fixture
def skill_sources(tmp_path: Path) -> dict[str, Path]:
    """A small room: `pdf`, its prefix neighbour `pdf-tools`, and an aliased skill."""
    root = tmp_path / "repo"
    return {
        "pdf": write_skill(
            root,
            "pdf",
            "Plain PDF work.",
            "# PDF\nSay PDF-ACTIVE.\n",
            extra_files={"evals/evals.json": '{"answer": "key"}'},
        ),
        "pdf-tools": write_skill(root, "pdf-tools", "Tools for PDF files."),
        "dirname": write_skill(root, "dirname", "A skill whose name differs.", name="front"),
    }


@pytest.fixture(scope="session")
def shared_runs(claude_bin: str, copilot_cache: str, tmp_path_factory) -> SharedAgents:
    """One agent per runtime and its scripted runs, for every test of the session that reads them; the
    modules that do put a runtime's tests in the xdist group `agent-<runtime>`, so one worker makes them."""
    return shared_agents(claude_bin, copilot_cache, tmp_path_factory.mktemp("shared-agents"))


@pytest.fixture(scope="module")
def shared(shared_runs: SharedAgents) -> Iterator[SharedAgents]:
    """The session's shared runs; their fake API servers stop when the module ends (runs are kept)."""
    yield shared_runs
    shared_runs.release()
