"""harness.authoring.survey: what init notices in a repo, one finding at a time on small trees."""

from __future__ import annotations

import json

import pytest

from harness.authoring import survey


def skill(root, name, **files):
    folder = root / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: x\n---\n")
    for file_name, text in files.items():
        (folder / file_name.replace("_", "-").replace("-md", ".md")).write_text(text)
    return folder


def test_one_skill_says_nothing_about_a_policy(tmp_path):
    folder = skill(tmp_path, "only", skill_card_md="## Owner\n\nme\n")
    assert survey.shared_files([folder]) == []


def test_hidden_files_and_folders_are_no_policy(tmp_path):
    folders = [skill(tmp_path, name, skill_card_md="## Owner\n\nme\n") for name in ("a", "b")]
    for folder in folders:
        (folder / ".DS_Store").write_text("x")
        (folder / "scripts").mkdir()
    assert survey.shared_files(folders) == ["skill-card.md"]


def test_sections_are_shared_by_title_whatever_the_case_and_only_with_content(tmp_path):
    first = tmp_path / "a.md"
    first.write_text("## Owner\n\nme\n\n## License\n\nMIT\n\n## Notes\n\n")
    second = tmp_path / "b.md"
    second.write_text("## license\n\nMIT\n\n## OWNER\n\nyou\n\n## Notes\n\nsome\n")
    assert survey.shared_sections([first, second]) == ["Owner", "License"]  # Notes is empty in a.md
    assert survey.shared_sections([tmp_path / "c.txt"]) == []  # not markdown: no sections asked of it


@pytest.mark.parametrize(
    ("line", "runs_evals"),
    [
        ("      - run: python eval/run_evals.py --validate", True),
        ("      - uses: skillscope/skillscope@v0.1.0", True),
        ("      - run: jq . skills/*/evals/evals.json", True),
        ("      - run: ./scripts/check_evals.sh", True),
        ("      - run: python -m pytest tests", False),
        ("      - run: npm run lint", False),
        ("name: evaluate-pr", False),
        ("# we should run skillscope here one day", False),  # a comment runs nothing
    ],
)
def test_a_workflow_runs_skill_evals_by_what_its_lines_run(tmp_path, line, runs_evals):
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "ci.yaml").write_text(f"name: ci\non: [push]\njobs:\n  a:\n    steps:\n{line}\n")
    found = survey.eval_workflows(tmp_path, ".github/workflows/skills.yml")
    assert bool(found) == runs_evals
    if runs_evals:
        assert found[0].path == ".github/workflows/ci.yaml" and found[0].line == 6


@pytest.mark.parametrize(
    ("workflow", "line", "command"),
    [
        # a trigger's paths filter names the eval folder first; the step that runs them is further down
        (
            'on:\n  pull_request:\n    paths:\n      - "eval/**"\njobs:\n  a:\n    steps:\n'
            "      - name: Run the evals\n        run: python eval/run_evals.py --validate\n",
            9,
            "python eval/run_evals.py --validate",
        ),
        # a run block: the line inside it that runs the evals
        (
            "jobs:\n  a:\n    steps:\n      - name: evals/\n        run: |\n          pip install .\n"
            "          skillscope structural\n      - run: echo done\n",
            7,
            "skillscope structural",
        ),
        # a step that only validates the datasets comes first; the one that runs them, continued over
        # several lines, is the answer (amd/skills' evals.yml)
        (
            "jobs:\n  a:\n    steps:\n      - run: python eval/run_evals.py --validate\n"
            "      - run: |\n          set -e\n          python eval/run_evals.py \\\n"
            "            --mode routing \\\n            --output report.json\n",
            7,
            "python eval/run_evals.py --mode routing --output report.json",
        ),
    ],
)
def test_a_workflow_is_named_at_the_line_that_runs_the_evals(tmp_path, workflow, line, command):
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "validate.yml").write_text(workflow)
    [found] = survey.eval_workflows(tmp_path, ".github/workflows/skills.yml")
    assert (found.line, found.command) == (line, command)


def test_inits_own_workflow_is_not_another_one(tmp_path):
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "skills.yml").write_text("jobs:\n  evals:\n    uses: skillscope/skillscope/x.yml@v1\n")
    assert survey.eval_workflows(tmp_path, ".github/workflows/skills.yml") == []


def test_negatives_files_are_dataset_shaped_or_bare_and_all_false(tmp_path):
    false_case = {"id": "n1", "skill_should_trigger": False, "prompt": "Merge two lists"}
    true_case = {"id": "p1", "skill_should_trigger": True, "prompt": "Fill the form"}
    (tmp_path / "eval").mkdir()
    (tmp_path / "eval" / "negatives.json").write_text(json.dumps({"evaluations": [false_case]}))
    (tmp_path / "shared-negatives.json").write_text(json.dumps([false_case]))
    (tmp_path / "eval" / "mixed-negatives.json").write_text(json.dumps([false_case, true_case]))
    (tmp_path / "eval" / "empty-negatives.json").write_text(json.dumps({"evaluations": []}))
    (tmp_path / "eval" / "broken-negatives.json").write_text("{")
    deep = tmp_path / "eval" / "more"
    deep.mkdir()
    (deep / "negatives.json").write_text(json.dumps([false_case]))  # two folders down: not looked at
    assert survey.negatives_files(tmp_path, set()) == (["eval/negatives.json"], ["shared-negatives.json"])


def test_a_skills_own_folder_is_no_place_for_shared_negatives(tmp_path):
    folder = tmp_path / "pdf"
    folder.mkdir()
    (folder / "negatives.json").write_text(json.dumps([{"skill_should_trigger": False, "prompt": "x"}]))
    assert survey.negatives_files(tmp_path, {folder}) == ([], [])


def test_runner_types_leave_out_the_everyday_one_and_those_defined(tmp_path):
    folders = []
    for name, kind in (("a", "instinct"), ("b", "default"), ("c", "radeon"), ("d", None)):
        folder = skill(tmp_path, name)
        (folder / "evals").mkdir()
        if kind:
            (folder / "evals" / "machine.yml").write_text(f"runner_type: {kind}\n")
        folders.append(folder)
    found = survey.runner_types(tmp_path, folders, frozenset({"radeon"}))
    assert found == {"instinct": ["skills/a/evals/machine.yml"]}


@pytest.mark.parametrize(
    ("steps", "line", "checks_only"),
    [
        # amd/skills' validate.yml: only a dataset check, named as one
        (
            "      - run: python eval/run_evals.py --validate\n      - run: python eval/test_evals.py\n",
            4,
            True,
        ),
        # a job planner names evals too; the runner below it is the answer
        ("      - run: uv run scripts/select_evals.py\n      - run: node scripts/run-evals.js\n", 5, False),
    ],
)
def test_a_workflow_that_only_checks_its_evals_is_named_as_such(tmp_path, steps, line, checks_only):
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "validate.yml").write_text(f"jobs:\n  a:\n    steps:\n{steps}")
    [found] = survey.eval_workflows(tmp_path, ".github/workflows/skills.yml")
    assert (found.line, found.checks_only) == (line, checks_only)
