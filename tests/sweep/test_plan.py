"""harness.sweep.plan: one sweep's inputs from a loaded catalog, and its report, without the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.ballast import Ballast
from harness.model.repo import discover
from harness.model.usage import UsageProfile
from harness.sweep.plan import Plan, routed_cases
from harness.sweep.runner import Leg
from tests.support.helpers import make_skill

OTHERS = tuple((f"other-{i}", f"Does the other-{i} job.") for i in range(12))
BALLAST = Ballast("test", (*OTHERS, ("alpha", "a ballast skill named like one of the catalog's")))


def loaded(tmp_path: Path, *names: str, evals: bool = True) -> catalog.Catalog:
    for name in names:
        make_skill(tmp_path / "skills", name, **({} if evals else {"evals": None}))
    return catalog.load(discover(tmp_path, ["skills/*"]))


def plan_of(skills: catalog.Catalog, **given) -> Plan:
    fields = {"ballast_globs": [], "sizes": ["4", "8"], "repeats": 2, "seed": 0, "engine": "lexical"}
    return Plan.of(skills, routed_cases(skills, [], True), usage=UsageProfile(), **{**fields, **given})


def test_the_plan_holds_the_catalog_its_places_and_every_run_of_one_leg(tmp_path: Path, monkeypatch):
    monkeypatch.setattr("harness.sweep.plan.built_in", lambda: BALLAST)
    plan = plan_of(loaded(tmp_path, "alpha", "beta"), min_knee=8)
    assert plan.catalog == {"alpha": tmp_path / "skills" / "alpha", "beta": tmp_path / "skills" / "beta"}
    assert plan.places["beta"] == ("skills/beta/SKILL.md", 3)
    assert "alpha" not in dict(plan.ballast.skills)  # the catalog's own name is what is installed
    assert plan.sizes == [4, 8] and plan.runs == len(plan.cases) * 2 * 2
    assert [len(ordering) for ordering in plan.orderings()] == [12, 12]


def test_the_lexical_sweep_reports_the_plan_it_ran(tmp_path: Path, monkeypatch):
    monkeypatch.setattr("harness.sweep.plan.built_in", lambda: BALLAST)
    plan = plan_of(loaded(tmp_path, "alpha", "beta"), min_knee=8)
    said: list[str] = []
    report = plan.lexical([Leg("claude")], Deadline(0), said.append).to_json()
    assert report["command"] == "sweep" and report["engine"] == "lexical" and report["min_knee"] == 8
    assert report["catalog"] == ["alpha", "beta"] and report["sizes"] == [4, 8]
    assert report["ballast"] == {"source": "test", "available": 12} and report["cases"] == len(plan.cases)
    assert said  # the progress lines went to `say`


def test_skills_without_a_routing_case_are_a_usage_error(tmp_path: Path):
    with pytest.raises(UsageError, match="no routing case to sweep"):
        routed_cases(loaded(tmp_path, "alpha", evals=False), [], True)
