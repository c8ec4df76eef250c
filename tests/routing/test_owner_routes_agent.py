"""A negative naming its `owner`, routed by the real claude CLI against the scripted API: the owner
firing passes, the dataset's own skill firing is its false trigger with advice to narrow it, an owner
outside the room is never run and names the flag that installs it; and every fraction a run reports (the
text summary, the markdown, the JSON totals, the page) comes from one count of its cases, with errors,
that ungradable case, a provisional case and repeats in the same run (counting is the harness's alone:
that run is the scripted stand-in's, tests/support/scripted.py)."""

from __future__ import annotations

import re

import pytest

from harness.report import html
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.helpers import make_skill
from tests.support.routing import CaseRouter, route, routing_env, valid

pytestmark = pytest.mark.usefixtures("clean_runs")

OWNER_FIRES = "Write a word document with tracked changes."
OWN_FIRES = "Export this word memo with its review comments."
OWNER_OUTSIDE = "Build a slide deck from these notes."
API_FAILS = "Summarise this email thread for me."


@pytest.fixture
def catalog(tmp_path):
    """`pdf` with a dataset whose negatives name their owners; `docx` and `pptx` without datasets."""
    repo = tmp_path / "repo"
    evaluations = [
        {"id": "pdf-pos-1", "prompt": "Merge these two pdf files.", "skill_should_trigger": True},
        {
            "id": "pdf-pos-2",
            "prompt": "Split this pdf by page.",
            "skill_should_trigger": True,
            "trust_level": "provisional",
        },
        {
            "id": "pdf-pos-3",
            "prompt": "Fill in the pdf form.",
            "skill_should_trigger": True,
            "expected_behavior": ["fills the form"],
        },
        {"id": "pdf-neg-docx", "prompt": OWNER_FIRES, "skill_should_trigger": False, "owner": "docx"},
        {"id": "pdf-neg-memo", "prompt": OWN_FIRES, "skill_should_trigger": False, "owner": "docx"},
        {"id": "pdf-neg-deck", "prompt": OWNER_OUTSIDE, "skill_should_trigger": False, "owner": "pptx"},
        {"id": "pdf-neg-mail", "prompt": API_FAILS, "skill_should_trigger": False},
    ]
    make_skill(repo, "pdf", evals={"evaluations": evaluations})
    make_skill(repo, "docx", evals=None)
    make_skill(repo, "pptx", evals=None)
    return repo


def test_the_owner_firing_passes_and_the_datasets_own_skill_firing_is_its_false_trigger(
    fake_api, claude_bin, catalog, tmp_path, kept_probes
):
    fake_api.script(CaseRouter({OWNER_FIRES: R.skill("docx"), OWN_FIRES: R.skill("pdf")}))
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    run = route(
        catalog, env, "--routing-room", "catalog", "--skip-preflight", "--no-canary", "--no-cache",
        "--min-accuracy", "0", "--only", "pdf-neg-docx,pdf-neg-memo",
    )  # fmt: skip
    assert run.code == 0, run.stderr
    report = run.report
    assert valid(report) == []
    took = run.case("pdf-neg-docx")
    assert (took["expect"], took["observed"], took["verdict"], took["passed"]) == (
        "docx", "docx", "correct_trigger", True,
    )  # fmt: skip
    assert took["samples"][0]["verdict"] == "correct_trigger"
    own = run.case("pdf-neg-memo")
    assert (own["expect"], own["observed"], own["verdict"], own["passed"]) == (
        "docx",
        "pdf",
        "false_trigger",
        False,
    )
    # The advice narrows the skill that took the owner's prompt, never the owner.
    advice = (
        "`pdf`'s description claims a prompt that belongs to `docx`: narrow `pdf`'s description, or "
        "widen `docx`'s"
    )
    assert advice in run.stdout
    assert "narrow `docx`" not in run.stdout
    assert (
        report["per_skill"]["docx"]["correct"] == 1
        and report["per_skill"]["pdf"]["fired_when_not_expected"] == 1
    )
    assert "expected docx (the prompt's owner; not pdf) -> got docx" in run.progress["pdf-neg-docx"]


FRACTION = re.compile(r"(\d+)/(\d+) correct")


def test_every_fraction_a_run_reports_comes_from_one_count(scripted, catalog, tmp_path):
    scripted.script(
        {
            "Merge these two pdf": S.fires("pdf"),
            "Split this pdf": [S.fires("pdf"), S.NO_SKILL],
            OWNER_FIRES: S.fires("docx"),
            OWN_FIRES: S.fires("pdf"),
            API_FAILS: S.fails("the API answered 529 (overloaded)"),
            OWNER_OUTSIDE: S.fires("pdf"),  # never asked: its owner is not installed
        }
    )
    summary = tmp_path / "summary.md"
    run = route(
        catalog, scripted.env, "--routing-room", "pdf,docx", "--skip-preflight", "--no-canary", "--no-cache",
        "--repeat", "2", "--min-accuracy", "0", "--summary", str(summary), "--format", "text",
        "--only", "pdf-pos-1,pdf-pos-2,pdf-neg-docx,pdf-neg-memo,pdf-neg-deck,pdf-neg-mail",
    )  # fmt: skip
    assert run.code == 0, run.stderr
    report = run.report
    assert valid(report) == []
    assert not any(OWNER_OUTSIDE in ran.prompt for ran in scripted.runs)
    assert len(scripted.runs) == 2 * 5  # the five cases in the room, twice each
    deck = run.case("pdf-neg-deck")
    assert deck["verdict"] == "error" and deck["samples"] == []
    assert deck["error"] == (
        "pptx is not in the room, so the case cannot be graded (an agent cannot choose a skill it was not "
        "given); `--routing-room pdf,docx,pptx` puts it in"
    )
    assert run.case("pdf-neg-mail")["verdict"] == "error"

    totals, gated = report["totals"], report["totals"]["gated"]
    # 6 cases: 2 errors (the API's and the owner outside), 4 graded, 2 of them passing; the gate leaves
    # out the provisional one (which failed: its samples split, the stricter reading wins).
    assert (totals["cases"], totals["graded"], totals["passed"], totals["errors"]) == (6, 4, 2, 2)
    assert (gated["graded"], gated["passed"], gated["provisional_left_out"]) == (3, 2, 1)
    assert totals["cases"] == totals["graded"] + totals["errors"] + totals["not_run"]
    assert gated["graded"] + gated["provisional_left_out"] + gated["quarantined_left_out"] == totals["graded"]
    assert sum(report["verdicts"].values()) == totals["cases"]
    assert sum(row["graded"] for row in report["by_category"].values()) == totals["graded"]
    assert totals["samples"] == 2 * 5  # the case never run has no sample
    for case in report["cases"]:
        counts = case["trigger_counts"]
        assert counts["graded"] == sum(1 for s in case["samples"] if not s["error"])
        if counts["graded"]:
            assert case["trigger_rate"] == counts["fired"] / counts["graded"]

    allowed = {(totals["passed"], totals["graded"]), (gated["passed"], gated["graded"])}
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("skillscope routing:")]
    assert line.startswith(
        "skillscope routing: pass: 2/4 correct (50.0%) of 6 case(s), 2 errored: not graded; "
        "2/3 correct (1 provisional case(s) not counted without --strict); reported only (--min-accuracy 0)"
    )
    markdown = summary.read_text(encoding="utf-8")
    assert "**2/4 correct (50.0%)** across 6 prompts, 2 errored: not graded with 2 skill(s)" in markdown
    assert report["gate"]["reason"] in markdown
    page = html.render(report)
    assert "2/4" in page and report["gate"]["reason"] in page
    for text in (line, markdown, report["gate"]["reason"]):
        found = {(int(a), int(b)) for a, b in FRACTION.findall(text)}
        assert found and found <= allowed, (text, found)
