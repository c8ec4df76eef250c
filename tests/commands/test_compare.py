"""`skillscope compare --reports`: two existing reports compared offline, case by case."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import schemas
from tests.support.compare import (
    behavioral_case,
    lexical_case,
    routing_case,
    write_lexical_report,
    write_report,
)
from tests.support.helpers import make_skill, run_cli


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    return root


def compare(repo: Path, old: Path, new: Path, *extra: str):
    output = repo.parent / "compare.json"
    run = run_cli(
        # The markdown report on stdout, which these tests read (a later --format in `extra` wins).
        ["compare", "--repo", str(repo), "--reports", str(old), str(new), "--output", str(output)]
        + ["--format", "markdown", *extra],
        cwd=repo,
        environ={"GITHUB_ACTIONS": "true"},
    )
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return run, report


def routing_pair(tmp_path: Path) -> tuple[Path, Path]:
    old = [
        routing_case("a-1", "alpha", "alpha", line=4),
        routing_case("a-2", "alpha", None, line=9),
        routing_case("a-3", "alpha", "alpha", line=14),
        routing_case("a-4", None, None, line=19),
        routing_case("a-5", "alpha", "alpha", line=24),
    ]
    new = [
        routing_case("a-1", "alpha", None, line=4),  # lost: regression
        routing_case("a-2", "alpha", "alpha", line=9),  # won: improvement
        routing_case("a-3", "alpha", "alpha", line=14),
        routing_case("a-4", None, "beta", line=19),
        routing_case("a-5", "alpha", "!error", line=24),  # a 529 on one side
    ]
    return write_report(tmp_path / "old.json", "routing", old), write_report(
        tmp_path / "new.json", "routing", new
    )


def test_one_lost_and_one_won_prompt_give_one_regression_and_one_improvement(tmp_path, repo):
    run, report = compare(repo, *routing_pair(tmp_path))
    assert run.code == 1, run.stderr
    labels = {c["id"]: c["label"] for c in report["cases"]}
    assert labels == {
        "a-1": "regression",
        "a-2": "improvement",
        "a-3": "same-pass",
        "a-4": "regression",
        "a-5": "error",
    }
    assert schemas.errors("compare", report) == []
    assert "2 regressions, 1 improvements" in run.stdout
    assert "Newcombe" in run.stdout and "Newcombe" in report["meta"]["rule"]
    case = report["cases"][0]
    assert case["baseline"]["status"] == "pass" and case["candidate"]["outcome"] == "(no skill)"
    assert "[compare] failed: 2 regression(s)" in run.stderr
    rates = report["totals"]
    assert rates["baseline"]["trigger_rate"] == {"alpha": 0.75}
    assert rates["candidate"]["trigger_rate"] == {"alpha": 0.6667}  # the errored run counts on neither side
    assert rates["delta"]["trigger_rate"] == {"alpha": -0.0833}
    assert "trigger rate (alpha)" in run.stdout


def test_a_regression_is_annotated_on_its_dataset_line_and_fails_in_junit(tmp_path, repo):
    junit = tmp_path / "compare.xml"
    run, _report = compare(repo, *routing_pair(tmp_path), "--junit", str(junit))
    assert "::error file=alpha/evals/evals.json,line=4,title=skillscope compare::" in run.stdout
    assert "::warning file=alpha/evals/evals.json,line=24" in run.stdout  # the error, not compared
    suite = ET.parse(junit).getroot().find("testsuite")
    first = suite.find("testcase")
    assert (first.get("file"), first.get("line")) == ("alpha/evals/evals.json", "4")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "2", "1")


def test_allow_regressions_reports_them_and_exits_zero(tmp_path, repo):
    run, report = compare(repo, *routing_pair(tmp_path), "--allow-regressions")
    assert run.code == 0, run.stderr
    assert report["labels"]["regression"] == 2 and report["passed"] is True


def test_an_errored_side_is_never_a_regression(tmp_path, repo):
    old = write_report(tmp_path / "old.json", "routing", [routing_case("a-1", "alpha", "alpha")])
    new = write_report(tmp_path / "new.json", "routing", [routing_case("a-1", "alpha", "!error")])
    run, report = compare(repo, old, new)
    assert report["labels"]["error"] == 1 and report["labels"]["regression"] == 0
    assert run.code == 1 and "nothing was compared" in run.stderr  # nothing compared says nothing


def test_repeats_flip_only_beyond_noise(tmp_path, repo):
    old = [routing_case("a-1", "alpha", "alpha", "alpha", None), routing_case("a-2", "alpha", *["alpha"] * 8)]
    new = [routing_case("a-1", "alpha", None, None, "alpha"), routing_case("a-2", "alpha", *[None] * 8)]
    run, report = compare(
        repo,
        write_report(tmp_path / "old.json", "routing", old),
        write_report(tmp_path / "new.json", "routing", new),
    )
    labels = {c["id"]: c["label"] for c in report["cases"]}
    assert labels == {"a-1": "same-fail", "a-2": "regression"}
    assert report["cases"][1]["delta"]["rate"] == -1.0 and report["cases"][1]["delta"]["rate_ci95"][1] < 0


def test_behavioral_reports_compare_by_status_and_expectations_met(tmp_path, repo):
    old = [behavioral_case("b-1", "fail", []), behavioral_case("b-2", "fail", ["x"])]
    new = [behavioral_case("b-1", "pass", ["x"]), behavioral_case("b-2", "fail", ["y"])]
    run, report = compare(
        repo,
        write_report(tmp_path / "old.json", "behavioral", old),
        write_report(tmp_path / "new.json", "behavioral", new),
    )
    assert run.code == 0, run.stderr
    assert [c["label"] for c in report["cases"]] == ["improvement", "changed"]
    assert report["meta"]["mode"] == "behavioral" and schemas.errors("compare", report) == []
    totals = report["totals"]
    assert totals["baseline"]["turns"] == totals["candidate"]["turns"] == 8 and totals["delta"]["turns"] == 0
    assert report["cases"][0]["baseline"]["turns"] == 4 and "| turns " in run.stdout


def test_reports_of_different_commands_are_refused(tmp_path, repo):
    old = write_report(tmp_path / "old.json", "behavioral", [])
    new = write_report(tmp_path / "new.json", "routing", [])
    run, _report = compare(repo, old, new)
    assert run.code == 2 and "a behavioral report but" in run.stderr


def test_a_file_that_is_not_a_report_names_itself(tmp_path, repo):
    bad = tmp_path / "bad.json"
    bad.write_text("{\n  nope", encoding="utf-8")
    run, _report = compare(repo, bad, bad)
    assert run.code == 1 and f"{bad}:2: is not valid JSON" in run.stderr


def test_a_provisional_case_is_reported_apart_and_fails_only_with_strict(tmp_path, repo):
    shaky = {**routing_case("a-1", "alpha", None, line=4), "trust_level": "provisional"}
    old = [routing_case("a-1", "alpha", "alpha", line=4), routing_case("a-2", "alpha", "alpha", line=9)]
    new = [shaky, routing_case("a-2", "alpha", "alpha", line=9)]
    pair = (
        write_report(tmp_path / "old.json", "routing", old),
        write_report(tmp_path / "new.json", "routing", new),
    )
    run, report = compare(repo, *pair)
    assert run.code == 0, run.stderr
    assert report["cases"][0]["label"] == "regression" and report["cases"][0]["trust_level"] == "provisional"
    assert "Provisional case(s), reported apart and not counted by the verdict" in run.stdout
    assert "::warning file=alpha/evals/evals.json,line=4" in run.stdout and "::error" not in run.stdout
    strict, report = compare(repo, *pair, "--strict")
    assert strict.code == 1 and report["meta"]["strict"] is True
    assert "::error file=alpha/evals/evals.json,line=4" in strict.stdout


def test_a_blocked_or_not_run_behavioral_case_is_an_error_never_graded(tmp_path, repo):
    old = [behavioral_case("b-1", "pass", ["x"]), behavioral_case("b-2", "pass", ["x"])]
    new = [behavioral_case("b-1", "blocked", []), behavioral_case("b-2", "not-run", [])]
    run, report = compare(
        repo,
        write_report(tmp_path / "old.json", "behavioral", old),
        write_report(tmp_path / "new.json", "behavioral", new),
    )
    assert [c["label"] for c in report["cases"]] == ["error", "error"]
    assert [c["candidate"]["status"] for c in report["cases"]] == ["error", "error"]
    assert run.code == 1 and schemas.errors("compare", report) == []


def test_two_lexical_routing_reports_compare_ranking_by_ranking(tmp_path, repo):
    old = write_lexical_report(tmp_path / "old.json", [lexical_case("a-1", "alpha", "alpha")])
    new = write_lexical_report(tmp_path / "new.json", [lexical_case("a-1", "alpha", None)])
    run, report = compare(repo, old, new)
    assert run.code == 1, run.stderr
    assert report["labels"]["regression"] == 1


def test_a_lexical_and_an_agent_report_are_refused_naming_both_engines(tmp_path, repo):
    old = write_lexical_report(tmp_path / "old.json", [lexical_case("a-1", "alpha", "alpha")])
    new = write_report(tmp_path / "new.json", "routing", [routing_case("a-1", "alpha", "alpha")])
    run, _ = compare(repo, old, new)
    assert run.code == 2 and "by the lexical engine but" in run.stderr and "by the agent" in run.stderr


def report_cases() -> list[tuple[str, dict]]:
    return [
        ("routing", routing_case("a-1", "alpha", "alpha")),
        ("routing", lexical_case("a-1", "alpha", "alpha")),
        ("behavioral", behavioral_case("a-1", "pass", ["does it"])),
    ]


def broken_variants():
    """Every case field of each report kind removed, set to null, or given a wrong type, one at a time."""
    for command, case in report_cases():
        for key in case:
            for wrong in (None, 7, "x", [], {}):
                yield command, case, key, wrong
            yield command, case, key, "<removed>"


@pytest.mark.parametrize(("command", "case", "key", "wrong"), list(broken_variants()))
def test_a_report_with_a_missing_or_mistyped_field_is_one_sentence_never_a_crash(
    tmp_path, repo, command, case, key, wrong
):
    good = dict(case)
    bad = {k: v for k, v in case.items() if k != key} if wrong == "<removed>" else {**case, key: wrong}
    engine = {"engine": "lexical"} if "samples" not in case and command == "routing" else {}
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"command": command, **engine, "cases": [good]}), encoding="utf-8")
    new.write_text(json.dumps({"command": command, **engine, "cases": [bad]}), encoding="utf-8")
    run, _ = compare(repo, old, new)
    assert run.code in (0, 1, 2), run.stderr  # graded, or refused in words: never an internal error (3)
    assert "internal error" not in run.stderr
    if run.code == 2 or (run.code == 1 and run.stderr):
        assert run.stderr.count("\n") == 1, run.stderr


def test_fewer_pairs_than_min_pairs_is_an_error_not_a_pass(tmp_path, repo):
    """An outage that errors most runs must not read as "no regression"."""
    cases = [routing_case("a-1", "alpha", "alpha"), routing_case("a-2", "alpha", "alpha")]
    old = write_report(tmp_path / "old.json", "routing", cases)
    new = write_report(
        tmp_path / "new.json",
        "routing",
        [routing_case("a-1", "alpha", "alpha"), routing_case("a-2", "alpha", "!error")],
    )
    assert compare(repo, old, new)[0].code == 0  # one pair graded, one asked for
    run, report = compare(repo, old, new, "--min-pairs", "2")
    assert run.code == 1 and report["status"] == "error" and report["meta"]["min_pairs"] == 2
    assert "routing: 1 case(s) graded on both sides, fewer than --min-pairs 2" in run.stderr


def test_a_graded_routing_side_does_not_vouch_for_a_behavioral_side_that_errored_throughout():
    from harness.compare.result import CaseComparison, CompareMeta, CompareResult
    from harness.compare.sides import SideRecord, behavioral_run, routing_runs
    from harness.model.envelope import RunMeta

    passing = routing_runs(routing_case("r-1", "alpha", "alpha"))
    errored = [behavioral_run(behavioral_case("b-1", "error", []))]

    def pair(case_id: str, mode: str, runs) -> CaseComparison:
        return CaseComparison(
            id=case_id,
            skill="alpha",
            source="alpha/evals/evals.json",
            line=3,
            prompt="p",
            expect=None,
            baseline=SideRecord(runs),
            candidate=SideRecord(runs),
            mode=mode,
        )

    meta = CompareMeta(
        run=RunMeta(command="compare", repo="/r", globs=["*"], started_at="2026-12-01T00:00:00+00:00"),
        mode="both",
        baseline="HEAD",
        candidate="working tree",
        source="live",
    )
    result = CompareResult(
        meta=meta, cases=[pair("r-1", "routing", passing), pair("b-1", "behavioral", errored)]
    )
    assert result.short_modes() == {"behavioral": 0}
    assert result.passed is False and result.to_json()["status"] == "error"


def test_a_retried_behavioral_run_is_carried_on_its_side_and_said_in_text(tmp_path, repo):
    old = [behavioral_case("b-1", "pass", ["x"])]
    new = [{**behavioral_case("b-1", "pass", ["x"]), "retried": "gemini's model stream ended early"}]
    run, report = compare(
        repo,
        write_report(tmp_path / "old.json", "behavioral", old),
        write_report(tmp_path / "new.json", "behavioral", new),
        "--format",
        "text",
    )
    assert run.code == 0, run.stderr
    assert schemas.errors("compare", report) == []
    (case,) = report["cases"]
    assert case["label"] == "same-pass" and case["baseline"]["retried"] is None
    assert case["candidate"]["retried"] == "gemini's model stream ended early"
    assert case["candidate"]["read_failed"] is None  # behavioral runs have no routing decision
    assert "a candidate run was retried once, fresh: gemini's model stream ended early" in run.stdout
