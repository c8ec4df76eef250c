"""harness.select.selection: whether a room of every skill with a dataset would route a change."""

from __future__ import annotations

from pathlib import Path

from harness.model import repo as repo_mod
from harness.select.policy import PlanOptions
from harness.select.selection import Selection, routes_with_every_dataset
from tests.support.select import skill


def two_datasets(root: Path) -> repo_mod.Repo:
    skill(root, "skills/alpha", files={"reference.md": "how"})
    skill(root, "skills/beta")
    return repo_mod.discover(root, ["skills/*"])


def test_a_description_edit_would_route_and_a_reference_edit_would_not(tmp_path: Path):
    repo = two_datasets(tmp_path)
    nothing = Selection(skills=[], routing=False)
    assert routes_with_every_dataset(nothing, ["skills/alpha/SKILL.md"], repo, PlanOptions())
    assert not routes_with_every_dataset(nothing, ["skills/alpha/reference.md"], repo, PlanOptions())


def test_skills_named_route_whenever_there_is_one(tmp_path: Path):
    repo = two_datasets(tmp_path)
    assert routes_with_every_dataset(Selection(skills=["beta"], routing=False), None, repo, PlanOptions())
    assert not routes_with_every_dataset(Selection(skills=[], routing=False), None, repo, PlanOptions())
