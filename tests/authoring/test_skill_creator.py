"""harness.authoring.skill_creator and `skillscope import skill-creator`, on skill-creator-shaped files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.authoring import skill_creator
from harness.model import dataset
from tests.support.helpers import run_cli

HERE = Path(__file__).parent / "skill_creator"
SKILL = "pdf-filler"


def load(name: str) -> object:
    return json.loads((HERE / SKILL / "evals" / name).read_text(encoding="utf-8"))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(HERE, root)
    (root / ".git").mkdir()
    return root


def test_evals_and_triggers_become_one_dataset_with_safe_unique_ids(tmp_path: Path):
    converted = skill_creator.convert(
        SKILL, load("skill-creator-evals.json"), load("trigger-evals.json"), HERE / SKILL, stage_files=True
    )
    cases = converted.dataset["evaluations"]
    assert [c["id"] for c in cases] == [
        "pdf-filler-1",
        "pdf-filler-1-2",  # skill-creator repeated the id
        "pdf-filler-trigger-1",
        "pdf-filler-trigger-2",
        "pdf-filler-no-trigger-3",
        "pdf-filler-no-trigger-4",
    ]
    first = cases[0]
    assert first["expected_behavior"] == [
        "A filled PDF whose name field reads Ada",
        "The agent reads data.csv before writing",
        "The output PDF is saved next to the input",
    ]
    assert first["workspace"] == "fixtures/pdf-filler-1" and first["skill_should_trigger"] is True
    assert cases[1]["expected_behavior"] == ["The agent asks which form when none is attached"]
    assert [c["skill_should_trigger"] for c in cases[2:]] == [True, True, False, False]
    assert converted.fixtures == {"pdf-filler-1": [(HERE / SKILL / "evals/files/data.csv").resolve()]}
    parsed = dataset.parse(json.dumps(converted.dataset), dataset.Dataset(f"{SKILL}/evals/evals.json", SKILL))
    assert parsed.problems == []


def test_what_cannot_be_carried_over_is_said_once_each():
    converted = skill_creator.convert(
        SKILL, load("skill-creator-evals.json"), load("trigger-evals.json"), HERE / SKILL, stage_files=True
    )
    said = "\n".join(converted.left_out)
    assert "evals[0]: file '../../elsewhere/secret.pdf' lies outside the skill" in said
    assert "evals[2] has no prompt" in said
    assert "trigger query 5 has no true/false should_trigger" in said
    assert len(converted.left_out) == 3


def test_without_an_output_file_input_files_are_reported_not_staged():
    converted = skill_creator.convert(
        SKILL, load("skill-creator-evals.json"), None, HERE / SKILL, stage_files=False
    )
    assert "workspace" not in converted.dataset["evaluations"][0] and converted.fixtures == {}
    assert any("not copied; write the dataset with --output" in s for s in converted.left_out)


@pytest.mark.parametrize("bad", [{"evals": "no"}, [], "text"])
def test_a_file_of_another_shape_is_refused(bad: object):
    with pytest.raises(skill_creator.NotSkillCreator, match="is not a skill-creator evals file"):
        skill_creator.convert(SKILL, bad, None, HERE / SKILL, stage_files=False)


def test_the_command_writes_the_dataset_and_its_fixture_and_structural_passes_it(repo: Path):
    evals = f"{SKILL}/evals/skill-creator-evals.json"
    triggers = f"{SKILL}/evals/trigger-evals.json"
    out = f"{SKILL}/evals/evals.json"
    run = run_cli(
        [
            "import",
            "skill-creator",
            "--evals",
            evals,
            "--triggers",
            triggers,
            "--skill",
            SKILL,
            "--output",
            out,
        ],
        cwd=repo,
    )
    assert run.code == 0, run.stderr
    assert (repo / SKILL / "fixtures" / "pdf-filler-1" / "data.csv").is_file()
    assert (
        "not carried over: evals[0]: file '../../elsewhere/secret.pdf' lies outside the skill" in run.stderr
    )
    written = json.loads((repo / out).read_text(encoding="utf-8"))
    assert len(written["evaluations"]) == 6
    checked = run_cli(["structural", "--output", str(repo / "report.json")], cwd=repo)
    report = json.loads((repo / "report.json").read_text(encoding="utf-8"))
    assert checked.code == 0, [f["message"] for f in report["findings"]]


@pytest.mark.parametrize("linked", ["evals.json", "fixtures"])
def test_the_command_writes_nothing_through_a_link_of_the_repo_leading_out(
    repo: Path, tmp_path: Path, linked: str
):
    """A committed `evals/evals.json` (or `fixtures/`) link climbing out of the repo is refused, and
    what it leads to is left alone."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evals.json").write_text("theirs\n")
    where = repo / SKILL / ("evals" if linked == "evals.json" else "") / linked
    where.unlink(missing_ok=True)
    where.symlink_to(outside / linked)
    evals = f"{SKILL}/evals/skill-creator-evals.json"
    out = f"{SKILL}/evals/evals.json"
    run = run_cli(["import", "skill-creator", "--evals", evals, "--skill", SKILL, "--output", out], cwd=repo)
    # --output is checked before any work (a usage error); the fixtures' folder when it is written.
    if linked == "evals.json":
        assert run.code == 2 and run.stderr.startswith(f"error: --output {repo / out}: "), run.stderr
    else:
        assert run.code == 1 and run.stderr.startswith("error: refused to write an input file to "), (
            run.stderr
        )
    assert "is a symlink leading out of" in run.stderr and "Traceback" not in run.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["evals.json"]
    assert (outside / "evals.json").read_text() == "theirs\n"
    if linked == "fixtures":  # nothing half done: no dataset naming fixtures that are not there
        assert not (repo / out).exists()


def test_the_command_prints_to_stdout_by_default_and_refuses_an_unknown_skill(repo: Path):
    run = run_cli(
        ["import", "skill-creator", "--triggers", f"{SKILL}/evals/trigger-evals.json", "--skill", SKILL],
        cwd=repo,
    )
    assert run.code == 0 and json.loads(run.stdout)["evaluations"][0]["id"] == "pdf-filler-trigger-1"
    missing = run_cli(["import", "skill-creator", "--evals", "x.json", "--skill", "ghost"], cwd=repo)
    assert missing.code == 2 and "--skill ghost: no skill of that name under --skills-dir" in missing.stderr


def test_broken_json_names_the_file_and_line(repo: Path):
    (repo / "broken.json").write_text('{\n  "evals": [\n', encoding="utf-8")
    run = run_cli(["import", "skill-creator", "--evals", "broken.json", "--skill", SKILL], cwd=repo)
    assert run.code == 1 and "broken.json:3: is not valid JSON" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_input_folder_is_imported_whole_and_one_with_a_link_out_is_named(repo: Path):
    skill = repo / SKILL
    (skill / "evals" / "files" / "pages" / "deep").mkdir(parents=True)
    (skill / "evals" / "files" / "pages" / "deep" / "two.txt").write_text("two")
    (skill / "evals" / "files" / "leaky").mkdir()
    (skill / "evals" / "files" / "leaky" / "out.txt").symlink_to(repo.parent)
    evals = skill / "evals" / "skill-creator-evals.json"
    data = json.loads(evals.read_text(encoding="utf-8"))
    data["evals"][0]["files"] = ["evals/files/pages", "evals/files/leaky"]
    evals.write_text(json.dumps(data), encoding="utf-8")
    out = f"{SKILL}/evals/evals.json"
    run = run_cli(
        ["import", "skill-creator", "--evals", str(evals), "--skill", SKILL, "--output", out], cwd=repo
    )
    assert run.code == 0, run.stderr
    assert (skill / "fixtures" / "pdf-filler-1" / "pages" / "deep" / "two.txt").read_text() == "two"
    left_out = "folder 'evals/files/leaky' holds evals/files/leaky/out.txt, a link that leads outside"
    assert left_out in run.stderr
    assert not (skill / "fixtures" / "pdf-filler-1" / "leaky").exists()


def test_a_file_with_no_case_to_convert_writes_nothing_and_says_why(repo: Path):
    """An addyosmani case file whose evals[] is empty, given to the skill-creator importer: its trigger
    block is left out, so nothing is converted. An empty dataset was once written (exit 0), which
    structural then rejected."""
    out = repo / SKILL / "evals" / "imported.json"
    run = run_cli(
        ["import", "skill-creator", "--evals", "trigger-only.json", "--skill", SKILL, "--output", str(out)],
        cwd=repo,
    )
    assert run.code == 1 and run.stdout == "" and not out.exists()
    assert "[import] not carried over: the top-level `trigger`" in run.stderr
    assert "use `skillscope import addyosmani`" in run.stderr
    assert run.stderr.endswith("error: trigger-only.json: no case to convert, so nothing was written.\n")
