"""Real reports for the page tests, made once a module: each graded command run in-process (the paid
ones in the real claude CLI against the scripted API), see tests/support/reports.py."""

from __future__ import annotations

import pytest

from tests.fakeapi.cli import hermetic_env
from tests.fakeapi.server import FakeAPI
from tests.support import reports


@pytest.fixture(scope="session")
def real_reports(tmp_path_factory, claude_bin) -> dict[str, dict]:
    made = {}
    for name in ("structural", "refs", "lexical"):
        made[name] = getattr(reports, name)(tmp_path_factory.mktemp(name))
    for name in ("routing", "cost", "compare"):
        with FakeAPI() as api:
            made[name] = getattr(reports, name)(tmp_path_factory.mktemp(name), api, claude_bin)
    models = ("--model", "claude-fake-1,claude-fake-2")
    for name in ("routing", "compare"):  # each on two models: the matrix pages
        with FakeAPI() as api:
            made[f"{name}-matrix"] = getattr(reports, name)(
                tmp_path_factory.mktemp(f"{name}-matrix"), api, claude_bin, *models
            )
    with FakeAPI() as api:
        tmp = tmp_path_factory.mktemp("behavioral")
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        made["behavioral"] = reports.behavioral(tmp, api, claude_bin, env)
    return made


@pytest.fixture(scope="session")
def tune_reports(tmp_path_factory, claude_bin) -> dict[str, dict]:
    """Apart from the others: a paid tune run scores four candidates, so only its tests wait for it."""
    made = {"tune-lexical": reports.tune_lexical(tmp_path_factory.mktemp("tune-lexical"))}
    with FakeAPI() as api:
        made["tune"] = reports.tune(tmp_path_factory.mktemp("tune"), api, claude_bin)
    return made
