"""`skillscope compare` across models: --baseline-model puts the two sides on two models, and --model
naming several runs the whole comparison on each model, side by side, labelled case by case.

Which side runs on which model, the legs, their labels, reports and kept transcripts are the
harness's: the runs are the scripted stand-in's (tests/support/scripted.py), whose model reads the
installed description from its workspace as the fake API's reads it from the request. That the real
claude CLI runs each leg on its own model is
tests/routing/test_routing_models.py::test_two_models_are_two_legs_in_every_format_and_the_cache_keeps_them_apart,
and a comparison on the real CLI is tests/commands/test_compare_routing.py's."""

from __future__ import annotations

import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from harness.report import html
from tests.support import scripted as S
from tests.support.routing import skills_repo

A, B = "claude-fake-a", "claude-fake-b"
ANSWERS_ITSELF = S.says("I will answer myself.")


def by_model(answers: dict[str, S.Scripting]) -> S.Script:
    """Each run answered as its model's entry says."""

    def answer(ran: S.Ran) -> S.Answer:
        given = answers[ran.model or ""]
        return given(ran) if callable(given) else given  # type: ignore[return-value]

    return answer


def run(repo: Path, env: dict, *argv: str) -> tuple[int, dict, str, str]:
    output = repo.parent / "report.json"
    output.unlink(missing_ok=True)
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main([*argv, "--repo", str(repo), "--output", str(output), "--format", "markdown"], ctx)
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, report, ctx.stdout.getvalue(), ctx.stderr.getvalue()


@pytest.mark.usefixtures("private_temp")
def test_the_same_skill_on_two_models_is_labelled_case_by_case(scripted, tmp_path):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    # Model a (the baseline) misses alpha-pos-2; model b (the candidate) fires alpha on both.
    misses = by_model({A: ANSWERS_ITSELF, B: S.fires("alpha")})
    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-pos-2": misses})
    code, report, out, err = run(
        repo,
        scripted.env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1,alpha-pos-2", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", "alpha", "--model", B, "--baseline-model", A),  # the same folder: only the model
        "--no-canary",  # each model's canary is tested in tests/routing/test_canary.py
    )
    assert code == 0, err[-3000:]
    assert schemas.errors("compare", report) == []
    assert {c["id"]: c["label"] for c in report["cases"]} == {
        "alpha-pos-1": "same-pass",
        "alpha-pos-2": "improvement",
    }
    agent = report["meta"]["agent"]
    assert (agent["model"], agent["baseline"]["model"]) == (B, A)
    assert {ran.model for ran in scripted.case_runs()} == {A, B}
    assert f"Sides: baseline claude on {A}, candidate claude on {B}." in out
    assert "1 improvements" in out and re.search(r"95% interval|interval", out)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("routing", "--model", "a,,b"), "--model: every entry must be a non-empty string."),
        (("routing", "--model", "claude="), "--model: 'claude=' names no model id"),
        (("routing", "--model", "cursor=flash"), "is for agent 'cursor', which skillscope does not know"),
        (("routing", "--model", "two words"), "'two words' is not a model id"),
        (("cost", "hello", "--model", "a,-b"), "'-b' is not a model id"),
        (
            ("compare", "--skill", "alpha", "--model", "a,b", "--baseline-model", "c"),
            "--baseline-model runs the baseline side elsewhere",
        ),
        (
            ("compare", "--skill", "alpha", "--model", "a,b", "--baseline-agent", "codex"),
            "give one --model, or leave --baseline-agent out",
        ),
    ],
)
def test_a_bad_model_list_is_a_usage_error_in_one_sentence(tmp_path, argv, said):
    """Refused before any agent starts: no CLI is even looked for."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    env = {"PATH": "", "HOME": str(tmp_path / "home")}
    code, _report, _out, err = run(repo, env, *argv, "--dry-run")
    assert code == 2, err
    (line,) = [line for line in err.splitlines() if line.strip()]
    assert said in line and line.count(". ") == 0, line


def reworded_alpha(repo: Path, tmp_path: Path) -> Path:
    """alpha's description opened with "Tidy PDFs." in the working tree; the folder as it was, returned
    to pass as --baseline."""
    baseline = tmp_path / "alpha-before"
    shutil.copytree(repo / "alpha", baseline)
    skill_md = repo / "alpha" / "SKILL.md"
    skill_md.write_text(
        skill_md.read_text("utf-8").replace("Does the alpha job.", "Tidy PDFs. Does the alpha job.")
    )
    return baseline


@pytest.mark.usefixtures("private_temp")
def test_a_model_list_runs_the_whole_comparison_on_each_model(scripted, tmp_path):
    """The candidate's new wording helps on model a and changes nothing on model b: each model's
    comparison is its own leg, and the case whose label differs is listed first."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    baseline = reworded_alpha(repo, tmp_path)

    def on_a(
        ran: S.Ran,
    ) -> S.Answer:  # model a fires alpha on pos-2 only when the candidate's words are installed
        return S.fires("alpha") if "Tidy PDFs." in ran.listing.get("alpha", "") else ANSWERS_ITSELF

    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-pos-2": by_model({A: on_a, B: ANSWERS_ITSELF})})
    env = scripted.env
    logs = tmp_path / "logs"
    code, report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1,alpha-pos-2", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", str(baseline), "--model", f"{A},{B}", "--keep-logs", str(logs)),
    )
    assert code == 0, err[-3000:]
    assert report["command"] == "compare-matrix"
    assert schemas.errors("compare-matrix-report", report) == []
    for leg_run in report["runs"]:
        assert schemas.errors("compare", leg_run) == []
    legs = {leg["leg"]: leg for leg in report["legs"]}
    assert list(legs) == [f"claude@{A}", f"claude@{B}"]
    assert [leg["model"] for leg in legs.values()] == [A, B]
    assert legs[f"claude@{A}"]["labels"]["improvement"] == 1
    assert legs[f"claude@{B}"]["labels"]["same-fail"] == 1
    routing_a = legs[f"claude@{A}"]["by_mode"]["routing"]
    assert (routing_a["baseline_rate"], routing_a["candidate_rate"], routing_a["difference"]) == (
        0.5,
        1.0,
        0.5,
    )
    assert routing_a["low"] < 0 < routing_a["high"] and not routing_a["beyond_noise"]  # two cases: noise
    (between,) = report["differences"]
    assert (between["mode"], between["a"], between["b"]) == ("routing", f"claude@{A}", f"claude@{B}")
    assert (between["rate_a"], between["rate_b"], between["difference"]) == (1.0, 0.5, -0.5)
    first, second = report["cases"]
    assert (first["id"], first["differs"]) == ("alpha-pos-2", True)
    assert first["by_leg"] == {f"claude@{A}": "improvement", f"claude@{B}": "same-fail"}
    assert (second["id"], second["differs"]) == ("alpha-pos-1", False)
    assert {ran.model for ran in scripted.case_runs()} == {A, B}
    # every format says each model: markdown on stdout, the text headline, the page
    assert "## Skill compare across models" in out
    assert re.search(rf"\| claude@{A} +\| {A} +\| routing +\| 0 +\| 1 ", out), out
    assert "### Between models" in out and "candidate's pass rate" in out
    page = html.render(report)
    assert f"Model claude@{A}" in page and f"Model claude@{B}" in page
    assert "Cases (1 labelled differently between models, listed first)" in page
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "each leg's case table has its own ids"
    # each model's transcripts in a folder of its own, one per side
    assert {p.relative_to(logs).parts[:2] for p in logs.rglob("*.jsonl")} == {
        (f"claude@{A}", "baseline"),
        (f"claude@{A}", "candidate"),
        (f"claude@{B}", "baseline"),
        (f"claude@{B}", "candidate"),
    }
    # show --html puts each model's transcripts under its own section, with the kept logs' leg
    page_path = tmp_path / "page.html"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    assert main(["show", str(repo.parent / "report.json"), "--html", str(page_path)], ctx) == 0
    shown = page_path.read_text("utf-8")
    for leg in (A, B):
        own = shown[shown.index(f"Model claude@{leg}") :]
        own = own[: own.index("</section>", own.index("cases-claude-claude-fake"))]
        assert own.count("transcript: claude@") >= 4, leg  # two cases, both sides, this leg's logs only
        assert (
            f"transcript: claude@{leg}/" in own and f"transcript: claude@{({A, B} - {leg}).pop()}/" not in own
        )


@pytest.mark.usefixtures("private_temp")
def test_a_regression_on_one_model_fails_the_matrix_and_says_where(scripted, tmp_path):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    baseline = reworded_alpha(repo, tmp_path)

    def on_b(ran: S.Ran) -> S.Answer:  # model b stops firing alpha once the candidate's words are installed
        return ANSWERS_ITSELF if "Tidy PDFs." in ran.listing.get("alpha", "") else S.fires("alpha")

    scripted.script({"alpha-pos-1": by_model({A: S.fires("alpha"), B: on_b})})
    junit = tmp_path / "junit.xml"
    code, report, _out, err = run(
        repo,
        scripted.env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", str(baseline), "--model", f"{A},{B}", "--junit", str(junit), "--no-canary"),
    )
    assert code == 1, err[-3000:]
    assert [leg["passed"] for leg in report["legs"]] == [True, False]
    assert report["counts"] == {"total": 2, "pass": 1, "fail": 1, "error": 0}
    assert f"failed on claude@{B}: 1 regression(s)" in err
    assert f"failed on claude@{A}" not in err
    classes = {case.get("classname").split(".")[0] for case in ET.parse(junit).iter("testcase")}
    assert classes == {f"claude@{A}", f"claude@{B}"}


def test_a_model_list_dry_run_prints_each_model_and_sends_nothing(fake_api, claude_bin, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    code, report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1", "--repeat", "1", "--baseline", "alpha", "--model", f"{A},{B}"),
        "--dry-run",
    )
    assert code == 0, err
    assert report == {}
    assert f"## Compare dry run: nothing was sent (claude@{A})" in out
    assert f"## Compare dry run: nothing was sent (claude@{B})" in out
    assert f"--model {A}" in out and f"--model {B}" in out
    assert fake_api.requests == []
