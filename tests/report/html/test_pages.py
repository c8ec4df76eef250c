"""Each command's page from a report a real run wrote (the paid commands' saved, see conftest.py): what a
person reads on it, and that the hostile text the run carried (a prompt with markup, a bidi override, an
escape) stays inert text; and each paid command's page from a small real run today."""

from __future__ import annotations

import copy

import pytest

from harness import schemas
from harness.report import html
from tests.report.html.csp import assert_only_its_own_inline_code
from tests.report.html.pagetext import Parsed
from tests.support.reports import HOSTILE
from tests.support.saved_reports import PAID, load

# One worker builds the small real runs (a session fixture) for every page test: see conftest.py.
pytestmark = pytest.mark.xdist_group("report-pages")

SCHEMA = {
    "structural": "structural-report",
    "refs": "refs-report",
    "lexical": "routing-report",
    "routing": "routing-report",
    "behavioral": "behavioral-report",
    "compare": "compare",
    "cost": "cost-report",
    "routing-matrix": "routing-matrix-report",
    "compare-matrix": "compare-matrix-report",
    "behavioral-matrix": "behavioral-matrix-report",
}


def assert_inert_and_self_contained(report: dict, schema: str) -> None:
    assert schemas.errors(schema, report) == []  # the page is drawn from what a run really writes
    page = html.render(report)
    parsed = Parsed(page)
    assert parsed.tags.count("script") == 1 and "<script>alert" not in page
    assert not [v for n, v in parsed.attrs if n in ("src", "href") and v and not v.startswith("#")]
    assert "\u202e" not in page and "\x1b" not in page
    assert f"<title>skillscope {report['command']}: {report['status']}</title>" in page
    ids = [value for attr, value in parsed.attrs if attr == "id"]
    assert len(ids) == len(set(ids)), "an id twice: a control or a matrix link would act on another table"


@pytest.mark.parametrize("name", sorted(SCHEMA))
def test_every_commands_page_is_inert_and_self_contained(page_reports, name):
    assert_inert_and_self_contained(page_reports[name], SCHEMA[name])


@pytest.mark.parametrize("name", PAID)
def test_a_small_real_runs_page_is_inert_and_self_contained(small_real_reports, name):
    """What the pipeline writes today: a saved report that drifted from it fails its schema check above."""
    report = small_real_reports[name]
    assert_inert_and_self_contained(report, SCHEMA[name])
    assert_only_its_own_inline_code(html.render(report))


@pytest.mark.parametrize("name", sorted(SCHEMA))
def test_every_commands_page_allows_only_its_own_script_and_style(page_reports, name):
    report = page_reports[name]
    logs = {case["id"]: [("run", [HOSTILE])] for case in report.get("cases", [])[:2] if "id" in case}
    assert_only_its_own_inline_code(html.render(report, logs))


def test_both_tune_pages_allow_only_their_own_script_and_style(tune_reports):
    for report in tune_reports.values():
        assert_only_its_own_inline_code(html.render(report))


@pytest.mark.parametrize("name", ["routing-matrix", "compare-matrix", "behavioral-matrix"])
def test_a_matrix_page_names_its_agent_and_each_model_in_the_header(page_reports, name):
    page = html.render(page_reports[name])
    head = page[page.index("<header>") : page.index("</header>")]
    assert "claude 2.1.332" in head and "claude-fake-1, claude-fake-2" in head


def leg_spend(name: str, run: dict) -> float:
    """What one leg's own report says it spent: routing's totals (its canary's run included), behavioral's
    agent and judge, or both sides of a compare and its canaries."""
    totals = run["totals"]
    if name == "routing-matrix":
        return totals["cost_usd"]
    if name == "behavioral-matrix":  # the agent's runs and the judge's calls
        return totals["agent"]["cost_usd"] + totals["judge"]["cost_usd"]
    return totals["baseline"]["cost_usd"] + totals["candidate"]["cost_usd"] + run["meta"]["canary_cost_usd"]


@pytest.mark.parametrize("name", ["routing-matrix", "compare-matrix", "behavioral-matrix"])
def test_a_matrix_page_costs_the_sum_of_its_legs(page_reports, name):
    report = page_reports[name]
    spent = [leg_spend(name, run) for run in report["runs"]]
    assert len(spent) == 2 and all(cost > 0 for cost in spent)
    page = html.render(report)
    head = page[page.index("<header>") : page.index("</header>")]
    assert f"<span>cost:</span> ${sum(spent):.4f}</div>" in head and "not known" not in head


def test_a_matrix_page_names_the_leg_whose_cost_is_not_known(page_reports):
    report = copy.deepcopy(page_reports["routing-matrix"])
    first, second = report["runs"]
    second["totals"]["cost_usd"] = None  # its CLI reported no cost, though it ran samples
    assert second["totals"]["samples_run"] > 0
    head = html.render(report).split("</header>")[0]
    leg = report["agents"][1]["leg"]
    said = (
        f"${first['totals']['cost_usd']:.4f} for the other legs; not known for {leg} (its CLI reported none)"
    )
    assert said in head
    first["totals"]["cost_usd"] = None
    assert (
        f"not known (no leg&#x27;s CLI reported its cost: {report['agents'][0]['leg']}, {leg})"
        in (html.render(report).split("</header>")[0])
    )


def test_the_routing_page_heads_with_the_gate_and_draws_the_matrix(page_reports):
    page = html.render(page_reports["routing"])
    text = Parsed(page).text
    assert "below the --min-accuracy bar of 0.9" in text and "agent: claude 2.1.332" in text
    assert "from the result cache: 0 of 16 samples" in text
    assert 'aria-label="expected alpha, observed beta: 1 case(s)"' in page
    assert 'href="#cases:expect=alpha&amp;observed=beta"' in page
    flaky = page.split('data-verdict="missed_trigger flaky"')[1].split("</tbody>")[0]
    assert "alpha-pos-3" in flaky and "1/2 (50.0% [9–91%])" in flaky
    assert "alpha/evals/evals.json:16" in Parsed(flaky).text  # its path, broken only after a slash
    assert "<td>alpha</td><td class=num>4</td><td class=num>2</td>" in page  # per skill, with Wilson
    assert "<td class=num>50.0% [15–85%]</td>" in page
    hostile = page.split("alpha-hostile</td>")[1].split("</tbody>")[0]
    assert Parsed(hostile).text.count(HOSTILE.replace("\u202e", "\\u202e").replace("\x1b", "\\x1b")) == 2


def test_the_lexical_page_shows_ranks_not_costs(page_reports):
    text = Parsed(html.render(page_reports["lexical"])).text
    assert "(lexical engine)" in text and "top-ranked skills" in text and "approximates" in text


def test_the_behavioral_page_lists_each_check_with_its_evidence(page_reports):
    page = html.render(page_reports["behavioral"])
    case = page.split("report-writer-pass</td>")[1].split("</tbody>")[0]
    assert "<td>scorer</td><td>logs_contain</td>" in case and "found in the Bash input (call 2)" in case
    assert "<td>judge</td><td>expected_behavior</td>" in case and "judge: scripted E1" in case


def test_the_compare_page_shows_both_sides_with_the_interval(page_reports):
    text = Parsed(html.render(page_reports["compare"])).text
    assert "without the skill" in text and "with the skill" in text and "improvements" in text
    assert "difference" in text and "Newcombe" in text


def test_the_cost_page_sets_the_sides_side_by_side(page_reports):
    text = Parsed(html.render(page_reports["cost"])).text
    assert "cost with the skill" in text and "cost without the skill" in text and "Total spent" in text


def test_a_structural_page_shows_the_refused_hostile_id_as_text(page_reports):
    page = html.render(page_reports["structural"])
    assert "dataset-schema" in page and "\\u202eevil" in page and "<script>alert" not in page


def behavioral_with(**case) -> dict:
    """The saved behavioral report holding one case: its first, with `case`'s fields."""
    saved = load("behavioral")
    return {**saved, "cases": [{**saved["cases"][0], **case}]}


def test_a_blocked_case_says_why():
    isolation = [{"call": 2, "tool": "Read", "kind": "file", "path": "/etc/passwd"}]
    report = behavioral_with(status="blocked", blocked="outside-workspace", checks=[], isolation=isolation)
    text = Parsed(html.render(report)).text
    assert "Blocked (outside-workspace): its agent worked outside its workspace" in text
    assert "call 2: Read file /etc/passwd" in text


def test_a_must_statement_passed_without_evidence_is_marked_beside_its_pass():
    checks = [
        {"kind": "expected_behavior", "expectation": "runs the tests", "passed": True, "detail": "judge: x"},
        {"kind": "expected_behavior", "expectation": "writes a report", "passed": True, "detail": "judge: y"},
    ]
    checks[1]["no_evidence"] = True
    text = Parsed(html.render(behavioral_with(status="pass", checks=checks))).text
    assert text.count("no evidence cited") == 1
    assert text.index("writes a report") < text.index("no evidence cited")
