"""Flakiness first: a case whose verdict flipped under unchanged inputs is flaky, whatever changed after;
and a change is named only by what differs (never "claude 2.1.332 -> claude 2.1.332")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.history.ledger import Entry, Ledger
from harness.history.states import FLAKY, REGRESSED, changed_inputs
from tests.history.test_states import BASE_FILES, digests, entry, ledger_of, run, state_of
from tests.support.examples import examples

OTHER_MEMBER = "skills/docx/SKILL.md"  # a room member's file, not the case's own skill


def test_pass_fail_pass_unchanged_then_a_fail_after_a_room_members_edit_is_flaky():
    """The audit's timeline: the flip among identical inputs comes first; the edit is not blamed."""
    edited = {**BASE_FILES, OTHER_MEMBER: "e" * 64}
    runs = [run(0), run(1), run(2), run(3, edited)]
    line = state_of(
        ledger_of(["pass", "fail", "pass", "fail"], [digests()] * 3 + [digests(room="e" * 64)], runs)
    )
    assert line.state == FLAKY and line.change is None
    assert line.reason() == "2 pass, 1 fail with unchanged inputs, before its inputs last changed"


def test_a_case_stable_before_an_edit_and_changed_after_it_is_still_a_regression():
    edited = {**BASE_FILES, OTHER_MEMBER: "e" * 64}
    runs = [run(0), run(1), run(2), run(3, edited)]
    line = state_of(
        ledger_of(["pass", "pass", "pass", "fail"], [digests()] * 3 + [digests(room="e" * 64)], runs)
    )
    assert line.state == REGRESSED and line.change is not None
    assert line.change.inputs == (OTHER_MEMBER,)


# A random timeline: each graded or ungraded verdict under one of a few sets of inputs, some runs' own
# samples disagreeing.
steps = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from(["pass", "fail", "error", "blocked", "not-run"]),
        st.booleans(),
    ),
    min_size=1,
    max_size=12,
)


def ledger_of_steps(timeline: list[tuple[int, str, bool]]) -> Ledger:
    runs = [run(i) for i in range(len(timeline))]
    entries = [
        entry(r, status, digests(skill=f"{inputs:064x}"), flaky=flaky and status in ("pass", "fail"))
        for r, (inputs, status, flaky) in zip(runs, timeline, strict=True)
    ]
    return Ledger(runs, entries)


def flipped_somewhere(timeline: list[tuple[int, str, bool]]) -> bool:
    graded = [(inputs, status, flaky) for inputs, status, flaky in timeline if status in ("pass", "fail")]
    by_inputs: dict[int, set[str]] = {}
    for inputs, status, _ in graded:
        by_inputs.setdefault(inputs, set()).add(status)
    return any(len(s) > 1 for s in by_inputs.values()) or any(flaky for *_, flaky in graded)


@settings(max_examples=examples(300), derandomize=True)
@given(steps)
def test_a_flip_among_runs_of_identical_inputs_is_never_a_regression_or_an_improvement(timeline):
    line = state_of(ledger_of_steps(timeline))
    if flipped_somewhere(timeline):
        assert line.state == FLAKY and line.change is None
    else:
        assert line.state != FLAKY


def identity(version: str = "2.1.332", endpoint: str = "http://127.0.0.1:4000") -> dict:
    return {"runtime": "claude", "version": version, "environment": {"ANTHROPIC_BASE_URL": endpoint}}


def agent_change(before: dict, after: dict, **after_meta) -> tuple[str, ...]:
    old, new = run(0, identities=before), run(1, identities=after, **after_meta)
    changed = digests(agent="f" * 64)
    return changed_inputs(entry(old, "pass"), Entry(new, "pdf-pos-1", "pdf", None, "fail", "fail", changed))


def test_an_agent_whose_endpoint_moved_is_named_by_that_variable_not_by_its_unchanged_version():
    named = agent_change({"agent": identity()}, {"agent": identity(endpoint="http://127.0.0.1:4001")})
    assert named == ("agent environment (ANTHROPIC_BASE_URL)",)


def test_a_judge_whose_version_moved_is_named_as_the_judge():
    same = identity()
    named = agent_change({"agent": same, "judge": same}, {"agent": same, "judge": identity("2.1.400")})
    assert named == ("judge claude 2.1.332 -> claude 2.1.400",)
    assert agent_change({"agent": same}, {"agent": same, "judge": same}) == ("judge claude 2.1.332 (added)",)


def test_without_the_agents_identity_an_unchanged_version_names_nothing():
    assert agent_change({}, {}) == ("inputs",)
    assert agent_change({}, {}, agent_version="2.1.400") == ("agent claude 2.1.332 -> claude 2.1.400",)


values = st.sampled_from(["a", "b", None])


@settings(max_examples=examples(300), derandomize=True)
@given(
    st.fixed_dictionaries(
        {"version": values, "endpoint": values, "model": values, "harness": values, "judge": st.booleans()}
    ),
    st.fixed_dictionaries(
        {"version": values, "endpoint": values, "model": values, "harness": values, "judge": st.booleans()}
    ),
)
def test_no_change_is_named_as_a_value_going_to_itself(first, second):
    def made(number: int, side: dict):
        who = {
            "runtime": "claude",
            "version": side["version"],
            "environment": {"ANTHROPIC_MODEL": side["endpoint"]},
        }
        roles = {"agent": who, **({"judge": who} if side["judge"] else {})}
        return run(number, identities=roles, model=side["model"], harness_version=side["harness"])

    every = {key: "f" * 64 for key in ("agent", "model", "harness")}
    before = entry(made(0, first), "pass")
    after = Entry(made(1, second), "pdf-pos-1", "pdf", None, "fail", "fail", digests(**every))
    for named in changed_inputs(before, after):
        if " -> " in named:
            old, new = named.split(" ", 1)[1].split(" -> ")
            assert old != new, named


def test_an_identity_of_an_odd_shape_in_a_report_names_what_it_can_and_never_crashes():
    odd = {"runtime": "claude", "version": "2.1.332", "environment": ["ANTHROPIC_MODEL"]}
    named = agent_change({"agent": odd}, {"agent": identity()})
    assert named == ("agent environment (ANTHROPIC_BASE_URL)",)
