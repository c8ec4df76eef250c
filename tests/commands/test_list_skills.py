"""`skillscope list-skills`: the skills that have a dataset, as one JSON array."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.helpers import make_skill, run_cli


def test_only_skills_with_evals_json_are_listed_in_name_order(tmp_path: Path) -> None:
    make_skill(tmp_path, "zeta")
    make_skill(tmp_path, "alpha")
    make_skill(tmp_path, "no-data", evals=None)
    (tmp_path / "docs").mkdir()
    run = run_cli(["list-skills", "--repo", str(tmp_path)], cwd=tmp_path)
    assert run.code == 0
    assert json.loads(run.stdout) == ["alpha", "zeta"]
    assert run.stdout == '["alpha","zeta"]\n'


def test_an_empty_repo_prints_an_empty_array(tmp_path: Path) -> None:
    run = run_cli(["list-skills", "--repo", str(tmp_path)], cwd=tmp_path)
    assert (run.code, run.stdout) == (0, "[]\n")


def test_skills_dir_takes_a_json_array(tmp_path: Path) -> None:
    make_skill(tmp_path / "a", "one")
    make_skill(tmp_path / "b", "two")
    make_skill(tmp_path / "c", "three")
    run = run_cli(["list-skills", "--repo", str(tmp_path), "--skills-dir", '["a/*", "c/*"]'], cwd=tmp_path)
    assert json.loads(run.stdout) == ["one", "three"]
