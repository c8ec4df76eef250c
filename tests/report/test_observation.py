"""How a routing case, or one agent's run of it, reads where reports show what it fired (the all-cases
table, the across-agents table, show's case heads)."""

from __future__ import annotations

import pytest

from harness.report.routing import observation


@pytest.mark.parametrize(
    ("sample", "shown"),
    [
        ({"observed": "pdf", "verdict": "correct_trigger"}, "pdf"),
        ({"observed": None, "verdict": "missed_trigger"}, "no skill"),  # a graded miss
        ({"observed": None, "verdict": "error"}, "—"),  # no decision, which is not "no skill"
        ({"observed": None, "verdict": "not-run"}, "—"),
    ],
)
def test_an_agent_that_made_no_decision_is_not_shown_as_choosing_no_skill(sample, shown):
    assert observation(sample) == shown
