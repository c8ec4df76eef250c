"""Reports for the page tests. `page_reports` and `tune_reports` start no agent: the offline commands run
in-process here, the paid ones are the reports real runs saved (tests/support/saved_reports.py).
`small_real_reports` runs each paid command once more, on one or two cases, in the real claude CLI
against the scripted API, so what the pipeline writes today is proven to render; one worker builds it
(the modules using it share the `report-pages` xdist group)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakeapi.cli import hermetic_env
from tests.fakeapi.server import FakeAPI
from tests.support import reports, saved_reports
from tests.support.temp_dirs import built_once


@pytest.fixture(scope="session")
def page_reports(tmp_path_factory) -> dict[str, dict]:
    made = {name: saved_reports.load(name) for name in saved_reports.PAID}
    for name in ("structural", "refs", "lexical"):
        made[name] = getattr(reports, name)(tmp_path_factory.mktemp(name))
    return made


@pytest.fixture(scope="session")
def tune_reports(tmp_path_factory) -> dict[str, dict]:
    """The paid tune run saved (it scores four candidates), and a lexical one run here."""
    made = {"tune-lexical": reports.tune_lexical(tmp_path_factory.mktemp("tune-lexical"))}
    made["tune"] = saved_reports.load("tune")
    return made


@pytest.fixture(scope="session")
def small_real_reports(tmp_path_factory, claude_bin) -> dict[str, dict]:
    """Each paid command's report from a real run of one or two cases, sampled once; made once a run
    even where the xdist group does not keep its tests on one worker."""
    return built_once(tmp_path_factory, "small-real-reports", lambda into: small_real_runs(into, claude_bin))


def small_real_runs(folder: Path, claude_bin: str) -> dict[str, dict]:
    for name in saved_reports.PAID:
        (folder / name).mkdir()
    made = {}
    small = {"only": reports.SMALL_ROUTING_CASES, "repeat": 1}
    one_case = ("--only", "alpha-pos-2")  # beta takes it when alpha is not installed
    for name, extra in (("routing", ()), ("routing-matrix", saved_reports.TWO_MODELS)):
        with FakeAPI() as api:
            made[name] = reports.routing(folder / name, api, claude_bin, *extra, **small)
    for name, extra in (("compare", ()), ("compare-matrix", saved_reports.TWO_MODELS)):
        with FakeAPI() as api:
            tmp = folder / name
            made[name] = reports.compare(tmp, api, claude_bin, *one_case, *extra, repeat=1)
    with FakeAPI() as api:
        made["cost"] = reports.cost(folder / "cost", api, claude_bin)
    with FakeAPI() as api:
        tmp = folder / "behavioral"
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        made["behavioral"] = reports.behavioral(tmp, api, claude_bin, env, only="report-writer-pass")
    with FakeAPI() as api:
        tmp = folder / "behavioral-matrix"
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        two = saved_reports.TWO_MODELS[1]
        made["behavioral-matrix"] = reports.behavioral(
            tmp, api, claude_bin, env, only="report-writer-pass", models=two
        )
    return made
