"""trust_level: provisional cases are reported apart and left out of the gate unless --strict."""

from __future__ import annotations

import json
from fractions import Fraction

from harness.model.dataset import Case
from harness.routing import metrics
from harness.routing.metrics import CaseOutcome
from harness.routing.verdicts import Sample
from tests.fakeapi import replies as R
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import CaseRouter, route, routing_env


def outcome(case_id: str, observed: str | None, trust: str = "stable") -> CaseOutcome:
    case = Case(case_id, "p", True, "pdf", "pdf/evals/evals.json", trust_level=trust)
    return CaseOutcome(case, [Sample(observed=observed, stop_reason="result")])


def test_a_failing_provisional_case_does_not_fail_the_gate_unless_strict():
    runs = [outcome("a", "pdf"), outcome("b", None, "provisional")]
    assert metrics.gate(runs, Fraction(1)).passed
    assert not metrics.gate(runs, Fraction(1), strict=True).passed


def test_with_no_stable_case_the_provisional_ones_count():
    runs = [outcome("b", None, "provisional")]
    assert not metrics.gate(runs, Fraction(1)).passed


def test_end_to_end_the_report_names_the_provisional_case(tmp_path, fake_api, claude_bin, kept_probes):
    data = evals_for("alpha")
    data["evaluations"][1]["trust_level"] = "provisional"  # alpha-pos-2
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=data)
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-3": R.skill("alpha")}))
    only = ["--only", "alpha-pos-1,alpha-pos-2,alpha-pos-3", "--routing-room", "alpha", "--skip-preflight"]
    only.append("--no-canary")  # the canary is test_canary.py's subject
    lenient = route(repo, env, *only)
    assert lenient.code == 0, lenient.stderr
    assert "Provisional case(s), reported apart and not counted by the gate" in lenient.stdout
    report = json.loads(lenient.output.read_text(encoding="utf-8"))
    assert {c["id"]: c["trust_level"] for c in report["cases"]}["alpha-pos-2"] == "provisional"
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-3": R.skill("alpha")}))
    strict = route(repo, env, *only, "--strict")  # the same samples, replayed from the result cache
    assert (
        strict.code == 1 and json.loads(strict.output.read_text(encoding="utf-8"))["meta"]["strict"] is True
    )
    assert len(fake_api.agent_turns()) == 3
