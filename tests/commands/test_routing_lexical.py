"""`skillscope routing --engine lexical` end to end: no claude, no network, the routing reports."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import schemas
from harness.commands import routing
from harness.routing.lexical import APPROXIMATION
from tests.support.helpers import make_skill, run_cli
from tests.support.procs import assert_single_threaded

CATALOG = Path(__file__).parents[1] / "routing" / "lexical_catalog"


@pytest.fixture
def catalog_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(CATALOG, root, ignore=shutil.ignore_patterns("expected.json"))
    return root


def lexical(root: Path, *extra: str, environ: dict | None = None):
    """The run and its JSON report; the environment is empty unless given, so no claude can be found."""
    output = root.parent / "lexical.json"
    output.unlink(missing_ok=True)
    args = [
        "routing",
        "--engine",
        "lexical",
        "--repo",
        str(root),
        "--skills-dir",
        "*",
        "--routing-room",
        "all",
    ]
    run = run_cli([*args, "--output", str(output), *extra], cwd=root, environ=environ)
    return run, json.loads(output.read_text(encoding="utf-8")) if output.exists() else None


def test_without_claude_it_grades_every_case_and_writes_a_schema_valid_report(catalog_repo: Path):
    run, report = lexical(catalog_repo)
    assert run.code == 1  # 18 of 22 correct, below the default bar of 1
    assert [e.message for e in schemas.validator("routing-report").iter_errors(report)] == []
    assert report["engine"] == "lexical" and report["meta"]["engine"] == "lexical"
    assert report["approximation"] == APPROXIMATION
    assert report["totals"]["graded"] == 22 and report["totals"]["passed"] == 18
    assert report["totals"]["rank1"]["rank1"] == 10 and report["totals"]["rank1"]["positives"] == 13
    assert report["gate"]["reason"] == "18/22 correct (accuracy 0.818) is below the --min-accuracy bar of 1"
    assert "[routing] failed: 18/22 correct" in run.stderr
    case = next(c for c in report["cases"] if c["id"] == "pdf-merge-second")
    assert case["verdict"] == "correct_trigger" and case["rank"] == 2 and case["rank1"] is False
    assert [t["skill"] for t in case["top"]] == ["slide-deck", "pdf-merge"]
    assert sorted(case["top"][1]["shared"]) == ["merge", "pdf"]


def test_every_report_says_it_approximates_the_agent(catalog_repo: Path, tmp_path: Path):
    summary = tmp_path / "summary.md"
    run, report = lexical(catalog_repo, "--summary", str(summary), "--junit", str(tmp_path / "j.xml"))
    markdown = summary.read_text(encoding="utf-8")
    assert APPROXIMATION in markdown and report["approximation"] == APPROXIMATION
    assert "an approximation of the agent that never replaces it" in run.stdout  # the text format
    assert "Rank-1 rate: **10/13 (76.9%)**" in markdown
    assert "csv-profile-owner-lost" in markdown and "pdf-merge 0.32: pdf, pages" in markdown


def test_annotations_sit_at_the_dataset_line_and_a_vocabulary_gap_says_so(catalog_repo: Path):
    run, _ = lexical(catalog_repo, environ={"GITHUB_ACTIONS": "true"})
    annotations = [line for line in run.lines if line.startswith("::")]
    assert len(annotations) == 4
    gap = next(line for line in annotations if "csv-profile-no-words" in line)
    assert gap.startswith(
        "::warning file=csv-profile/evals/evals.json,line=5,title=skillscope description-vocabulary-gap::"
    )
    assert "shares no word with a prompt users would type" in gap
    lost = next(line for line in annotations if "csv-profile-owner-lost" in line)
    assert "line=6" in lost and "expected its owner git-history first -> pdf-merge ranked first" in lost


@pytest.mark.parametrize(("bars", "level"), [([], "error"), (["--min-accuracy", "0"], "warning")])
def test_report_only_misses_are_warnings_in_every_report(catalog_repo: Path, bars: list[str], level: str):
    # The same four misses: errors when they fail the run, warnings when the bar only reports.
    run, report = lexical(catalog_repo, *bars, "--format", "sarif", environ={"GITHUB_ACTIONS": "true"})
    results = json.loads(run.stdout)["runs"][0]["results"]
    assert {result["level"] for result in results if result["ruleId"] == "routing"} == {level}
    # A vocabulary gap is a lexical estimate: a warning whatever the bar, the case's own verdict gates.
    assert {r["level"] for r in results if r["ruleId"] == "description-vocabulary-gap"} == {"warning"}
    run, report = lexical(catalog_repo, *bars, environ={"GITHUB_ACTIONS": "true"})
    annotations = [line for line in run.lines if line.startswith("::")]
    misses = [line for line in annotations if "title=skillscope routing::" in line]
    assert len(annotations) == 4 and len(misses) == 3
    assert all(line.startswith(f"::{level} ") for line in misses)
    assert report["status"] == ("pass" if bars else "fail")


def test_junit_has_one_test_per_case_with_the_failures(catalog_repo: Path, tmp_path: Path):
    junit = tmp_path / "lexical.xml"
    lexical(catalog_repo, "--junit", str(junit))
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "22" and suite.get("failures") == "4" and suite.get("errors") == "0"


@pytest.mark.parametrize(
    ("bars", "code", "reason"),
    [
        (["--min-accuracy", "0"], 0, "18/22 correct; reported only (--min-accuracy 0)"),
        (["--min-accuracy", "0", "--min-rank1", "0.75"], 0, "rank-1 10/13 meets --min-rank1 0.75"),
        (
            ["--min-accuracy", "0", "--min-rank1", "4/5"],
            1,
            "rank-1 rate 10/13 (0.769) is below the --min-rank1",
        ),
    ],
)
def test_min_rank1_is_a_ratchet_on_the_rank1_rate(
    catalog_repo: Path, bars: list[str], code: int, reason: str
):
    run, report = lexical(catalog_repo, *bars)
    assert run.code == code and reason in report["gate"]["reason"]


def test_case_selection_flags_apply_and_shared_negatives_stay_out(catalog_repo: Path):
    run, report = lexical(catalog_repo, "--only", "git-history", "--min-accuracy", "0")
    assert run.code == 0
    assert {c["skill"] for c in report["cases"]} == {"git-history"} and report["totals"]["cases"] == 5


def test_the_structural_gate_still_runs_first(catalog_repo: Path):
    (catalog_repo / "slide-deck" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    run, report = lexical(catalog_repo)
    assert run.code == 1 and report is None
    assert "slide-deck/SKILL.md:1" in run.stderr and "structural error(s)" in run.stderr
    assert "before ranking them" in run.stderr and "tokens" not in run.stderr  # a free run spends none


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--repeat", "3"], "--repeat applies to --engine agent only"),
        (["--model", "m", "--jobs", "2"], "--model, --jobs apply"),
    ],
)
def test_a_flag_only_the_agent_reads_is_a_usage_error(catalog_repo: Path, flags: list[str], named: str):
    run, _ = lexical(catalog_repo, *flags)
    assert run.code == 2 and named in run.stderr


@pytest.mark.parametrize("setting", ["jobs = 2\n", "jobs = 4\n", 'negatives = ["extra/negatives.json"]\n'])
def test_a_settings_key_only_the_agent_reads_is_left_out_of_a_lexical_run_quietly(
    catalog_repo: Path, setting: str
):
    """A settings file serves every command and engine: a key this engine never reads is left out as
    one another command reads is, without a word, and never breaks the run (the same value as a flag
    is refused)."""
    (catalog_repo / "extra").mkdir()
    (catalog_repo / "extra" / "negatives.json").write_text(
        '{"evaluations": [{"id": "x-neg", "skill_should_trigger": false, "prompt": "What is 2+2?"}]}'
    )
    (catalog_repo / "skillscope.toml").write_text(setting, encoding="utf-8")
    run, report = lexical(catalog_repo)
    assert run.code in (0, 1) and report, run.stderr
    assert "applies to --engine agent only" not in run.stderr
    assert "settings file" not in run.stderr and "not used" not in run.stderr
    assert "x-neg" not in {case["id"] for case in report["cases"]}  # left out, not ranked


def test_lexical_flags_on_an_agent_run_are_a_usage_error_before_any_agent_is_sought(tmp_path: Path):
    make_skill(tmp_path / "repo", "alpha")
    run = run_cli(["routing", "--repo", str(tmp_path / "repo"), "--min-rank1", "0.5"], cwd=tmp_path)
    assert run.code == 2 and "--min-rank1 applies to --engine lexical only" in run.stderr


def agent_report(path: Path, verdicts: dict[str, tuple[str, str | None, bool]]) -> Path:
    cases = [
        {"id": cid, "verdict": verdict, "observed": observed, "passed": passed}
        for cid, (verdict, observed, passed) in verdicts.items()
    ]
    path.write_text(json.dumps({"command": "routing", "engine": "agent", "cases": cases}), encoding="utf-8")
    return path


FORECAST = Path(__file__).resolve().parents[2] / "benchmarks" / "lexical_forecast.py"


def forecast(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(FORECAST), *args], capture_output=True, text=True, check=False)


def test_the_forecast_study_lists_where_the_engines_disagree(catalog_repo: Path, tmp_path: Path):
    """The calibration study (once --against) reads a lexical report and an agent report of the same cases."""
    against = agent_report(
        tmp_path / "agent.json",
        {
            "pdf-merge-signature": ("correct_trigger", "pdf-merge", True),  # lexical: wrong_skill
            "pdf-merge-rank1": ("correct_trigger", "pdf-merge", True),  # both pass
            "slide-deck-deck": ("error", None, False),  # the agent could not grade it
        },
    )
    lexical(catalog_repo, "--min-accuracy", "0")
    report = str(catalog_repo.parent / "lexical.json")
    figures = json.loads(forecast(report, str(against), "--json").stdout)
    assert (figures["compared"], figures["agreed"], figures["same_pick"]) == (2, 1, 1)
    assert (figures["not_in_report"], figures["agent_errors"]) == (19, 1)
    assert figures["disagreements"] == [
        {
            "id": "pdf-merge-signature",
            "skill": "pdf-merge",
            "lexical_verdict": "wrong_skill",
            "lexical_pick": "slide-deck",
            "agent_verdict": "correct_trigger",
            "agent_pick": "pdf-merge",
        }
    ]
    shown = forecast(report, str(against)).stdout
    assert "### Forecast against" in shown and "wrong_skill (first: slide-deck)" in shown


def test_routing_has_no_against_flag_any_more(catalog_repo: Path, tmp_path: Path):
    run, report = lexical(catalog_repo, "--against", str(tmp_path / "agent.json"))
    assert run.code == 2 and report is None and "--against" in run.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot be read"),
        ("{not json", "is not valid JSON"),
        ('{"command": "structural", "cases": []}', "is not a routing report"),
        ('{"command": "routing", "engine": "lexical", "cases": []}', "is a report of the lexical engine"),
        ('{"command": "routing", "cases": [{"verdict": "x"}]}', "its `cases` list is missing or malformed"),
    ],
)
def test_a_bad_agent_report_is_one_sentence_naming_it(catalog_repo: Path, tmp_path: Path, content, message):
    path = tmp_path / "agent.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    lexical(catalog_repo, "--min-accuracy", "0")
    done = forecast(str(catalog_repo.parent / "lexical.json"), str(path))
    assert done.returncode == 2 and not done.stdout
    # ":N" after the path: the line where the JSON parser stopped, where it stopped at one
    assert re.search(rf"{re.escape(str(path))}(:\d+)?: {re.escape(message)}", done.stderr)
    assert "Traceback" not in done.stderr


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Every run forks a child for part of its cases, however small; the children's ids, as started."""
    assert_single_threaded()
    started: list[int | None] = []

    class Watched(routing.Forked):
        def __init__(self, work, start: bool = True):
            super().__init__(work, start)
            started.append(self.pid)

    monkeypatch.setattr(routing, "Forked", Watched)
    monkeypatch.setattr(routing, "FORKED_CELLS", 0)
    return started


def test_cases_graded_in_a_forked_child_are_reported_as_if_graded_in_one_process(
    catalog_repo: Path, forking, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(routing, "FORKED_CELLS", 10**9)
    _, alone = lexical(catalog_repo, "--min-accuracy", "0", "--only", "pdf-merge")
    assert forking == [None]
    forking.clear()
    monkeypatch.setattr(routing, "FORKED_CELLS", 0)
    _, split = lexical(catalog_repo, "--min-accuracy", "0", "--only", "pdf-merge")
    [child] = forking
    assert child is not None and child != os.getpid()
    for key in ("cases", "totals", "per_skill", "verdicts", "confusion", "findings"):
        assert split[key] == alone[key], key


def test_a_structural_error_found_while_a_child_grades_ends_the_child(catalog_repo: Path, forking):
    (catalog_repo / "slide-deck" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    run, report = lexical(catalog_repo)
    assert run.code == 1 and report is None and "structural error(s)" in run.stderr
    [child] = forking
    assert child is not None
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


def test_a_signal_during_the_run_still_gets_every_case_reported_and_an_exit_that_says_so(
    catalog_repo: Path, forking, monkeypatch: pytest.MonkeyPatch
):
    real_gate = routing.require_well_formed

    def gate_then_signal(*args):
        real_gate(*args)
        os.kill(os.getpid(), signal.SIGINT)  # while the forked child grades its share

    monkeypatch.setattr(routing, "require_well_formed", gate_then_signal)
    run, report = lexical(catalog_repo)
    assert run.code == 130 and report["totals"]["cases"] == 22
    assert "SIGINT received: every case was ranked and reported" in run.stderr
    [child] = forking
    assert child is not None


def test_a_lexical_run_never_imports_the_agent_machinery(catalog_repo: Path):
    """Run on every push, it pays only for what ranking needs: no agent CLI module, no process runner."""
    probe = (
        "import sys, io, contextlib\n"
        "from harness.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    main(['routing', '--engine', 'lexical', '--skills-dir', '*', '--routing-room', 'all',"
        " '--output', sys.argv[1]])\n"
        "print([m for m in sys.modules if m.startswith(('harness.agent', 'harness.paid.cache',"
        " 'harness.paid.dryrun', 'harness.paid.progress', 'harness.paid.command', 'harness.cli.paid',"
        " 'harness.routing.runner',"
        " 'harness.commands.routing_agent', 'subprocess'))])\n"
    )
    output = catalog_repo.parent / "probe.json"
    done = subprocess.run(
        [sys.executable, "-c", probe, str(output)], capture_output=True, text=True, cwd=catalog_repo
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert json.loads(output.read_text(encoding="utf-8"))["engine"] == "lexical"


def test_a_first_run_failed_by_near_misses_names_the_report_only_bars(tmp_path: Path):
    # The bundled examples: four near misses share words with their own skill, as on any real catalog.
    root = tmp_path / "examples"
    shutil.copytree(Path(__file__).parents[2] / "examples", root)
    args = ["routing", "--engine", "lexical", "--repo", str(root), "--skills-dir", "skills/*"]
    failed = run_cli([*args, "--routing-room", "all", "--output", str(tmp_path / "r.json")], cwd=root)

    assert failed.code == 1
    near = [line for line in failed.stdout.splitlines() if "a near miss: " in line]
    assert len(near) == 4 and "ranked first, though the prompt is not its job (false_trigger)" in near[0]
    [hint] = [line for line in failed.stdout.splitlines() if "--min-rank1 0.8" in line]
    assert hint.startswith("4 of the misses are near misses their own skill ranked first")

    bars = ["--min-accuracy", "0", "--min-rank1", "0.8"]
    passed = run_cli([*args, "--routing-room", "all", *bars, "--output", str(tmp_path / "r.json")], cwd=root)
    assert passed.code == 0 and "--min-rank1 0.8`" not in passed.stdout
