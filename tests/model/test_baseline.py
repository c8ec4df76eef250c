"""The first-run hint: the ways to adopt what a catalog's first run finds, only those that apply."""

from __future__ import annotations

import json

import pytest

from harness.files import packaged_text
from harness.model.baseline import UNREADABLE


def test_the_first_run_hint_names_the_rules_that_fired_and_only_the_ways_that_apply():
    from harness.model.baseline import first_run_hint
    from harness.model.findings import error

    structural = [error("tier0-behavior", "a/evals/evals.json", "m"), error("name-format", "a/SKILL.md", "m")]
    hint = first_run_hint([*structural, structural[0]])
    assert (
        "`skillscope baseline`" in hint and "`--warn name-format,tier0-behavior` demotes those rules" in hint
    )
    # A broken external link: the baseline never records it, --warn still applies.
    assert first_run_hint([error("ref-unreachable", "README.md", "m")]) == (
        "To accept these for now, `--warn ref-unreachable` demotes that rule to a warning."
    )
    # Offline or out of time: a fact about the run, whose own message says what to do.
    assert first_run_hint([error("ref-unchecked", "README.md", "m")]) == ""


@pytest.mark.parametrize("unreadable", sorted(UNREADABLE))
def test_no_rule_for_a_file_the_harness_cannot_read_is_offered_for_demotion(unreadable):
    """Demoted, a SKILL.md that does not parse would run on with no name or description: the hint
    offers the baseline for it, and --warn only for the other rules that fired."""
    from harness.model.baseline import first_run_hint
    from harness.model.findings import error

    alone = first_run_hint([error(unreadable, "a/SKILL.md", "m")])
    assert "`skillscope baseline`" in alone and "--warn" not in alone
    beside = first_run_hint([error(unreadable, "a/SKILL.md", "m"), error("name-format", "b/SKILL.md", "m")])
    assert "`--warn name-format` demotes that rule to a warning" in beside and unreadable not in beside


def test_every_unreadable_rule_is_a_rule():
    assert set(json.loads(packaged_text("data", "rules.json"))) >= UNREADABLE


def test_a_finding_that_names_its_own_adopting_command_gets_no_second_remedy(tmp_path):
    """A skill whose only eval file is another tool's: the finding names the import command, and the
    first-run hint offers no baseline or --warn beside it (one remedy, not two)."""
    from dataclasses import replace

    from harness.model.baseline import first_run_hint
    from harness.model.findings import error

    adopt = "`skillscope import addyosmani --skill a --evals evals/cases/a.json --output a/evals/evals.json`"
    own = replace(error("dataset-missing", "a", f"no dataset, but {adopt} adopts it"), remedied=True)
    assert first_run_hint([own]) == ""
    other = error("name-format", "b/SKILL.md", "m")
    hint = first_run_hint([own, other])
    assert "--warn name-format demotes that rule" in hint.replace("`", "") and "dataset-missing" not in hint
    assert "remedied" not in own.to_dict()  # said in the message, not a report field
