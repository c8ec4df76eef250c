"""`skillscope history` on ledgers real routing runs wrote: the claude CLI against the scripted API,
each run's JSON report kept in one folder, the decisions scripted per run.

Two runs on unchanged inputs, alpha-pos-1 passing in the first and failing in the second, are made once
for the module (one scripted server, so the agent's endpoint is the same in every run); each test reads
them or builds its ledger from copies of them. A test whose runs change the inputs between them (an
edit, the agent's endpoint) runs them all on the scripted runtimes (tests/support/scripted.py): what
history makes of a change is the harness's, what a real run's report carries is the shared runs'."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import schemas
from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.helpers import run_cli
from tests.support.routing import CaseRouter, route, routing_env, skills_repo, valid
from tests.support.temp_dirs import temp_under

pytestmark = [pytest.mark.usefixtures("private_temp"), pytest.mark.xdist_group("real-ledgers")]
CASES = "alpha-pos-1,alpha-pos-2,alpha-neg-1"
FIRES = {"alpha-pos-2": R.skill("alpha")}  # every run: a run where no skill fires fails at any bar
PASSES = {**FIRES, "alpha-pos-1": R.skill("alpha")}
FAILS = {**FIRES, "alpha-pos-1": "I will <b>just</b> answer."}
SCRIPTED_PASSES = {"alpha-pos-2": S.fires("alpha"), "alpha-pos-1": S.fires("alpha")}
SCRIPTED_FAILS = {"alpha-pos-2": S.fires("alpha"), "alpha-pos-1": S.NO_SKILL}


def routed(repo: Path, env: dict, ledger: Path, number: int) -> dict:
    """One routing run of CASES (nothing reused: --no-cache), its report kept as run-<number>.json."""
    ledger.mkdir(parents=True, exist_ok=True)
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--no-cache",
        "--min-accuracy",
        "0",
        "--only",
        CASES,
        output=ledger / f"run-{number}.json",
    )
    assert run.code == 0, run.stderr
    return run.report


def history(repo: Path, *args: str):
    return run_cli(["history", "--repo", str(repo), *args], cwd=repo)


def case_of(document: dict, case_id: str) -> dict:
    return next(c for c in document["cases"] if c["id"] == case_id)


@dataclass(frozen=True)
class Ledger:
    """The module's two runs: `folder` holds run-1.json (alpha-pos-1 passes) and run-2.json (it fails),
    written by `repo`."""

    repo: Path
    folder: Path

    def report(self, number: int) -> dict:
        return json.loads((self.folder / f"run-{number}.json").read_text(encoding="utf-8"))

    def runs(self, into: Path, *numbers: int) -> Path:
        """A ledger folder `into` holding copies of the runs `numbers`."""
        into.mkdir(parents=True, exist_ok=True)
        for number in numbers:
            shutil.copy2(self.folder / f"run-{number}.json", into / f"run-{number}.json")
        return into

    def repo_copy(self, into: Path) -> Path:
        """A copy of the repo a test may edit: its files are the runs' inputs wherever it lies."""
        return Path(shutil.copytree(self.repo, into, ignore=shutil.ignore_patterns(".skillscope")))


@pytest.fixture(scope="module")
def api():
    with FakeAPI() as server:
        yield server


@pytest.fixture(scope="module")
def ledger(api, claude_bin, tmp_path_factory) -> Ledger:
    tmp = tmp_path_factory.mktemp("ledger")
    repo = skills_repo(tmp / "repo", "alpha", "beta")
    env = routing_env(api.base_url, claude_bin, tmp / "home")
    with temp_under(tmp / "temp"):
        api.script(CaseRouter(PASSES))
        routed(repo, env, tmp / "runs", 1)
        api.script(CaseRouter(FAILS))
        routed(repo, env, tmp / "runs", 2)
    return Ledger(repo, tmp / "runs")


def test_a_decision_that_changes_while_nothing_else_did_is_flaky(ledger):
    first, second = ledger.report(1), ledger.report(2)
    assert valid(first) == [] and valid(second) == []
    a, b = (case_of(r, "alpha-pos-1") for r in (first, second))
    assert (a["status"], b["status"]) == ("pass", "fail")
    assert a["digests"] == b["digests"] and a["digests"]["agent"] and a["digests"]["room"]
    assert "alpha/SKILL.md" in first["meta"]["ledger"]["files"]
    assert not any(path.startswith("alpha/evals/") for path in first["meta"]["ledger"]["files"])

    shown = history(ledger.repo, str(ledger.folder), "--format", "json")
    assert shown.code == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert [e.message for e in schemas.validator("history-report").iter_errors(document)] == []
    states = {c["id"]: c["state"] for c in document["cases"]}
    assert states == {"alpha-pos-1": "flaky", "alpha-pos-2": "stable", "alpha-neg-1": "stable"}
    # Each run's digests are named by place in one table: the flaky case's two runs share one place.
    timeline = case_of(document, "alpha-pos-1")["timeline"]
    assert [document["digests"][spot] for spot in timeline["digests"]] == [a["digests"], b["digests"]]
    assert timeline["run"] == [0, 1] and timeline["status"] == ["pass", "fail"]
    assert len({len(column) for column in timeline.values()}) == 1  # one item a run in every column
    assert len(document["digests"]) == len({json.dumps(d, sort_keys=True) for d in document["digests"]})
    assert document["headline"] == "3 case(s) over 2 run(s): 1 flaky, 2 stable"
    text = history(ledger.repo, str(ledger.folder))
    assert (
        "FLAKY     routing alpha-pos-1 (alpha) on claude: PF  1 pass, 1 fail with unchanged inputs"
        in text.stdout
    )


def scripted_ledger(scripted: S.Scripted, tmp_path: Path, *tables: dict) -> tuple[Path, Path]:
    """A repo and a ledger folder holding one run on the scripted runtimes per table, for a test whose
    runs change the inputs between them. What history makes of a change is the harness's; that a real
    run's report carries what it reads is the module's shared runs on the real CLI."""
    repo, folder = skills_repo(tmp_path / "repo", "alpha", "beta"), tmp_path / "ledger"
    for number, table in enumerate(tables, 1):
        scripted.script(table)
        routed(repo, scripted.env, folder, number)
    return repo, folder


def test_an_edit_of_skill_md_between_runs_that_changes_the_verdict_is_a_regression_naming_it(
    scripted, tmp_path
):
    repo, folder = scripted_ledger(scripted, tmp_path, SCRIPTED_PASSES)
    skill_md = repo / "alpha" / "SKILL.md"
    skill_md.write_text(
        skill_md.read_text(encoding="utf-8") + "\nUse only for alpha reports.\n", encoding="utf-8"
    )
    scripted.script(SCRIPTED_FAILS)
    routed(repo, scripted.env, folder, 2)

    document = json.loads(history(repo, str(folder), "--format", "json").stdout)
    case = next(c for c in document["cases"] if c["id"] == "alpha-pos-1")
    assert (case["state"], case["changed"]) == ("regressed", ["alpha/SKILL.md"])
    assert case["reason"] == "pass -> fail when alpha/SKILL.md changed"
    markdown = history(repo, str(folder), "--format", "markdown").stdout
    assert markdown.startswith("## skillscope history: 3 case(s) over 2 run(s): 1 regressed, 2 stable")
    assert "| regressed | routing alpha-pos-1 (alpha) on claude | PF" in markdown


def test_pass_fail_pass_unchanged_then_a_fail_after_a_room_members_edit_is_flaky(scripted, tmp_path):
    """The audit's four runs: the flip among unchanged inputs comes first; the edit is not blamed."""
    repo, folder = scripted_ledger(scripted, tmp_path, SCRIPTED_PASSES, SCRIPTED_FAILS, SCRIPTED_PASSES)
    member = repo / "beta" / "SKILL.md"
    member.write_text(member.read_text(encoding="utf-8") + "\nUse only for beta reports.\n", encoding="utf-8")
    scripted.script(SCRIPTED_FAILS)
    routed(repo, scripted.env, folder, 4)

    document = json.loads(history(repo, str(folder), "--format", "json").stdout)
    case = case_of(document, "alpha-pos-1")
    assert case["timeline"]["status"] == ["pass", "fail", "pass", "fail"]
    assert case["state"] == "flaky"
    assert case["reason"] == "2 pass, 1 fail with unchanged inputs, before its inputs last changed"


def test_an_agent_change_is_named_by_what_moved_never_by_an_unchanged_version(scripted, tmp_path):
    """The same agent on another spelling of its endpoint: the agent's digest moves, its version does not."""
    repo, folder = scripted_ledger(scripted, tmp_path, SCRIPTED_PASSES)
    scripted.script(SCRIPTED_FAILS)
    endpoint = {"ANTHROPIC_BASE_URL": scripted.env["ANTHROPIC_BASE_URL"].rstrip("/") + "/"}
    routed(repo, {**scripted.env, **endpoint}, folder, 2)

    document = json.loads(history(repo, str(folder), "--format", "json").stdout)
    case = case_of(document, "alpha-pos-1")
    assert case["state"] == "regressed"
    assert case["reason"] == "pass -> fail when agent environment (ANTHROPIC_BASE_URL) changed"


def test_against_the_base_ledger_the_headline_counts_only_the_branch_s_cases(ledger, tmp_path):
    repo = ledger.repo_copy(tmp_path / "repo")
    base = ledger.runs(tmp_path / "main-ledger", 1)
    ledger.runs(repo / ".skillscope" / "runs", 2)
    # Default folder: the repo's .skillscope/runs/, where every run writes its report.
    shown = history(repo, "--against", str(base), "--against-name", "main", "--format", "markdown")
    assert shown.code == 0, shown.stderr
    assert shown.stdout.startswith("## skillscope history: against main: 1 flaky\n")


def test_the_page_draws_each_skill_s_accuracy_and_every_timeline(ledger, tmp_path):
    page_file = tmp_path / "history.html"
    shown = history(ledger.repo, str(ledger.folder), "--html", str(page_file))
    assert shown.code == 0, shown.stderr
    page = page_file.read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and "routing:alpha" in page  # one skill graded: one trend
    assert '<polyline class="trend" points="' in page
    assert "prefers-color-scheme: dark" in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert page.count('class="run pass"') == 5 and page.count('class="run fail"') == 1


def test_against_a_base_with_no_history_the_headline_says_so_and_counts_what_was_graded(ledger, tmp_path):
    """No all-clear from nothing: an empty base ledger (its first run on main has not been kept yet),
    or a branch whose runs graded nothing, is named as such."""
    base, branch = tmp_path / "main-ledger", ledger.runs(tmp_path / "branch-ledger", 1)
    base.mkdir()
    shown = history(ledger.repo, str(branch), "--against", str(base), "--against-name", "main")
    assert shown.code == 0, shown.stderr
    assert shown.stdout.startswith("history: against main: no history of main yet; 3 case(s) graded\n")
    # The other way round: main has a history, this branch's runs graded nothing.
    empty = tmp_path / "empty"
    empty.mkdir()
    shown = history(ledger.repo, str(empty), "--against", str(branch), "--against-name", "main")
    assert shown.stdout.startswith("history: against main: no case graded in this branch's runs\n")
    assert "nothing regressed" not in shown.stdout
