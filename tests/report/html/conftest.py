"""Reports for the page tests. `page_reports` and `tune_reports` start no agent: the offline commands run
in-process here, the paid ones are the reports real runs saved (tests/support/saved_reports.py).
`small_real_reports` runs each paid command once more, on one or two cases, in the real claude CLI
against the scripted API, so what the pipeline writes today is proven to render; one worker builds it
(the modules using it share the `report-pages` xdist group). Its matrix reports (one leg per model)
come from the scripted runtimes (tests/support/scripted.py): a leg's run is its single-model report's,
real above, and which legs a matrix gets is the harness's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import agent
from harness.behavioral.judge import JUDGE_HEADER
from tests.fakeapi.cli import hermetic_env
from tests.fakeapi.server import FakeAPI
from tests.support import reports, saved_reports
from tests.support import scripted as S
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
    with FakeAPI() as api:
        made["routing"] = reports.routing(folder / "routing", api, claude_bin, **small)
    with FakeAPI() as api:
        made["compare"] = reports.compare(folder / "compare", api, claude_bin, *one_case, repeat=1)
    with FakeAPI() as api:
        made["cost"] = reports.cost(folder / "cost", api, claude_bin)
    with FakeAPI() as api:
        tmp = folder / "behavioral"
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        made["behavioral"] = reports.behavioral(tmp, api, claude_bin, env, only="report-writer-pass")
    return {**made, **scripted_matrices(folder, small)}


def scripted_matrices(folder: Path, small: dict) -> dict[str, dict]:
    """The matrix reports, their runs answered as the real runs' fake model answers them."""
    stand_in = S.Scripted(folder / "scripted-home")
    env, two = stand_in.env, saved_reports.TWO_MODELS
    made = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agent, "connect_runtime", stand_in.connect)
        stand_in.script({"alpha-pos-2": S.fires("beta"), "alpha job <script>": S.fires("alpha")})
        made["routing-matrix"] = reports.routing_in(folder / "routing-matrix", env, *two, **small)
        # Without alpha installed, beta takes its case.
        stand_in.script(lambda ran: S.fires("alpha" if "alpha" in ran.listing else "beta"))
        made["compare-matrix"] = reports.compare_in(
            folder / "compare-matrix", env, "--only", "alpha-pos-2", *two, repeat=1
        )
        verdicts = [
            {"id": "E1", "pass": False, "reason": "no report"},
            {"id": "E2", "pass": True, "reason": "kept"},
        ]
        stand_in.script(
            {
                JUDGE_HEADER: S.says(json.dumps({"verdicts": verdicts})),
                "status report": S.says(f"Wrote report.md {reports.HOSTILE}"),
            }
        )
        made["behavioral-matrix"] = reports.behavioral_in(
            folder / "behavioral-matrix", env, only="report-writer-pass", models=two[1]
        )
    return made
