"""`skillscope history` on a ledger holding a run replayed from the result cache and a lexical run: a
replay is no second sample, and a report passed over is named. What history makes of a replay is the
harness's, so the runs are the scripted stand-in's (tests/support/scripted.py): a first run per test,
whose result cache the replaying run reads. End to end on the real claude CLI, a replay is
tests/routing/test_paid_routing.py::test_an_unchanged_second_run_makes_no_request_and_marks_every_sample_cached,
and history read from real runs' reports is tests/history/test_real_ledgers.py."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import schemas
from tests.support import scripted as S
from tests.support.helpers import run_cli
from tests.support.routing import route, skills_repo

pytestmark = pytest.mark.usefixtures("private_temp")
CASES = "alpha-pos-1,alpha-pos-2,alpha-neg-1"


def routed(repo: Path, env: dict, output: Path, *extra: str):
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--min-accuracy",
        "0",
        "--only",
        CASES,
        *extra,
        output=output,
    )
    assert run.code == 0, run.stderr
    return run


def history(repo: Path, ledger: Path):
    shown = run_cli(["history", "--repo", str(repo), str(ledger), "--format", "json"], cwd=repo)
    assert shown.code == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert [e.message for e in schemas.validator("history-report").iter_errors(document)] == []
    return document


@dataclass(frozen=True)
class FirstRun:
    """A first run of CASES, every sample new (and kept in the result cache under `env`'s home); its
    report is `report`."""

    repo: Path
    env: dict[str, str]
    report: Path

    def ledger(self, folder: Path) -> Path:
        """A ledger folder holding a copy of the first run's report as run-1.json."""
        folder.mkdir()
        shutil.copy2(self.report, folder / "run-1.json")
        return folder


@pytest.fixture
def first_run(scripted, tmp_path):
    repo = skills_repo(tmp_path / "first" / "repo", "alpha", "beta")
    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-pos-2": S.fires("alpha")})
    routed(repo, scripted.env, tmp_path / "first" / "run-1.json")
    return FirstRun(repo, scripted.env, tmp_path / "first" / "run-1.json")


def test_a_run_replayed_from_the_cache_is_no_second_sample(first_run, scripted, tmp_path):
    repo, env = first_run.repo, first_run.env
    ledger = first_run.ledger(tmp_path / "ledger")
    started = len(scripted.runs)
    second = routed(repo, env, ledger / "run-2.json")
    assert second.report["totals"]["samples_run"] == 0  # every sample came from the cache
    assert len(scripted.runs) == started

    document = history(repo, ledger)
    assert document["replays"] == 1 and document["sampled_once"] == 3
    assert document["headline"] == (
        "3 case(s) over 2 run(s), 1 of them cache replays: "
        "3 sampled once (later runs replayed it from the cache)"
    )
    reasons = {c["id"]: c["reason"] for c in document["cases"]}
    assert reasons["alpha-pos-1"] == "pass in the one sample of these inputs; 1 run(s) replayed it"

    routed(repo, env, ledger / "run-3.json", "--no-cache")  # a real second sample: now it is stable
    document = history(repo, ledger)
    assert document["headline"] == "3 case(s) over 3 run(s), 1 of them cache replays: 3 stable"
    assert {c["reason"] for c in document["cases"]} >= {
        "pass in every graded run of these inputs (1 of them cache replays, not new samples)"
    }


def test_a_lexical_report_passed_over_is_counted(first_run, tmp_path):
    ledger = first_run.ledger(tmp_path / "ledger")
    lexical_run = ("--engine", "lexical", "--routing-room", "alpha,beta")
    lexical = route(first_run.repo, first_run.env, *lexical_run, output=ledger / "lexical.json")
    assert lexical.code in (0, 1) and lexical.report["engine"] == "lexical", (
        lexical.stderr
    )  # graded, either way

    document = history(first_run.repo, ledger)
    assert document["lexical"] == [f"{ledger}/lexical.json"]
    assert document["headline"].endswith("; 1 lexical report(s) not counted")
    assert len(document["runs"]) == 1 and document["problems"] == []
