"""The one matrix the routing, behavioral and compare matrices are: the legs, their statuses, each later
model of an agent against its first, the case table, the envelope and the report's layout, whatever the
kind of result."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from harness.model.envelope import Halt, RunMeta
from harness.paid.matrix import Matrix

RUN = RunMeta("behavioral", "/repo", ["*"], "2026-12-06T08:00:00Z", 3.0)


@dataclass
class Meta:
    agent: str
    run: RunMeta
    model: str = "haiku"
    agent_version: str = "1.0"
    halt: Halt = field(default_factory=Halt)
    notes: list[str] = field(default_factory=list)


@dataclass
class Leg:
    """A leg's result: its agent and each case's status word."""

    agent: str
    cases: dict[str, str] = field(default_factory=dict)
    run: RunMeta = field(default_factory=lambda: RUN)

    @property
    def meta(self) -> Meta:
        return Meta(self.agent, self.run)

    @property
    def passed(self) -> bool:
        return all(word == "pass" for word in self.cases.values())

    command = "behavioral"

    def to_json(self) -> dict:
        return {"cases": self.cases}


class Statuses(Matrix[Leg]):
    command = "behavioral-matrix"

    def case_statuses(self, result: Leg) -> list[tuple[str, str]]:
        return list(result.cases.items())

    def leg_fields(self, result: Leg) -> dict:
        return {"ran": len(result.cases)}

    def differences(self) -> list[dict]:
        return [{"a": a, "b": b} for _, a, _, b, _ in self.against_first(lambda r: r.agent)]

    def case_rows(self) -> list[dict]:
        return self.rows()

    def rows(self) -> list[dict]:
        return self.case_table(lambda r: list(r.cases), lambda case: case, self.row)

    def row(self, case: str, seen: dict[str, str | None]) -> dict:
        """`seen`: the case's name on each leg that ran it, else None."""
        words = dict(self.legs())
        by_leg = {label: words[label].cases[case] if ran else "not-run" for label, ran in seen.items()}
        return {"id": case, "differs": len(set(by_leg.values())) > 1, "by_leg": by_leg}


def matrix() -> Statuses:
    first = Leg("claude", {"a": "pass", "b": "pass", "c": "fail"})
    second = Leg("claude", {"a": "pass", "b": "fail"})  # stopped before c
    other = Leg("codex", {"a": "pass", "b": "pass", "c": "fail"})
    return Statuses([first, second, other], ["claude@haiku", "claude@sonnet", "codex"])


def test_a_matrix_passes_only_when_every_leg_passes():
    assert not matrix().passed
    assert Statuses([Leg("claude", {"a": "pass"}), Leg("codex", {"a": "pass"})], ["claude", "codex"]).passed


def test_each_legs_cases_are_named_under_the_leg():
    assert matrix().statuses() == {
        "claude@haiku:a": "pass",
        "claude@haiku:b": "pass",
        "claude@haiku:c": "fail",
        "claude@sonnet:a": "pass",
        "claude@sonnet:b": "fail",
        "codex:a": "pass",
        "codex:b": "pass",
        "codex:c": "fail",
    }


def test_only_an_agent_on_several_models_is_compared_with_its_first():
    pairs = [(agent, a, b) for agent, a, _, b, _ in matrix().against_first(lambda r: r.agent)]
    assert pairs == [("claude", "claude@haiku", "claude@sonnet")]


def test_the_cases_that_differ_come_first_and_a_case_a_leg_did_not_run_is_not_run_there():
    rows = matrix().rows()
    assert [row["id"] for row in rows] == ["b", "c", "a"]
    assert rows[1]["by_leg"] == {"claude@haiku": "fail", "claude@sonnet": "not-run", "codex": "fail"}
    assert not rows[2]["differs"]


def test_the_envelope_is_the_first_legs_run_under_the_matrix_command_counting_every_leg():
    head = matrix().head()
    assert head["command"] == "behavioral-matrix" and head["passed"] is False
    assert head["counts"] == {"total": 8, "pass": 5, "fail": 3, "error": 0}


def test_the_envelope_lasts_until_the_last_leg_ended():
    """The legs run in turn on one clock: each leg's length counts from the run's start, so the whole
    run's is the last leg's, not the first's."""
    first = Leg("claude", {"a": "pass"}, replace(RUN, elapsed_s=4.8))
    second = Leg("claude", {"a": "pass"}, replace(RUN, elapsed_s=31.5))
    head = Statuses([first, second], ["claude@haiku", "claude@sonnet"]).head()
    assert head["elapsed_s"] == 31.5 and head["started_at"] == RUN.started_at


class Sectioned(Statuses):
    """A kind with its own name for the rows and a section of its own, as routing's matrix has."""

    rows_named = "agents"

    def own_json(self) -> dict:
        return {"own": True}


def test_a_legs_row_holds_the_shared_keys_in_one_order_around_the_kinds_own():
    row = matrix().leg_rows()[1]
    assert list(row) == ["leg", "agent", "model", "agent_version", "passed", "halt", "ran", "notes"]
    assert (row["leg"], row["agent"], row["passed"], row["ran"]) == ("claude@sonnet", "claude", False, 2)
    assert row["halt"] == Halt().to_json()


def test_the_report_lays_out_every_kind_alike_with_its_own_rows_name_and_sections_in_place():
    legs = [Leg("claude", {"a": "pass"}), Leg("codex", {"a": "fail"})]
    envelope = list(Statuses(legs, ["claude", "codex"]).head())
    assert list(Statuses(legs, ["claude", "codex"]).to_json()) == [
        *envelope,
        "legs",
        "differences",
        "cases",
        "runs",
    ]
    report = Sectioned(legs, ["claude", "codex"]).to_json()
    assert list(report) == [*envelope, "agents", "differences", "own", "cases", "runs"]
    assert report["runs"] == [{"cases": {"a": "pass"}}, {"cases": {"a": "fail"}}]
