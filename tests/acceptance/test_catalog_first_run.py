"""Acceptance: a catalog's first run, on catalog/amd-like (skill cards, a machine.yml naming a runner
type, shared negatives in eval/, no baseline). Each red first run names its way out."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.support.helpers import run_cli

CATALOG = Path(__file__).parent / "catalog" / "amd-like"
POLICY = ["--skill-files", "skill-card.md", "--skill-sections", "Description,Owner,License"]
STRUCTURAL = ["structural", "--skills-dir", "skills/*", *POLICY, "--negatives", "eval/negatives.json"]
HINT = "`skillscope baseline`"


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    root = tmp_path / "amd-like"
    shutil.copytree(CATALOG, root)
    return root


def run(root: Path, *args: str):
    return run_cli([*args, "--repo", str(root)], cwd=root)


def hint_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if HINT in line]


@pytest.mark.parametrize("form", ["text", "markdown"])
def test_a_failed_first_run_names_the_adoption_path_in_one_line(catalog: Path, form: str):
    result = run(catalog, *STRUCTURAL, "--format", form)

    assert result.code == 1
    assert "tier0-behavior" in result.stdout
    [hint] = hint_lines(result.stdout)
    assert "--warn tier0-behavior" in hint and ".skillscope/baseline.json" in hint


def test_either_way_out_turns_it_green_and_the_hint_goes(catalog: Path):
    demoted = run(catalog, *STRUCTURAL, "--warn", "tier0-behavior")
    assert demoted.code == 0 and not hint_lines(demoted.stdout)

    recorded = run(
        catalog, "baseline", "--skills-dir", "skills/*", *POLICY, "--negatives", "eval/negatives.json"
    )
    assert recorded.code == 0 and (catalog / ".skillscope" / "baseline.json").is_file()
    after = run(catalog, *STRUCTURAL)
    assert after.code == 0 and not hint_lines(after.stdout)


def test_a_run_stopped_by_the_structural_gate_names_it_too(catalog: Path):
    result = run(
        catalog, "routing", "--engine", "lexical", "--skills-dir", "skills/*", "--routing-room", "all"
    )

    assert result.code == 1
    assert "structural error(s)" in result.stderr
    [hint] = hint_lines(result.stderr)
    assert "--warn tier0-behavior" in hint


def test_with_a_baseline_in_force_a_new_finding_gets_no_first_run_hint(catalog: Path):
    run(catalog, "baseline", "--skills-dir", "skills/*")
    dataset = catalog / "skills" / "local-chat" / "evals" / "evals.json"
    data = json.loads(dataset.read_text(encoding="utf-8"))
    data["evaluations"] = [case for case in data["evaluations"] if case["skill_should_trigger"]]
    dataset.write_text(json.dumps(data), encoding="utf-8")

    result = run(catalog, "structural", "--skills-dir", "skills/*")
    assert result.code == 1 and "tier0-negatives" in result.stdout
    assert not hint_lines(result.stdout)


def test_an_undefined_runner_type_shows_the_value_to_pass_and_that_value_works(catalog: Path):
    refused = run(catalog, "select", "--all", "--skills-dir", "skills/*")
    assert refused.code == 1 and refused.stdout == ""
    assert "skills/gpu-serving/evals/machine.yml names runner_type 'instinct'" in refused.stderr
    quoted = re.search(r"--runner-types ('[^']*')", refused.stderr)
    assert quoted, refused.stderr
    [value] = shlex.split(quoted.group(1))  # exactly what a shell hands the flag
    assert json.loads(value) == {"instinct": {"labels": ["self-hosted", "instinct"]}}

    planned = run(catalog, "select", "--all", "--skills-dir", "skills/*", "--runner-types", value)
    assert planned.code == 0, planned.stderr
    legs = {leg["skill"]: json.loads(leg["runner"]) for leg in json.loads(planned.stdout)["default"]}
    assert legs["gpu-serving"][:2] == ["self-hosted", "instinct"]


def test_the_value_to_pass_keeps_the_types_already_defined(catalog: Path):
    defined = '{"mi300": {"labels": ["self-hosted", "mi300"], "os": ["Linux"], "gate": "gpu"}}'
    refused = run(catalog, "select", "--all", "--skills-dir", "skills/*", "--runner-types", defined)
    quoted = re.search(r"--runner-types ('[^']*')", refused.stderr)
    assert refused.code == 1 and quoted, refused.stderr
    assert json.loads(shlex.split(quoted.group(1))[0]) == {
        **json.loads(defined),
        "instinct": {"labels": ["self-hosted", "instinct"]},
    }


ANTHROPICS_LIKE = CATALOG.parent / "anthropics-like"


def test_a_catalog_without_settings_hears_where_its_skills_are_and_the_advice_works(catalog: Path):
    first = run(catalog, "structural", *POLICY)

    assert first.code == 1
    [line] = [line for line in first.stdout.splitlines() if line.startswith(".: error: no-skill")]
    assert "skills/* holds 3: pass --skills-dir 'skills/*'" in line
    advised = shlex.split(re.search(r"pass (--skills-dir '[^']+')", line).group(1))
    followed = run(catalog, "structural", *advised, *POLICY)
    assert "no-skill" not in followed.stdout and "3 skill(s)" in followed.stdout


def test_skills_one_level_down_that_the_default_misses_are_named(tmp_path: Path):
    root = tmp_path / "anthropics-like"
    shutil.copytree(ANTHROPICS_LIKE, root)

    defaulted = run(root, "structural")
    assert "1 skill(s)" in defaulted.stdout and "template" in defaulted.stdout
    [note] = [line for line in defaulted.stderr.splitlines() if line.startswith("note:")]
    assert "1 skill(s) found in the folders here" in note
    assert "the 2 one level down are not graded (skills/* holds 2: pass --skills-dir 'skills/*')" in note
    assert "`skillscope init`" in note


@pytest.mark.parametrize(
    "named",
    [
        {"args": ["--skills-dir", "*"]},
        {"environ": {"SKILLSCOPE_SKILLS": "skills/*"}},
        {"settings": 'skills-dir = ["*"]\n'},
    ],
    ids=["flag", "environment", "settings"],
)
def test_globs_the_user_named_are_taken_as_meant_without_a_note(tmp_path: Path, named: dict):
    root = tmp_path / "anthropics-like"
    shutil.copytree(ANTHROPICS_LIKE, root)
    if "settings" in named:
        (root / "skillscope.toml").write_text(named["settings"], encoding="utf-8")

    result = run_cli(
        ["structural", *named.get("args", []), "--repo", str(root)], cwd=root, environ=named.get("environ")
    )

    assert re.search(r"[12] skill\(s\)", result.stdout)
    assert "note:" not in result.stderr
