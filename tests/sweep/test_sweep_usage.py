"""The lexical sweep ranks claude's listing at each size by the usage profile (--usage): a skill claude
lists by name only when it was never used keeps its description when the profile says users use it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from harness import schemas
from tests.support.helpers import run_cli

CATALOG = Path(__file__).resolve().parent / "clause_cut"
SKILL = "release-notes"


def swept(tmp_path: Path, *extra: str) -> dict:
    repo = tmp_path / "repo"
    if not repo.exists():
        shutil.copytree(CATALOG, repo)
        (repo / "usage.json").write_text(json.dumps({SKILL: 40}), encoding="utf-8")
    output = tmp_path / "sweep.json"
    args = ["sweep", "--repo", str(repo), "--skills-dir", "skills/*", "--warn", "description-collision"]
    args += ["--agent", "claude", "--sizes", "3,300", "--repeat", "1", "--output", str(output), *extra]
    run = run_cli(args, cwd=repo)
    assert run.code == 0, run.stderr
    return json.loads(output.read_text(encoding="utf-8"))


def states_at_largest(report: dict) -> dict:
    (leg,) = report["agents"]
    skill = next(s for s in leg["skills"] if s["skill"] == SKILL)
    return skill["curve"][-1]["states"]


def test_the_usage_profile_keeps_a_used_skills_description_in_claudes_listing(tmp_path: Path):
    never = swept(tmp_path)
    used = swept(tmp_path, "--usage", "usage.json")
    assert states_at_largest(never) == {"name-only": 1}
    assert states_at_largest(used) == {"full": 1}
    assert (never["usage"], used["usage"]) == (None, "usage.json")
    assert never["engine"] == "lexical" and never["run"] is None
    assert not list(schemas.errors("sweep-report", used))
