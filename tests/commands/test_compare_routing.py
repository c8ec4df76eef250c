"""`skillscope compare --mode routing` end to end: both versions in the real claude CLI against the
scripted fake API, which routes by what the installed description says."""

from __future__ import annotations

import io
import json
import subprocess
import tempfile
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support.helpers import make_skill
from tests.support.routing import live_processes_under, prompt_of, routing_env, skills_repo

EDITED = "Edited: also covers variant two."


@pytest.fixture(autouse=True)
def clean_runs(tmp_path, monkeypatch):
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    yield temp
    assert live_processes_under(temp) == []
    assert sorted(p.name for p in temp.iterdir() if p.name.startswith("skillscope-")) == []


@pytest.fixture
def env(fake_api, claude_bin, tmp_path):
    return routing_env(fake_api.base_url, claude_bin, tmp_path / "home")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path) -> Path:
    """alpha and beta committed; alpha's description then edited in the working tree."""
    root = skills_repo(tmp_path / "repo", "alpha", "beta")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "skills")
    description = f"Does the alpha job. Use when asked to alpha. {EDITED}"
    make_skill(root, "alpha", frontmatter={"name": "alpha", "description": description})
    return root


def edited(request) -> bool:
    return EDITED in json.dumps(request.body)


def router(request):
    """The original description wins alpha-pos-1 only; the edited one wins alpha-pos-2 only; beta
    takes alpha-pos-1 when alpha is absent; alpha-pos-3 always fires alpha."""
    if request.tool_results:
        return "done."
    prompt = request.prompt
    if prompt_of("alpha-pos-1") in prompt:
        if "Does the alpha job" not in json.dumps(request.body):
            return R.skill("beta")
        return "I will answer myself." if edited(request) else R.skill("alpha")
    if prompt_of("alpha-pos-2") in prompt:
        return R.skill("alpha") if edited(request) else "I will answer myself."
    if prompt_of("alpha-pos-3") in prompt:
        return R.skill("alpha")
    return "I can answer that directly."


def compare(repo: Path, env: dict, *args: str):
    output = repo.parent / "compare.json"
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    code = main(
        [
            "compare",
            "--repo",
            str(repo),
            "--output",
            str(output),
            "--skip-preflight",
            "--skill",
            "alpha",
            "--format",
            "markdown",
            *args,
        ],
        ctx,
    )
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


ONLY = ("--only", "alpha-pos-1,alpha-pos-2,alpha-pos-3", "--repeat", "1", "--routing-room", "alpha,beta")


def test_an_edit_that_loses_one_prompt_and_wins_another(fake_api, repo, env):
    fake_api.script(router)
    before = git(repo, "status", "--porcelain")
    code, out, err, report = compare(repo, env, "--baseline", "HEAD", *ONLY)
    assert code == 1, err
    labels = {c["id"]: c["label"] for c in report["cases"]}
    assert labels == {"alpha-pos-1": "regression", "alpha-pos-2": "improvement", "alpha-pos-3": "same-pass"}
    assert "1 regressions, 1 improvements" in out
    assert schemas.errors("compare", report) == []
    assert report["meta"]["source"] == "live" and report["meta"]["baseline"] == "HEAD"
    # The ref was read with git archive: the working tree still holds the edit, untouched.
    assert git(repo, "status", "--porcelain") == before == " M alpha/SKILL.md\n"
    assert EDITED in (repo / "alpha" / "SKILL.md").read_text("utf-8")


def test_a_529_on_one_side_is_an_error_never_a_regression(fake_api, repo, env):
    def overloaded_baseline(request):
        if not request.tool_results and prompt_of("alpha-pos-1") in request.prompt and not edited(request):
            return R.error(529)
        return router(request)

    fake_api.script(overloaded_baseline)
    code, _out, err, report = compare(repo, env, "--baseline", "HEAD", *ONLY)
    case = next(c for c in report["cases"] if c["id"] == "alpha-pos-1")
    assert case["label"] == "error" and "529" in case["baseline"]["error"]
    assert report["labels"]["regression"] == 0 and report["labels"]["improvement"] == 1
    assert code == 0, err


def test_baseline_none_shows_which_other_skill_took_the_prompt(fake_api, repo, env):
    fake_api.script(router)
    code, out, err, report = compare(repo, env, "--baseline", "none", *ONLY)
    case = next(c for c in report["cases"] if c["id"] == "alpha-pos-1")
    assert case["baseline"]["outcome"] == "beta" and case["label"] == "changed"  # failed either way
    assert report["lift"] == {
        "no_lift": [],
        "needs_skill": ["alpha-pos-2", "alpha-pos-3"],
        "taken_by": {"alpha-pos-1": "beta"},
    }
    assert "fail: beta" in out and "`alpha-pos-1` by `beta`" in out and code == 0, err


def test_an_unknown_ref_is_one_usage_error_before_any_run(fake_api, repo, env):
    code, _out, err, _report = compare(repo, env, "--baseline", "no-such-ref", *ONLY)
    assert code == 2 and "--baseline no-such-ref: not a folder and not a git ref" in err
    assert fake_api.requests == []


def test_a_candidate_from_a_ref_is_located_at_the_working_tree_dataset(fake_api, repo, env):
    fake_api.script(router)
    code, _out, err, report = compare(
        repo, env, "--candidate", "HEAD", "--baseline", "none", "--only", "alpha-pos-3", "--repeat", "1"
    )
    (case,) = report["cases"]
    assert case["source"] == "alpha/evals/evals.json" and case["line"], err
    assert case["label"] == "improvement" and code == 0
    assert report["meta"]["candidate"] == "HEAD"
