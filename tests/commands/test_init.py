"""`skillscope init`: a skills repo gets a caller workflow, the .gitignore line, settings, a first skill;
on an existing catalog (the fixture repos under catalogs/), the settings and warnings that fit it."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from harness.authoring import home
from tests.support.helpers import make_skill, rules, run_cli, structural

CATALOGS = Path(__file__).parent / "catalogs"


def adopt(catalog: str, tmp_path: Path) -> Path:
    """A copy of one fixture catalog, to run init in."""
    return Path(shutil.copytree(CATALOGS / catalog, tmp_path / catalog))


def test_init_writes_the_workflow_gitignore_settings_and_a_first_skill(tmp_path):
    (tmp_path / ".gitignore").write_text("*.pyc")
    run = run_cli(["init", "--skill", "csv-tool"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    workflow = yaml.safe_load((tmp_path / ".github" / "workflows" / "skills.yml").read_text())
    job = workflow["jobs"]["evals"]
    assert job["uses"] == f"{home.repository()}/.github/workflows/reusable.yml@{home.release_tag()}"
    assert job["with"]["skills"].strip() == "skills/*"
    assert workflow["permissions"] == {"contents": "read"}
    assert (tmp_path / ".gitignore").read_text() == (
        "*.pyc\n.skillscope/*\n!.skillscope/baseline.json\n!.skillscope/quarantine.json\n"
    )
    assert 'skills-dir = ["skills/*"]' in (tmp_path / "skillscope.toml").read_text()
    assert (tmp_path / "skills" / "csv-tool" / "SKILL.md").is_file()
    _, report = structural(tmp_path)  # the settings just written find the new skill
    assert report["skills"] == ["csv-tool"]
    assert {f["rule"] for f in report["findings"]} == {"template-leftover"}  # until its text is written


@pytest.mark.parametrize(
    ("catalog", "pinned"), [(None, "the workflow"), ("own-workflow", "that `uses:` line")]
)
def test_init_says_its_pin_is_a_release_tag_ci_resolves_only_once_published(tmp_path, catalog, pinned):
    # With a workflow of the repo's own, init writes none: the pin it names is in the line it suggests.
    repo = adopt(catalog, tmp_path) if catalog else tmp_path
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    tag = home.release_tag()
    assert (
        f"note: {pinned} is pinned to @{tag}, the release tag of this skillscope; until {tag} is "
        f"published, GitHub cannot resolve it: pin a commit id of {home.repository()} there instead"
    ) in run.stdout


def test_the_workflow_is_clean_under_actionlint(tmp_path):
    actionlint = pytest.importorskip("shutil").which("actionlint")
    assert actionlint, "actionlint is pinned in requirements-dev.txt"
    run_cli(["init", "--skills-dir", "catalog/*,staging/*"], cwd=tmp_path)
    workflow = tmp_path / ".github" / "workflows" / "skills.yml"
    done = subprocess.run([actionlint, str(workflow)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"catalog/**"' in workflow.read_text() and '"staging/**"' in workflow.read_text()


def test_init_twice_finds_its_own_files_already_set_up(tmp_path):
    """The second run stopped at the workflow the first one wrote (exit 2)."""
    assert run_cli(["init"], cwd=tmp_path).code == 0
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = run_cli(["init"], cwd=tmp_path)
    assert again.code == 0, again.stderr
    assert ".github/workflows/skills.yml is already set up" in again.stdout
    assert "skillscope.toml is already set up" in again.stdout
    assert "wrote" not in again.stdout and ".gitignore" not in again.stdout
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_init_twice_keeps_a_changed_workflow_and_names_the_way_to_replace_it(tmp_path):
    assert run_cli(["init"], cwd=tmp_path).code == 0
    workflow = tmp_path / ".github" / "workflows" / "skills.yml"
    changed = workflow.read_text().replace("branches: [main]", "branches: [trunk]")
    workflow.write_text(changed)
    (tmp_path / "skillscope.toml").write_text('skills-dir = ["skills/*"]\n')
    again = run_cli(["init"], cwd=tmp_path)
    assert again.code == 2 and workflow.read_text() == changed
    said = "skills.yml already exists and is not the workflow init writes for skills/*; delete it"
    assert said in again.stderr
    forced = run_cli(["init", "--force"], cwd=tmp_path)
    assert forced.code == 0
    assert "branches: [main]" in workflow.read_text()
    assert (tmp_path / ".gitignore").read_text().count(".skillscope/*") == 1
    assert "skillscope.toml" not in forced.stdout  # the settings the user changed are kept, unnamed


def test_init_with_another_glob_than_its_workflow_has_is_a_change(tmp_path):
    assert run_cli(["init"], cwd=tmp_path).code == 0
    assert run_cli(["init", "--skills-dir", "agents/*"], cwd=tmp_path).code == 2


def test_init_names_every_folder_holding_skills_as_structural_advises(tmp_path):
    """A catalog keeping skills in skills/ and staging/: the settings init writes are the --skills-dir
    structural's own advice names, so no staging skill drops out of every later run unseen."""
    repo = adopt("staged", tmp_path)
    advised = structural(repo)[1]["findings"][0]["message"]
    assert "pass --skills-dir 'skills/*,staging/*'" in advised
    run = run_cli(["init", "--force"], cwd=repo)
    assert run.code == 0, run.stderr
    assert "found skills in more than one folder (skills/* holds 2, staging/* holds 1)" in run.stdout
    assert 'skills-dir = ["skills/*", "staging/*"]\n' in (repo / "skillscope.toml").read_text()
    job = yaml.safe_load((repo / ".github" / "workflows" / "skills.yml").read_text())["jobs"]["evals"]
    assert job["with"]["skills"].split() == ["skills/*", "staging/*"]
    assert structural(repo)[1]["skills"] == ["csv-cleaner", "pdf-forms", "release-notes"]
    again = run_cli(["init"], cwd=repo)  # the settings now name both, and the workflow is init's own
    assert ".github/workflows/skills.yml is already set up" in again.stdout


def test_a_skill_folder_at_the_root_beside_them_is_named_as_left_out(tmp_path):
    """A catalog's template skill at its root: structural's advice names only the folders of skills,
    so init writes those and says which root folder it left out and how to grade it."""
    repo = adopt("staged", tmp_path)
    make_skill(repo, "template", evals=None)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    assert (
        "left out template, a skill folder at the root beside the folders holding skills; add '*' to "
        "skills-dir to grade it too"
    ) in run.stdout
    assert 'skills-dir = ["skills/*", "staging/*"]\n' in (repo / "skillscope.toml").read_text()


def test_init_takes_several_globs_from_the_flag(tmp_path):
    run = run_cli(["init", "--skills-dir", "skills/*,staging/*"], cwd=adopt("staged", tmp_path))
    assert run.code == 0, run.stderr
    assert "found skills in more than one folder" not in run.stdout  # asked for, not found
    assert 'skills-dir = ["skills/*", "staging/*"]' in (tmp_path / "staged" / "skillscope.toml").read_text()


def test_init_leaves_settings_in_pyproject_alone(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.skillscope]\nskills-dir = "agents/*"\n')
    assert run_cli(["init"], cwd=tmp_path).code == 0
    assert not (tmp_path / "skillscope.toml").exists()


@pytest.mark.parametrize("before", ["", "*.pyc\n", ".skillscope/\n", "/.skillscope\n*.log\n"])
def test_after_init_the_baseline_is_committed_and_the_reports_are_not(tmp_path, before):
    """Checked with git itself: `git add -A` after init, a run and `skillscope baseline` takes the
    baseline (CI needs it) and none of the reports; an older init's `.skillscope/` line is mended."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text(before)
    assert run_cli(["init", "--skill", "csv-tool"], cwd=tmp_path).code == 0
    structural(tmp_path)
    assert run_cli(["baseline"], cwd=tmp_path).code == 0
    (tmp_path / ".skillscope" / "quarantine.json").write_text('{"cases": []}\n')
    again = run_cli(["init", "--force"], cwd=tmp_path)
    assert again.code == 0 and ".gitignore" not in again.stdout  # a second init leaves it as it is
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    tracked = subprocess.run([*git, "ls-files"], cwd=tmp_path, capture_output=True, text=True).stdout.split()
    committed = {".skillscope/baseline.json", ".skillscope/quarantine.json"}
    assert committed <= set(tracked)
    assert not [path for path in tracked if path.startswith(".skillscope/") and path not in committed]
    assert (tmp_path / ".gitignore").read_text().count(".skillscope/*") == 1


def test_init_sets_the_files_and_sections_every_skill_already_ships(tmp_path):
    repo = adopt("governed", tmp_path)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    written = (repo / "skillscope.toml").read_text()
    # Only what all three skills share: not one skill's NOTES.txt, not the sections some cards lack.
    assert 'skill-files = ["skill-card.md"]\n' in written
    assert 'skill-sections = ["Description", "Owner", "License"]\n' in written
    assert "each of the 3 skills ships skill-card.md" in run.stdout
    assert structural(repo)[0].code == 0
    card = repo / "skills" / "pdf-forms" / "skill-card.md"
    card.write_text(card.read_text().replace("## Owner", "## Maintainer"))
    _, report = structural(repo)  # the policy is live: a card that drops a section fails
    assert rules(report) == ["section-missing"]


def test_with_settings_already_there_init_prints_the_lines_and_the_flags(tmp_path):
    repo = adopt("governed", tmp_path)
    pyproject = repo / "pyproject.toml"
    pyproject.write_text('[tool.skillscope]\nskills-dir = "skills/*"\n')
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    assert pyproject.read_text() == '[tool.skillscope]\nskills-dir = "skills/*"\n'
    assert "pyproject.toml [tool.skillscope] is kept as it is; add" in run.stdout
    assert '  skill-files = ["skill-card.md"]' in run.stdout
    (flags,) = re.findall(r"^  or pass (.*)$", run.stdout, re.M)
    assert flags == "--skill-files skill-card.md --skill-sections Description,Owner,License"
    assert structural(repo, *shlex.split(flags))[0].code == 0


def test_init_sets_the_repos_shared_negatives(tmp_path):
    repo = adopt("negatives", tmp_path)
    # What init will name is a file --negatives takes: structural validates it as a dataset.
    _, report = structural(repo, "--skills-dir", "skills/*", "--negatives", "eval/negatives.json")
    assert report["passed"] and report["findings"] == []
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    written = (repo / "skillscope.toml").read_text()
    # docs/positives-and-negatives.json holds a true case: named like negatives, but it is not.
    assert 'negatives = ["eval/negatives.json"]\n' in written and "positives" not in written
    assert 'negatives = ["eval/negatives.json"]  (only cases no skill should fire on)' in run.stdout


def test_the_negatives_setting_init_writes_is_read(tmp_path):
    repo = adopt("negatives", tmp_path)
    assert run_cli(["init"], cwd=repo).code == 0
    run, report = structural(repo)
    assert run.code == 0, run.stderr
    assert report["settings"]["from_file"] == ["negatives", "skills-dir"]


def watched(repo: Path) -> dict[str, list[str]]:
    """The paths filter of each trigger of the workflow init wrote (YAML reads `on` as True)."""
    triggers = yaml.safe_load((repo / ".github" / "workflows" / "skills.yml").read_text())[True]
    return {event: triggers[event]["paths"] for event in ("pull_request", "push")}


def test_a_change_to_any_file_the_runs_read_triggers_the_workflow(tmp_path):
    repo = adopt("negatives", tmp_path)
    assert run_cli(["init"], cwd=repo).code == 0
    read = [
        "skills/**",
        "skillscope.toml",
        "pyproject.toml",
        ".skillscope/baseline.json",
        ".skillscope/quarantine.json",
        "eval/negatives.json",
        ".github/workflows/skills.yml",
    ]
    # Both triggers, one list: a pull request and the push that merges it are graded alike.
    assert watched(repo) == {"pull_request": read, "push": read}


def test_the_workflow_watches_the_files_settings_already_there_name(tmp_path):
    make_skill(tmp_path / "agents", "csv-tool")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillscope]\nskills-dir = "agents/*"\nnegatives = "ci/false.json,ci/more.json"\n'
        'baseline = "ci/known.json"\nusage = ["ci/usage.json"]\ndocs = "guide/*.md"\n'
    )
    assert run_cli(["init"], cwd=tmp_path).code == 0
    paths = watched(tmp_path)["pull_request"]
    for named in ("ci/false.json", "ci/more.json", "ci/known.json", "ci/usage.json", "guide/*.md"):
        assert named in paths
    assert "pyproject.toml" in paths and "agents/**" in paths


def test_skills_at_the_root_run_the_workflow_on_every_change(tmp_path):
    make_skill(tmp_path, "csv-tool")
    assert run_cli(["init", "--skills-dir", "*"], cwd=tmp_path).code == 0
    assert watched(tmp_path) == {"pull_request": ["**"], "push": ["**"]}


def test_a_bare_list_of_negatives_is_named_with_the_shape_it_needs(tmp_path):
    repo = adopt("bare-negatives", tmp_path)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    assert "negatives" not in (repo / "skillscope.toml").read_text()
    assert "found negatives.json, a JSON list of cases no skill should fire on" in run.stdout
    assert '{"evaluations": [...]}' in run.stdout


def test_init_adds_no_second_workflow_beside_one_that_runs_evals(tmp_path):
    repo = adopt("own-workflow", tmp_path)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    assert not (repo / ".github" / "workflows" / "skills.yml").exists()
    assert (
        "found .github/workflows/evals.yml:13, which already checks skill evals: "
        "python eval/run_evals.py --validate"
    ) in run.stdout
    assert "lint.yml" not in run.stdout  # a workflow that grades no skill is no reason to hold back
    assert "pass --force to add .github/workflows/skills.yml beside it" in run.stdout
    assert (repo / "skillscope.toml").is_file()  # the rest of the adoption still happens
    assert "secret" not in run.stdout  # no step for a workflow init did not write
    forced = run_cli(["init", "--force"], cwd=repo)
    assert forced.code == 0 and (repo / ".github" / "workflows" / "skills.yml").is_file()
    assert "found .github/workflows/evals.yml:13" in forced.stdout
    assert "the routing and behavioral legs of .github/workflows/skills.yml run the agent" in forced.stdout


def test_init_names_the_runner_types_select_needs_and_a_definition_that_works(tmp_path):
    repo = adopt("hardware", tmp_path)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    (told,) = [line for line in run.stdout.splitlines() if "runner_type" in line]
    assert told.startswith(
        "skills/kernel-tuner/evals/machine.yml, skills/memory-profiler/evals/machine.yml name runner_type "
        "instinct, which skillscope's CI planner (`select`) needs defined: add runner-types to "
        "skillscope.toml"
    )
    assert "default" not in told  # the everyday runners need no definition
    assert run_cli(["select", "--all"], cwd=repo).code == 1
    (definition,) = re.findall(r"runner-types = '[^']+'", told)
    with (repo / "skillscope.toml").open("a") as settings:
        settings.write(definition + "\n")
    planned = run_cli(["select", "--all"], cwd=repo)
    assert planned.code == 0, planned.stderr
    legs = {leg["skill"]: leg["runner"] for leg in json.loads(planned.stdout)["default"]}
    assert json.loads(legs["kernel-tuner"])[:2] == ["self-hosted", "instinct"]
    again = run_cli(["init", "--force"], cwd=repo)
    assert "runner_type" not in again.stdout  # once defined, nothing more to say


def test_init_ends_with_next_steps_that_run(tmp_path):
    repo = adopt("governed", tmp_path)
    run = run_cli(["init"], cwd=repo)
    steps = run.stdout.split("\nnext:\n", 1)[1]
    assert "`skillscope baseline` records today's findings (commit .skillscope/baseline.json)" in steps
    assert "add the ANTHROPIC_API_KEY secret" in steps
    (routing,) = re.findall(r"^  (skillscope routing --engine lexical [^:]*):", steps, re.M)
    ranked = run_cli(shlex.split(routing)[1:], cwd=repo)
    assert ranked.code == 0, ranked.stdout + ranked.stderr


def test_init_in_an_empty_repo_says_to_create_a_skill_first(tmp_path):
    run = run_cli(["init", "--skills-dir", "catalog/*"], cwd=tmp_path)
    assert "create a first skill: skillscope new my-skill --dir catalog" in run.stdout


# --- where init writes (harness.writer) -----------------------------------------------------------------


def outside_snapshot(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.mark.parametrize(
    "links",
    [
        {"skillscope.toml": "../outside/skillscope.toml"},
        {".github": "../outside/github"},
        {".github/workflows/skills.yml": "../../../outside/skills.yml"},
        {".gitignore": "../outside/gitignore"},
        {"skillscope.toml": "../outside/skillscope.toml", ".github": "../outside/github"},
    ],
    ids=["settings", "github-folder", "workflow", "gitignore", "settings-and-github"],
)
def test_init_through_dangling_links_leading_out_creates_nothing_outside(tmp_path: Path, links: dict):
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    outside.mkdir()
    for name, target in links.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).symlink_to(target)
    run = run_cli(["init"], cwd=repo)
    assert run.code == 1 and run.stderr.count("\n") == 1, run.stderr
    assert re.match(
        r"error: refused to write the (workflow|settings|\.gitignore) to \S+: \S+ is a symlink", run.stderr
    )
    assert run.stderr.endswith("; replace the link with a plain file or point it inside.\n")
    assert outside_snapshot(outside) == []
    assert not (repo / ".github" / "workflows" / "skills.yml").exists()  # nothing half done either


def test_init_writes_through_links_that_stay_in_the_repo(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "ci").mkdir()
    (repo / ".github").symlink_to("ci")
    (repo / "skillscope.toml").symlink_to("config/skillscope.toml")
    run = run_cli(["init"], cwd=repo)
    assert run.code == 0, run.stderr
    assert (repo / "ci" / "workflows" / "skills.yml").is_file()
    assert 'skills-dir = ["skills/*"]' in (repo / "config" / "skillscope.toml").read_text()


def test_init_names_other_tools_eval_files_and_the_one_way_to_adopt_each(tmp_path):
    """ux-review F8: skill-creator's and addyosmani's files are read in place; import stays on offer."""
    repo = Path(
        shutil.copytree(
            Path(__file__).parents[1] / "acceptance" / "structural" / "addyosmani-case-file", tmp_path / "r"
        )
    )
    native = Path(__file__).parents[1] / "acceptance" / "structural" / "skill-creator-native" / "pdf-tools"
    shutil.copytree(native, repo / "skills" / "pdf-tools")
    (repo / "expected.json").unlink()
    run = run_cli(["init", "--skills-dir", "skills/*"], cwd=repo)
    assert run.code == 0, run.stderr
    assert (
        "found evals/cases/csv-tidy.json, addyosmani/agent-skills' case file: read in place while the "
        "skill has no evals/evals.json of its own: its cases run as they stand, nothing to convert "
        "(`skillscope import addyosmani --skill csv-tidy --evals evals/cases/csv-tidy.json "
        "--output skills/csv-tidy/evals/evals.json` writes a copy in our shape)"
    ) in run.stdout
    assert (
        "found skills/pdf-tools/evals/evals.json, skill-creator's (the specification's evals shape): "
        "read in place" in run.stdout
    )
    assert (
        "found skills/pdf-tools/evals/eval_set.json, skill-creator's trigger set: read in place" in run.stdout
    )
    assert "found skills/csv-lint/evals/routes-csv/case.yaml, a `claude plugin eval` suite" in run.stdout
    adopted = run_cli(
        [
            "import",
            "addyosmani",
            "--skill",
            "csv-tidy",
            "--evals",
            "evals/cases/csv-tidy.json",
            "--output",
            "skills/csv-tidy/evals/evals.json",
        ],
        cwd=repo,
    )
    assert adopted.code == 0, adopted.stderr  # the command init printed works as printed
