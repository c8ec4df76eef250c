"""harness.authoring.advice: what init advises after adopting a repo, from its survey alone."""

from __future__ import annotations

from harness.authoring import advice
from harness.authoring.survey import Survey


def test_an_empty_repo_is_told_to_create_a_skill_first_and_add_the_secret():
    steps = advice.next_steps(Survey(), ["skills/*"], wrote_workflow=True)
    assert steps[0] == "  create a first skill: skillscope new my-skill --dir skills"
    assert advice.KEY_SECRET in steps[-1] and all(step.startswith("  ") for step in steps)


def test_skills_without_a_dataset_are_told_to_write_one_before_routing():
    found = Survey(skills=["skills/a", "skills/b"])
    steps = advice.next_steps(found, ["skills/*"], wrote_workflow=False)
    assert any("skills/a/evals/evals.json" in step for step in steps)
    assert not any("routing --engine lexical" in step or advice.KEY_SECRET in step for step in steps)


def test_a_partial_catalog_routes_in_the_catalog_room_and_a_whole_one_in_every_skill():
    partial = Survey(skills=["skills/a", "skills/b"], with_dataset=["a"])
    whole = Survey(skills=["skills/a"], with_dataset=["a"])
    assert any("--routing-room catalog" in step for step in advice.next_steps(partial, ["skills/*"], False))
    assert any("--routing-room all" in step for step in advice.next_steps(whole, ["skills/*"], False))


def test_each_undefined_runner_type_is_one_line_naming_the_settings_file():
    found = Survey(runner_types={"instinct": ["skills/a/evals/machine.yml"]})
    (line,) = advice.runner_types(found, "pyproject.toml [tool.skillscope]")
    assert line.startswith("skills/a/evals/machine.yml names runner_type instinct")
    assert "add runner-types to pyproject.toml [tool.skillscope]" in line
