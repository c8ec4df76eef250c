"""A run that ends the way its runtime declares its own failure gets one fresh retry before it is an
error, and every report format says so: the real Gemini CLI, whose model stream the fake API cuts
short (as an overloaded server did) until the case runs in a fresh workspace.

One run serves the tests on the real CLI: one case whose stream is cut only in its first workspace.
Gemini CLI retries a cut stream itself, waiting 1, 2 and 4 s between tries, before it gives up with the
error the harness retries on. The run sets the CLI's documented `general.maxAttempts` to 1 in a system
settings file (passed through with `--pass-env`), so it gives up with that error at once. The CLI skips
that file when a folder above it is writable by others; the run then only takes longer. That a retry
that fails too is an error and never a third run is the harness's, on the scripted runtimes.
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakeapi import FakeAPI, RecordedRequest
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, endpoint_env, find_runtime
from tests.support import scripted as S
from tests.support.routing import (
    Routed,
    live_processes_under,
    prompt_of,
    route,
    routing_env,
    shown,
    skills_repo,
    valid,
)

pytestmark = pytest.mark.xdist_group("gemini-retry")

EARLY_END = "gemini's model stream ended early"
RECOVERS, NEVER = "alpha-pos-1", "alpha-pos-2"
# Read from the checkout: Gemini CLI refuses a system settings file under the world-writable temp folder.
NO_RETRIES = Path(__file__).parent / "gemini_no_retries" / "settings.json"
SYSTEM_SETTINGS = "GEMINI_CLI_SYSTEM_SETTINGS_PATH"


class CutShortInFirst:
    """Every model stream of the case's first workspace ends early; in any other workspace the model
    picks alpha."""

    def __init__(self):
        self.first: str | None = None  # the case's first workspace
        self.lock = threading.Lock()

    def __call__(self, request: RecordedRequest):
        if request.tool_results:
            return "done."
        if prompt_of(RECOVERS) not in request.prompt:
            return None
        with self.lock:
            self.first = self.first or request.cwd
        if request.cwd == self.first:
            return R.cut_short()
        return R.skill_for("gemini", "alpha")


@dataclass
class Retried:
    done: Routed
    junit: Path
    workspaces: set[str]  # the workspaces the case's model calls came from


@pytest.fixture(scope="module")
def retried(tmp_path_factory, claude_bin, kept_probes):
    binary = find_runtime("gemini")
    if binary is None:
        pytest.fail(f"the gemini CLI is needed: set {TEST_ENV['gemini']}=/path/to/gemini", pytrace=False)
    root = tmp_path_factory.mktemp("retry")
    temp = root / "temp"  # the harness's temporary folders, as the private_temp fixture gives a test
    temp.mkdir()
    with FakeAPI() as api, pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(temp))
        env = routing_env(api.base_url, claude_bin, root / "home", probes=kept_probes)
        env.update(SKILLSCOPE_GEMINI=binary, **endpoint_env("gemini", api.base_url))
        env[SYSTEM_SETTINGS] = str(NO_RETRIES)
        repo = skills_repo(root / "repo", "alpha", "beta")
        api.script(CutShortInFirst())
        junit = root / "junit.xml"
        done = route(
            repo, env, "--agent", "gemini", "--only", RECOVERS, "--routing-room", "all",
            "--skip-preflight", "--model", GEMINI_MODEL, "--min-accuracy", "0", "--junit", str(junit),
            "--pass-env", SYSTEM_SETTINGS,
        )  # fmt: skip
        assert live_processes_under(temp) == []
        workspaces = {r.cwd for r in api.agent_turns() if prompt_of(RECOVERS) in r.prompt}
    return Retried(done, junit, workspaces)


def test_the_run_with_a_retried_case_is_reported(retried):
    done = retried.done
    assert done.code == 0, done.stderr[-3000:]
    assert valid(done.report) == []


def test_an_early_end_of_the_stream_is_retried_once_fresh_and_every_report_says_so(retried):
    done = retried.done
    case = done.case(RECOVERS)
    assert (case["verdict"], case["error"]) == ("correct_trigger", None)
    assert case["retried"].startswith(EARLY_END) and case["samples"][0]["retried"] == case["retried"]
    assert len(retried.workspaces) == 2  # the retry ran in a workspace of its own
    assert "### Retried cases" in done.stdout and EARLY_END in done.stdout  # markdown
    assert f"retried once, fresh: {EARLY_END}" in retried.junit.read_text(encoding="utf-8")
    text = shown(done.output, "text", {})
    assert f"routing case `{RECOVERS}` was run once more, fresh: {EARLY_END}" in text
    assert "1 retried after its agent CLI failed on its own" in text


def test_an_early_end_in_the_retry_too_is_an_error_that_says_it_was_retried(scripted, tmp_path):
    """Gemini scripted, one case's every run ending as its CLI gives up on a cut stream: retried once,
    fresh, then an error saying so. The real CLI's failure being recognised is the shared run above."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    cut = S.cli_fails("Model stream ended without a finish reason.")
    scripted.script({RECOVERS: S.fires("alpha"), NEVER: cut})
    done = route(
        repo, scripted.env, "--agent", "gemini", "--only", f"{RECOVERS},{NEVER}", "--routing-room", "all",
        "--skip-preflight", "--model", GEMINI_MODEL, "--min-accuracy", "0",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    case = done.case(NEVER)
    assert case["verdict"] == "error" and "Model stream ended without a finish reason" in case["error"]
    assert case["retried"].startswith(EARLY_END)
    runs = [ran for ran in scripted.case_runs() if prompt_of(NEVER) in ran.prompt]
    assert len({ran.spec.workspace for ran in runs}) == len(runs) == 2  # once more, fresh, never a third
    assert done.report["totals"]["errors"] == 1 and done.report["totals"]["graded"] == 1
