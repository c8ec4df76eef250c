"""The state machine over synthetic ledgers: same digests and a changed verdict is flaky; a changed
digest with a changed verdict is a regression or an improvement naming what changed; errors are never
a change of verdict."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.history.ledger import Entry, Ledger, Run, filtered
from harness.history.states import FLAKY, IMPROVED, REGRESSED, STABLE, UNGRADED, accuracy_trend, timelines
from harness.model.provenance import INPUTS

SKILL_MD = "skills/pdf/SKILL.md"
BASE_FILES = {
    SKILL_MD: "a" * 64,
    "skills/pdf/references/forms.md": "b" * 64,
    "skills/docx/SKILL.md": "c" * 64,
}


def digests(**changed: str) -> dict[str, str | None]:
    return {key: changed.get(key, key[0] * 64) for key in INPUTS}


def run(number: int, files: dict[str, str] | None = None, **meta) -> Run:
    return Run(
        file=f"routing-{number}.json",
        command="routing",
        started_at=f"2026-11-{number % 28 + 1:02d}T00:00:{number % 60:02d}+00:00",
        agent=meta.get("agent", "claude"),
        agent_version=meta.get("agent_version", "2.1.332"),
        model=meta.get("model", "m"),
        harness_version=meta.get("harness_version", "1.0"),
        files=dict(BASE_FILES if files is None else files),
        skill_paths={"pdf": "skills/pdf", "docx": "skills/docx"},
        identity=str(number),
        identities=meta.get("identities", {}),
    )


def entry(at: Run, status: str, digest: dict | None = None, **fields) -> Entry:
    return Entry(
        run=at,
        case=fields.get("case", "pdf-pos-1"),
        skill="pdf",
        source="skills/pdf/evals/evals.json",
        status=status,
        verdict=status,
        digests=digests() if digest is None else digest,
        flaky=fields.get("flaky", False),
    )


def ledger_of(
    statuses: list[str], digest_list: list[dict] | None = None, runs: list[Run] | None = None
) -> Ledger:
    runs = runs or [run(i) for i in range(len(statuses))]
    digest_list = digest_list or [digests() for _ in statuses]
    entries = [entry(r, s, d) for r, s, d in zip(runs, statuses, digest_list, strict=True)]
    return Ledger(runs, entries)


def state_of(ledger: Ledger):
    (line,) = timelines(ledger)
    return line


graded = st.sampled_from(["pass", "fail"])
any_status = st.sampled_from(["pass", "fail", "error", "blocked", "not-run"])


@given(st.lists(any_status, max_size=8), graded)
def test_a_changed_verdict_with_identical_digests_is_flaky(history, last):
    """Whatever came before: the newest two graded verdicts differ and every digest is the same."""
    statuses = [*history, "fail" if last == "pass" else "pass", "error", last]
    assert state_of(ledger_of(statuses)).state == FLAKY


@given(
    st.lists(st.sampled_from(["same", "error", "blocked", "not-run"]), max_size=8),
    graded,
    st.sampled_from(INPUTS),
)
def test_a_changed_verdict_when_an_input_changed_is_a_regression_or_improvement_naming_it(history, last, key):
    """Stable before the change (every earlier verdict the same), changed after it."""
    before = "fail" if last == "pass" else "pass"
    statuses = [before if s == "same" else s for s in history] + [before, "error", last]
    changed = digests(**{key: "f" * 64})
    runs = [run(i) for i in range(len(statuses))]
    if key == "skill":  # the file behind it changed in the newest run's ledger
        runs[-1] = run(len(statuses) - 1, {**BASE_FILES, SKILL_MD: "d" * 64})
    if key == "agent":
        runs[-1] = run(len(statuses) - 1, agent_version="2.1.400")
    if key == "model":
        runs[-1] = run(len(statuses) - 1, model="n")
    if key == "harness":
        runs[-1] = run(len(statuses) - 1, harness_version="1.1")
    line = state_of(ledger_of(statuses, [digests()] * (len(statuses) - 1) + [changed], runs))
    assert line.state == (REGRESSED if last == "fail" else IMPROVED)
    assert line.change is not None and line.change.before.status == before
    expected = {
        "case": "case pdf-pos-1 (skills/pdf/evals/evals.json)",
        "skill": SKILL_MD,
        "room": "the installed skills",
        "agent": "agent claude 2.1.332 -> claude 2.1.400",
        "model": "model m -> n",
        "settings": "settings",
        "harness": "skillscope 1.0 -> 1.1",
    }[key]
    assert line.change.inputs == (expected,)


@given(st.lists(graded, min_size=1, max_size=6).filter(lambda s: len(set(s)) == 1), st.integers(0, 5))
def test_the_same_verdict_every_run_is_stable_whatever_changed_and_however_many_errors(statuses, errors):
    changing = [digests(skill=f"{i:064x}") for i in range(len(statuses))]
    line = state_of(ledger_of(statuses + ["error"] * errors, changing + [digests()] * errors))
    assert line.state == STABLE


@given(st.lists(st.sampled_from(["error", "blocked", "not-run"]), min_size=1, max_size=6))
def test_a_case_that_never_graded_is_ungraded_never_flaky(statuses):
    assert state_of(ledger_of(statuses)).state == UNGRADED


def test_an_error_between_a_pass_and_a_pass_is_no_change():
    assert state_of(ledger_of(["pass", "error", "pass"])).state == STABLE


def test_samples_that_disagreed_within_one_run_make_a_case_flaky():
    only = run(0)
    line = state_of(Ledger([only], [entry(only, "pass", flaky=True)]))
    assert line.state == FLAKY and "its samples disagreed" in line.reason()


def test_a_flaky_spell_under_earlier_inputs_keeps_the_case_flaky_within_the_runs_read():
    new = digests(skill="e" * 64)
    line = state_of(ledger_of(["pass", "fail", "fail", "fail"], [digests(), digests(), new, new]))
    assert line.state == FLAKY and line.change is None
    assert line.reason() == "1 pass, 1 fail with unchanged inputs, before its inputs last changed"
    later = filtered(
        ledger_of(["pass", "fail", "fail", "fail"], [digests(), digests(), new, new]),
        [],
        [],
        since=run(2).day,
    )
    assert state_of(later).state == STABLE  # --since leaves the spell out: failing in every run read


def test_a_file_added_or_removed_is_named_so():
    runs = [
        run(0),
        run(1, {SKILL_MD: "a" * 64, "skills/docx/SKILL.md": "c" * 64, "skills/pdf/new.md": "e" * 64}),
    ]
    line = state_of(ledger_of(["pass", "fail"], [digests(), digests(skill="9" * 64)], runs))
    assert line.change is not None
    assert line.change.inputs == ("skills/pdf/new.md", "skills/pdf/references/forms.md (removed)")


def test_a_report_from_before_the_ledger_says_its_inputs_were_not_recorded():
    runs = [run(0), run(1)]
    entries = [
        entry(runs[0], "pass"),
        Entry(runs[1], "pdf-pos-1", "pdf", None, "fail", "missed_trigger", None),
    ]
    line = state_of(Ledger(runs, entries))
    assert line.state == REGRESSED and line.change is not None
    assert line.change.inputs == ("inputs the older report did not record",)


def test_each_skill_s_accuracy_per_run_leaves_errors_out():
    runs = [run(0), run(1)]
    entries = [
        entry(runs[0], "pass"),
        entry(runs[0], "fail", case="pdf-pos-2"),
        entry(runs[1], "pass"),
        entry(runs[1], "error", case="pdf-pos-2"),
    ]
    (points,) = accuracy_trend(Ledger(runs, entries)).values()
    assert [(p.passed, p.graded, p.accuracy) for p in points] == [(1, 2, 0.5), (1, 1, 1.0)]


@given(
    st.lists(
        st.lists(st.sampled_from(["pass", "fail", "error", "blocked", "not-run"]), min_size=1, max_size=6),
        min_size=1,
        max_size=5,
    )
)
def test_each_skill_s_accuracy_per_run_is_a_count_of_its_verdicts(grid):
    """Whatever the statuses, a run's point counts exactly its passes among its pass-or-fail verdicts,
    and a run that graded none of the skill's cases has no point."""
    runs = [run(n) for n in range(max(len(row) for row in grid))]
    entries = [
        entry(runs[n], status, case=f"pdf-pos-{c}")
        for c, row in enumerate(grid)
        for n, status in enumerate(row)
    ]
    trend = accuracy_trend(Ledger(runs, entries))
    expected = []
    for n in range(len(runs)):
        column = [row[n] for row in grid if n < len(row)]
        graded = [s for s in column if s in ("pass", "fail")]
        if graded:
            expected.append((n, graded.count("pass"), len(graded)))
    assert [(p.position, p.passed, p.graded) for p in trend.get("routing:pdf", [])] == expected
