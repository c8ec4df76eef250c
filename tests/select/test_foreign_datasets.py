"""The plan's behavioral legs for skills whose cases are in another tool's files: planned as
`behavioral` reads them (skill-creator's evals shape, addyosmani's case files), never skipped as
"no behavior" because the file is not in skillscope's own shape."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.model import repo as repo_mod
from harness.select import facts
from tests.support.select import select

CATALOG = Path(__file__).parent / "foreign_datasets"


def copied(tmp_path: Path) -> Path:
    root = Path(shutil.copytree(CATALOG, tmp_path / "repo"))
    (root / ".git").mkdir()
    return root


def test_each_foreign_file_counts_its_behavioral_cases(tmp_path):
    repo = repo_mod.discover(copied(tmp_path), ["skills/*"])
    found = facts.load_facts(repo, ["csv-tidy", "pdf-tools", "slides"], extended=True)
    assert {name: fact.has_behavior for name, fact in found.items()} == {
        "csv-tidy": True,
        "pdf-tools": True,
        "slides": False,
    }


def test_select_all_plans_a_leg_for_each_skill_behavioral_would_run(tmp_path):
    plan = select(copied(tmp_path), "--all", "--skills-dir", "skills/*", "--routing-room", "all").plan
    assert [leg["skill"] for leg in plan["default"]] == ["csv-tidy", "pdf-tools"]
    assert plan["no_behavior"] == ["slides"]


@pytest.mark.parametrize(
    ("changed", "skills", "routing"),
    [
        ("evals/cases/csv-tidy.json", ["csv-tidy"], True),  # addyosmani's case file, at the root
        ("skills/slides/evals/eval_set.json", ["slides"], True),  # skill-creator's trigger set
        ("skills/pdf-tools/evals/evals.json", ["pdf-tools"], True),
        # Gone, and no skill of its name is left: a removed skill's dataset, which the room `all` held
        ("evals/cases/no-such-skill.json", [], True),
        # addyosmani's input files, at the root's evals/fixtures/: the skill whose cases copy them, no routing
        ("evals/fixtures/csv-tidy/sales.csv", ["csv-tidy"], False),
        ("evals/fixtures/shared/headers/sales.txt", ["csv-tidy"], False),  # inside a folder a case copies
        ("evals/fixtures/unused/notes.txt", [], False),
        ("evals/fixtures/pdf-tools/a.pdf", [], False),  # named by a case file its skill's own file overrides
    ],
)
def test_a_change_to_a_foreign_dataset_selects_its_skill_and_routing(tmp_path, changed, skills, routing):
    plan = select(
        copied(tmp_path), "--changed", "--skills-dir", "skills/*", "--routing-room", "all", stdin=changed
    )
    assert plan.plan["routing"] is routing
    assert sorted([leg["skill"] for leg in plan.plan["default"]] + plan.plan["no_behavior"]) == skills


def test_a_case_file_of_no_skill_still_on_disk_is_nobodys(tmp_path):
    root = copied(tmp_path)
    (root / "evals" / "cases" / "orphan.json").write_text("[]", encoding="utf-8")
    plan = select(
        root,
        "--changed",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "all",
        stdin="evals/cases/orphan.json",
    )
    assert (plan.plan["routing"], plan.plan["default"], plan.plan["unknown"]) == (False, [], [])
