"""harness.report.compare: the headline of a compare run."""

from __future__ import annotations

import copy

from harness.report import compare
from tests.support.saved_reports import load


def test_an_interrupted_compare_says_so_in_its_headline_as_routing_and_behavioral_do():
    """Without it, `fail: 0 regression(s) in 7 compared case(s)` reads as a contradiction."""
    report = copy.deepcopy(load("compare"))
    assert "Interrupted" not in compare.headline(report)
    report["meta"].update(interrupted="SIGINT", unfinished=11)
    assert compare.headline(report).endswith(
        "; Interrupted by SIGINT: the report holds the cases that finished; 11 selected case(s) did not."
    )
