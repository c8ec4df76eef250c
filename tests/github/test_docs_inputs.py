"""Every input of every workflow and of the action is documented, and every documented input exists."""

from __future__ import annotations

import re

import pytest

from tests.support.yamlfiles import ACTION, DOCS, ROOT, load, triggers

ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def documented(section_title: str) -> set[str]:
    """Names in the first column of the tables under `### <section_title>` (until the next heading)."""
    names, inside = set(), False
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            inside = line.lstrip("#").strip() == section_title
            continue
        match = ROW.match(line)
        if inside and match:
            names.add(match.group(1))
    return names


def declared_workflow(name: str) -> set[str]:
    call = triggers(load(ROOT / ".github" / "workflows" / name))["workflow_call"]
    return set(call.get("inputs") or {}) | set(call.get("secrets") or {})


@pytest.mark.parametrize("name", ["reusable.yml", "skill-evals.yml"])
def test_every_workflow_input_and_secret_is_documented_and_exists(name):
    declared, docs = declared_workflow(name), documented(f"Inputs of {name}")
    assert declared - docs == set(), f"undocumented in {DOCS.name}"
    assert docs - declared == set(), f"documented but not declared by {name}"


def test_every_action_input_and_output_is_documented_and_exists():
    action = load(ACTION)
    declared = set(action["inputs"]) | set(action["outputs"])
    docs = documented("Inputs of action.yml")
    assert declared - docs == set()
    assert docs - declared == set()


def test_the_full_pipeline_takes_every_setting_of_the_configuration_table():
    table = {
        "skill_globs",
        "routing_room",
        "infra_paths",
        "doc_globs",
        "excluded_urls",
        "skill_files",
        "skill_sections",
        "behavior_runner",
        "behavior_os",
        "scoped_runner",
        "scoped_gate",
        "scoped_environment",
    }
    extra = {
        "runner_types",
        "hosted_images",
        "min_accuracy",
        "model",
        "negatives",
        "extended",
        "ignore_gates",
        "external_references",
        "version",
        "api_base_url",
        "api_key_secret",
    }
    assert table | extra <= declared_workflow("skill-evals.yml")


def test_the_one_job_workflow_takes_its_documented_inputs():
    assert {
        "skills",
        "structural",
        "routing",
        "behavioral",
        "runner",
        "min_accuracy",
        "agents",
        "model",
        "negatives",
        "compare",
        "version",
        "api_base_url",
        "ledger_name",
        "api_key_secret",
        "api_key",
    } == declared_workflow("reusable.yml")


def test_the_doc_explains_pinning_and_gating():
    text = DOCS.read_text(encoding="utf-8")
    for heading in ("## Versions and pinning", "## Gating scoped hardware legs"):
        assert heading in text
    assert "skillscope_version" in text and "SKILLSCOPE_VERSION" in text and "SKILLSCOPE_SOURCE" in text


def test_the_pinned_claude_version_is_the_one_documented():
    default = load(ACTION)["inputs"]["claude-version"]["default"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", default)
    assert f"`{default}`" in DOCS.read_text(encoding="utf-8")
