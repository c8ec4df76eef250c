"""`skillscope history` on a ledger holding a run replayed from the result cache and a lexical run: a
replay is no second sample, and a report passed over is named. Real claude CLI, scripted API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import schemas
from tests.fakeapi import replies as R
from tests.support.helpers import run_cli
from tests.support.routing import CaseRouter, route

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


def test_a_run_replayed_from_the_cache_is_no_second_sample(fake_api, repo, env, tmp_path):
    ledger = tmp_path / "ledger"
    ledger.mkdir()
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-2": R.skill("alpha")}))
    routed(repo, env, ledger / "run-1.json")
    second = routed(repo, env, ledger / "run-2.json")
    assert second.report["totals"]["samples_run"] == 0  # every sample came from the cache

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


def test_a_lexical_report_passed_over_is_counted(fake_api, repo, env, tmp_path):
    ledger = tmp_path / "ledger"
    ledger.mkdir()
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    routed(repo, env, ledger / "run-1.json", "--no-cache")
    lexical = route(
        repo, env, "--engine", "lexical", "--routing-room", "alpha,beta", output=ledger / "lexical.json"
    )
    assert lexical.code in (0, 1) and lexical.report["engine"] == "lexical", (
        lexical.stderr
    )  # graded, either way

    document = history(repo, ledger)
    assert document["lexical"] == [f"{ledger}/lexical.json"]
    assert document["headline"].endswith("; 1 lexical report(s) not counted")
    assert len(document["runs"]) == 1 and document["problems"] == []
