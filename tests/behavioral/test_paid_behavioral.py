"""What a behavioral run spends, end to end with the real claude CLI against the scripted fake API: the
result cache, the run's spend cap and dry runs. Request counts are read from the fake server. What
else the cache keys on (a file a hook reads, one skill's text), that it never keeps an error, and what
a dry run imports are the harness's alone: those run on the scripted runtimes
(tests/support/scripted.py), counting the runs they are asked for.

The cache's tests start where one first run of both cases left the repo and the result cache: that run
is made once for the module (one scripted server, whose address is part of every key), and each such
test gets the repo and the cache back as it left them (`warm`).
"""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import __version__, schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.routing import routing_env, skills_repo
from tests.support.temp_dirs import temp_under

BOTH = "alpha-pos-1,beta-pos-1"  # the default datasets' only cases with an expected behaviour


pytestmark = [pytest.mark.usefixtures("private_temp"), pytest.mark.xdist_group("paid-behavioral")]


@pytest.fixture
def env(fake_api, claude_bin, tmp_path):
    fake_api.script(model)
    return routing_env(fake_api.base_url, claude_bin, tmp_path / "home")


JUDGED = json.dumps({"verdicts": [{"id": "E1", "pass": True, "reason": "it did"}]})


def model(request):
    """The agent does the job in one turn; the judge finds the expected behaviour."""
    if request.prompt.startswith(JUDGE_HEADER):
        return R.text(JUDGED)
    return "Done: the job is finished."


def scripted_model(scripted: S.Scripted) -> None:
    """`model` on the scripted runtimes: each case is one agent run and one judge run."""
    scripted.script({JUDGE_HEADER: S.says(JUDGED)}, default=S.says("Done: the job is finished."))


def behave(repo: Path, env: dict, *args: str) -> tuple[int, str, str, dict | None]:
    output = repo.parent / "behavioral.json"
    output.unlink(missing_ok=True)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = [
        "behavioral",
        "--repo",
        str(repo),
        "--skip-preflight",
        "--model",
        "claude-fake-1",
        "--format",
        "markdown",
    ]
    code = main([*argv, "--output", str(output), "--only", BOTH, *args], ctx)
    report = json.loads(output.read_text()) if output.exists() else None
    if report is not None:
        assert [e.message for e in schemas.validator("behavioral-report").iter_errors(report)] == []
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


def statuses(report: dict) -> dict[str, tuple[str, bool]]:
    return {c["id"]: (c["status"], c["cached"]) for c in report["cases"]}


GOLDEN_HOOK = """
from pathlib import Path


def check(run, case, ctx):
    verdict = (Path(__file__).parent / "golden.txt").read_text().strip()
    assert verdict == "PASS", f"the answer key says {verdict}"
"""


def golden_repo(root: Path) -> Path:
    """alpha and beta; alpha's hook reads evals/golden.txt, which says PASS."""
    repo = skills_repo(root, "alpha", "beta")
    (repo / "alpha" / "evals" / "hooks.py").write_text(GOLDEN_HOOK)
    (repo / "alpha" / "evals" / "golden.txt").write_text("PASS\n")
    return repo


@dataclass(frozen=True)
class FirstRun:
    """The module's first run of both cases: its repo (alpha's hook reads evals/golden.txt, which says
    PASS) and environment, its report, and the model calls it made."""

    repo: Path
    env: dict[str, str]
    report: dict
    turns: int

    @property
    def home(self) -> Path:
        return Path(self.env["HOME"])  # the result cache lives under it

    def saved(self, live: Path) -> Path:
        return live.with_name(live.name + ".saved")


@pytest.fixture(scope="module")
def api():
    with FakeAPI() as server:
        yield server


@pytest.fixture(scope="module")
def first_run(api, claude_bin, tmp_path_factory) -> FirstRun:
    tmp = tmp_path_factory.mktemp("first-run")
    repo = golden_repo(tmp / "repo")
    env = routing_env(api.base_url, claude_bin, tmp / "home")
    api.script(model)
    with temp_under(tmp / "temp"):
        code, _, stderr, report = behave(repo, env)
    assert code == 0, stderr
    assert report is not None
    done = FirstRun(repo, env, report, len(api.agent_turns()))
    for live in (done.repo, done.home):
        shutil.copytree(live, done.saved(live), symlinks=True)
    return done


@pytest.fixture
def warm(first_run, api) -> FirstRun:
    """The repo and the result cache as the first run left them, and the server's log empty."""
    for live in (first_run.repo, first_run.home):
        shutil.rmtree(live)
        shutil.copytree(first_run.saved(live), live, symlinks=True)
    api.forget()
    api.script(model)
    return first_run


@pytest.fixture
def scripted_first(scripted, tmp_path) -> Path:
    """`first_run` on the scripted runtimes, made for the test: the repo it leaves, its result cache
    under the stand-in's HOME."""
    repo = golden_repo(tmp_path / "repo")
    scripted_model(scripted)
    code, _, stderr, report = behave(repo, scripted.env)
    assert code == 0, stderr
    assert report is not None and statuses(report) == {
        "alpha-pos-1": ("pass", False),
        "beta-pos-1": ("pass", False),
    }
    assert len(scripted.case_runs()) == 4  # an agent run and a judge run per case, as on the real CLI
    return repo


def test_an_unchanged_second_run_makes_no_request(api, warm):
    first, repo, env = warm.report, warm.repo, warm.env
    assert warm.turns == 4  # an agent turn and a judge call per case
    code, stdout, stderr, second = behave(repo, env)
    assert code == 0, stderr
    assert api.agent_turns() == []
    assert statuses(second) == {"alpha-pos-1": ("pass", True), "beta-pos-1": ("pass", True)}
    totals = second["totals"]
    assert (totals["cached"], totals["agent"]["calls"], totals["agent"]["cost_usd"]) == (2, 0, None)
    spent = first["totals"]["agent"]["cost_usd"] + first["totals"]["judge"]["cost_usd"]
    assert totals["cost_saved_usd"] == pytest.approx(spent)
    assert second["cases"][0]["checks"] == first["cases"][0]["checks"]
    made_by = {"started_at": first["started_at"], "harness_version": __version__}
    assert [c["cached_from"] for c in second["cases"]] == [made_by, made_by]
    assert [c["cached_from"] for c in first["cases"]] == [None, None]
    said = f"2 of 2 cases replayed from the result cache (made by the run of {first['started_at']})"
    assert f"{said}, saving $" in stdout
    assert str(second["meta"]["cache"]).startswith(str(Path(env["HOME"]) / ".cache" / "skillscope"))
    code, text, stderr, _ = behave(repo, env, "--format", "text")
    assert code == 0, stderr
    assert f"2/2 case(s) passed; 0 failed, 0 errored; {said}" in text


def test_a_changed_file_the_hook_reads_reruns_the_case(scripted, scripted_first):
    # What the key holds is the harness's; a changed key run again on the real CLI is
    # test_the_run_cap_of_one_case_and_the_model_the_environment_chooses_are_in_the_key.
    (scripted_first / "alpha" / "evals" / "golden.txt").write_text("FAIL\n")
    code, _, _, report = behave(scripted_first, scripted.env)
    rerun = scripted.case_runs()[4:]
    assert code == 1 and len(rerun) == 2  # alpha's case ran again; beta's is cached
    assert "the alpha job" in rerun[0].prompt
    assert statuses(report) == {"alpha-pos-1": ("fail", False), "beta-pos-1": ("pass", True)}


def test_the_run_cap_of_one_case_and_the_model_the_environment_chooses_are_in_the_key(api, warm):
    repo, env = warm.repo, warm.env
    code, _, _, report = behave(repo, env, "--only", "alpha-pos-1", "--max-budget-usd", "0.0000001")
    assert len(api.agent_turns()) > 0 and code == 1  # run again, and the cap stopped it
    assert statuses(report) == {"alpha-pos-1": ("error", False)}
    sent = len(api.agent_turns())
    code, _, stderr, report = behave(
        repo, {**env, "ANTHROPIC_SMALL_FAST_MODEL": "claude-other-2"}, "--only", "alpha-pos-1"
    )
    assert code == 0, stderr
    assert len(api.agent_turns()) == sent + 2 and statuses(report) == {"alpha-pos-1": ("pass", False)}


def test_editing_one_skill_reruns_only_its_own_cases(scripted, scripted_first):
    # As above: a changed key run again on the real CLI is the run-cap-and-model test's.
    skill_md = scripted_first / "alpha" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nOne more line of instructions.\n")
    code, _, stderr, report = behave(scripted_first, scripted.env)
    assert code == 0, stderr
    rerun = scripted.case_runs()[4:]
    assert len(rerun) == 2 and "the alpha job" in rerun[0].prompt
    assert statuses(report) == {"alpha-pos-1": ("pass", False), "beta-pos-1": ("pass", True)}


def test_an_errored_case_is_never_cached(scripted, scripted_first):
    # What the cache keeps is the harness's; an API error through the real CLI is
    # tests/routing/test_routing_cli.py::test_an_overloaded_api_is_an_error_not_a_miss, and a replay
    # through it test_an_unchanged_second_run_makes_no_request.
    skill_md = scripted_first / "alpha" / "SKILL.md"  # alpha's case is no longer cached; beta's is
    skill_md.write_text(skill_md.read_text() + "\nOne more line of instructions.\n")
    overloaded = S.fails("API Error: 529 Overloaded")
    scripted.script({JUDGE_HEADER: S.says(JUDGED), "alpha job": overloaded}, default=S.says("Done."))
    code, _, _, report = behave(scripted_first, scripted.env)
    assert code == 1 and statuses(report) == {"alpha-pos-1": ("error", False), "beta-pos-1": ("pass", True)}
    scripted_model(scripted)
    code, _, stderr, report = behave(scripted_first, scripted.env)
    assert code == 0, stderr
    assert statuses(report) == {"alpha-pos-1": ("pass", False), "beta-pos-1": ("pass", True)}
    assert len(scripted.case_runs()) == 4 + 1 + 2  # the first run's; alpha's error; alpha again, judged


def test_no_case_starts_past_the_run_cap_and_the_run_fails_saying_why(fake_api, repo, env):
    code, _, stderr, report = behave(repo, env, "--no-cache", "--max-run-usd", "0.0001")
    assert code == 1 and len(fake_api.agent_turns()) == 2  # the first case, then the cap was reached
    assert statuses(report) == {"alpha-pos-1": ("pass", False), "beta-pos-1": ("not-run", False)}
    assert report["totals"]["not_run"] == 1 and report["meta"]["max_run_usd"] == 0.0001
    assert "1 did not run: the run had spent $0.0" in stderr and "--max-run-usd of $0.0001" in stderr
    assert "[2/2] [NOT-RUN] beta-pos-1: not run: " in stderr


def test_a_dry_run_sends_nothing(api, warm):
    skill_md = warm.repo / "beta" / "SKILL.md"  # beta's case is no longer cached; alpha's is
    skill_md.write_text(skill_md.read_text() + "\nOne more line of instructions.\n")
    code, stdout, stderr, report = behave(warm.repo, warm.env, "--dry-run")
    assert code == 0, stderr
    assert api.requests == [] and report is None
    assert "alpha-pos-1 (alpha): cached; Please do the alpha job, variant 1." in stdout
    assert "beta-pos-1 (beta): not cached;" in stdout
    assert "--permission-mode acceptEdits" in stdout and '"PostToolUse"' not in stdout
    assert "Estimate: 2 sample(s); 1 from the result cache" in stdout
    assert "Model requests: at least 2 (2 per case; the agent's work takes more)." in stdout


HOOKS_THAT_MARK = """
from pathlib import Path

Path(__file__).with_name("imported.marker").write_text("the repo's code ran")


def check(run, case, ctx):
    return None  # passes: the test is about when the module is imported
"""


def test_a_dry_run_runs_no_repo_code_and_still_lists_a_case_its_hooks_check(scripted, repo):
    """A dry run prices an untrusted change: its hooks.py is read, never imported. What is imported when
    is the harness's; a real claude dry run is test_a_dry_run_sends_nothing."""
    scripted_model(scripted)
    hooks = repo / "alpha" / "evals" / "hooks.py"
    hooks.write_text(HOOKS_THAT_MARK, encoding="utf-8")
    code, stdout, stderr, _ = behave(
        repo, scripted.env, "--dry-run", "--only", "alpha-pos-2"
    )  # no expectation: hooks'
    assert code == 0, stderr
    assert not (hooks.parent / "imported.marker").exists()
    assert "alpha-pos-2 (alpha): not cached;" in stdout and scripted.runs == []
    code, _, stderr, report = behave(repo, scripted.env, "--only", "alpha-pos-2")
    assert code == 0, stderr
    assert (hooks.parent / "imported.marker").exists()  # the real run does import it
