"""addyosmani/agent-skills' case file (`evals/cases/<skill>.json` at the repo's root) read in place as
the skill's dataset: a lexical run honours its `top_k` and `owner`, and a run of the real claude CLI
against the scripted API reports each case on its line in the user's case file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fakeapi import replies as R
from tests.support.helpers import make_skill, run_cli
from tests.support.routing import CaseRouter, route, skills_repo

pytestmark = pytest.mark.usefixtures("private_temp")
CASE_FILE = "evals/cases/csv-tidy.json"
DESCRIPTION = "Tidy CSV files: dedupe rows, rename columns and headers. Use when a csv needs cleaning."


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = skills_repo(tmp_path / "repo", "debugging")
    make_skill(root, "csv-tidy", frontmatter={"name": "csv-tidy", "description": DESCRIPTION}, evals=None)
    (root / "evals" / "cases").mkdir(parents=True)
    shutil.copy(Path(__file__).parent / "addyosmani" / "csv-tidy.json", root / CASE_FILE)
    (root / "evals" / "fixtures" / "csv-tidy").mkdir(parents=True)
    (root / "evals" / "fixtures" / "csv-tidy" / "sales.csv").write_text("Name,Total\nA,1\n", encoding="utf-8")
    return root


def line_of(repo: Path, text: str) -> int:
    lines = (repo / CASE_FILE).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_lexical_run_ranks_the_case_file_in_place_with_its_top_k_and_owner(repo: Path, tmp_path: Path):
    out = tmp_path / "lexical.json"
    args = ["routing", "--engine", "lexical", "--repo", str(repo), "--skills-dir", "*"]
    args += ["--routing-room", "csv-tidy,debugging", "--min-accuracy", "0", "--output", str(out)]
    run = run_cli(args, cwd=repo)
    assert run.code == 0, run.stderr
    cases = {c["id"]: c for c in json.loads(out.read_text())["cases"] if c["skill"] == "csv-tidy"}
    assert set(cases) == {"csv-tidy-1", "csv-tidy-pos-1", "csv-tidy-pos-2", "csv-tidy-pos-3"} | {
        "csv-tidy-neg-1",
        "csv-tidy-neg-2",
    }
    assert {c["source"] for c in cases.values()} == {CASE_FILE}
    assert cases["csv-tidy-pos-2"]["line"] == line_of(repo, "dedupe rows in this csv")
    assert (cases["csv-tidy-pos-2"]["top_k"], cases["csv-tidy-pos-3"]["top_k"]) == (1, 3)  # 3: our default
    owned = cases["csv-tidy-neg-2"]
    assert owned["owner"] == "debugging" and owned["owner_rank"] is not None
    assert cases["csv-tidy-neg-1"]["owner"] is None
    assert not (repo / "csv-tidy" / "evals").exists()  # nothing was converted or written


def test_the_real_cli_routes_case_file_cases_and_reports_lines_in_the_users_file(fake_api, repo, env):
    fake_api.script(CaseRouter({"dedupe rows in this csv": R.skill("csv-tidy")}))
    only = "csv-tidy-pos-2,csv-tidy-neg-1"
    run = route(
        repo, env, "--routing-room", "csv-tidy,debugging", "--skip-preflight", "--no-cache", "--no-canary",
        "--only", only,
    )  # fmt: skip
    assert run.code == 0, run.stderr
    fired, quiet = run.case("csv-tidy-pos-2"), run.case("csv-tidy-neg-1")
    assert (fired["verdict"], quiet["verdict"]) == ("correct_trigger", "true_negative")
    assert (fired["source"], quiet["source"]) == (CASE_FILE, CASE_FILE)
    assert fired["line"] == line_of(repo, "dedupe rows in this csv")
    assert quiet["line"] == line_of(repo, "draw a chart of revenue")
