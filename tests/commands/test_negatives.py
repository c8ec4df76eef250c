"""The repo's own shared negatives: --negatives files join routing like the built-in ones, structural
validates them, and --no-builtin-negatives leaves the harness's set out."""

from __future__ import annotations

import json
from pathlib import Path

from harness.model import dataset
from tests.fakeapi import replies as R
from tests.support.helpers import structural
from tests.support.routing import CaseRouter, route, routing_env, skills_repo

REPO_NEGATIVES = {
    "evaluations": [
        {"id": "acme-neg-weather", "skill_should_trigger": False, "prompt": "What is the weather in Lisbon?"},
        {"id": "acme-neg-lunch", "skill_should_trigger": False, "prompt": "Suggest a place for lunch."},
    ]
}


def repo_with_negatives(root: Path, negatives: dict = REPO_NEGATIVES) -> Path:
    skills_repo(root, "alpha")
    (root / "shared").mkdir()
    (root / "shared" / "negatives.json").write_text(json.dumps(negatives), encoding="utf-8")
    return root


def builtin_ids() -> set[str]:
    return {case.id for case in dataset.shared_negatives().cases}


def test_repo_negatives_join_routing_beside_the_builtin_ones(tmp_path, fake_api, claude_bin):
    repo = repo_with_negatives(tmp_path / "repo")
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    fake_api.script(CaseRouter({f"alpha-pos-{n}": R.skill("alpha") for n in (1, 2, 3)}))
    run = route(
        repo, env, "--routing-room", "alpha", "--skip-preflight", "--negatives", "shared/negatives.json"
    )
    assert run.code == 0, run.stderr
    ids = {case["id"] for case in json.loads(run.output.read_text(encoding="utf-8"))["cases"]}
    assert {"acme-neg-weather", "acme-neg-lunch"} <= ids and builtin_ids() <= ids


def test_no_builtin_negatives_leaves_only_the_repos(tmp_path, fake_api, claude_bin):
    repo = repo_with_negatives(tmp_path / "repo")
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    fake_api.script(CaseRouter({}))
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--only",
        "acme-neg-weather,acme-neg-lunch,alpha-neg-1",
        "--negatives",
        "shared/negatives.json",
        "--no-builtin-negatives",
    )
    assert run.code == 0, run.stderr
    ids = [case["id"] for case in json.loads(run.output.read_text(encoding="utf-8"))["cases"]]
    assert sorted(ids) == ["acme-neg-lunch", "acme-neg-weather", "alpha-neg-1"]
    assert not builtin_ids() & set(ids)


def test_structural_validates_the_file_and_its_ids_against_every_dataset(tmp_path):
    clash = {"evaluations": [{"id": "alpha-neg-1", "skill_should_trigger": False, "prompt": "Hello there."}]}
    repo = repo_with_negatives(tmp_path / "repo", clash)
    run, report = structural(
        repo, "--skills-dir", "alpha", "--negatives", "shared/negatives.json", tmp=tmp_path
    )
    assert run.code == 1
    assert [f["rule"] for f in report["findings"]] == ["case-id-duplicate"]


def test_a_missing_negatives_file_is_a_usage_error(tmp_path):
    repo = skills_repo(tmp_path / "repo", "alpha")
    run, _ = structural(repo, "--negatives", "nope.json", tmp=tmp_path)
    assert run.code == 2 and "--negatives nope.json: no such file" in run.stderr
