"""harness.report.routing: a routing run's summary says its count once, in text and in markdown (the gate's
reason, shown beside it, opens with the same `N/M correct`); so does each leg's row of a matrix."""

from __future__ import annotations

import copy

from harness.report import cases, matrix, routing, routing_lexical
from tests.support.saved_reports import load


def test_the_text_headline_says_the_count_once():
    said = routing.headline(load("routing"))
    assert said.count("5/8 correct") == 1
    assert "5/8 correct (62.5%) of 8 case(s); below the --min-accuracy bar of 0.9" in said


def test_the_markdown_says_the_count_once():
    said = routing.markdown(load("routing"))
    assert said.count("5/8 correct") == 1
    assert "Gate: **failed**: below the --min-accuracy bar of 0.9." in said


def test_a_passing_gate_keeps_its_bar():
    report = load("routing")
    report["gate"]["reason"] = "5/8 correct; reported only (--min-accuracy 0)"
    assert cases.gate_words(report) == "reported only (--min-accuracy 0)"


def test_a_gate_counting_other_cases_keeps_its_count():
    report = copy.deepcopy(load("routing"))
    report["gate"]["reason"] = "4/7 correct (accuracy 0.571; 1 provisional left out) is below the bar"
    assert cases.gate_words(report) == report["gate"]["reason"]  # another figure than the summary's: said
    assert "4/7 correct" in routing.headline(report)


def test_a_lexical_run_says_its_count_once():
    report = {
        "totals": {"passed": 3, "graded": 4, "cases": 4, "errors": 0, "rank1": {"rank1": 2, "positives": 2}},
        "gate": {"reason": "3/4 correct (accuracy 0.750) is below the --min-accuracy bar of 1"},
    }
    said = routing_lexical.headline(report)
    assert said.count("3/4 correct") == 1 and said.endswith("; below the --min-accuracy bar of 1")


def test_a_matrix_legs_row_says_its_count_once():
    legs = [
        line
        for line in matrix.routing_markdown(load("routing-matrix")).splitlines()
        if "@claude-fake" in line
    ]
    rows = [line for line in legs if line.startswith("| claude@")]
    assert len(rows) == 2
    for row in rows:
        assert row.count("5/8") == 1 and "failed: below the --min-accuracy bar of 0.9" in row


def test_a_matrix_headline_says_each_legs_count_as_correct_and_its_errors_apart_from_its_gate():
    """`claude@b 0/0 failed` said neither what the count counts nor that every case errored."""
    report = copy.deepcopy(load("routing-matrix"))
    first, second = report["runs"]
    second["totals"].update(graded=0, passed=0, errors=8)
    said = matrix.routing_headline(report)
    assert f"{report['agents'][0]['agent']}@" in said
    assert "5/8 correct, failed" in said and "0/0 correct, 8 errored: not graded, failed" in said
