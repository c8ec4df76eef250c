"""The repo's own shared negatives: --negatives files join routing like the built-in ones, structural
validates them, and --no-builtin-negatives leaves the harness's set out."""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.model import dataset
from tests.support.helpers import structural
from tests.support.routing import CaseRouter, route, skills_repo

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


def test_repo_negatives_join_routing_beside_the_builtin_ones(tmp_path, fake_api, claude_bin, env):
    """The pool a run would grade, from its dry run (the next test runs repo negatives for real)."""
    repo = repo_with_negatives(tmp_path / "repo")
    run = route(repo, env, "--routing-room", "alpha", "--negatives", "shared/negatives.json", "--dry-run")
    assert run.code == 0, run.stderr
    assert fake_api.requests == []
    listed = set(re.findall(r"([\w-]+): expects ", run.stdout))
    assert {"acme-neg-weather", "acme-neg-lunch"} <= listed and builtin_ids() <= listed
    assert {f"alpha-pos-{n}" for n in (1, 2, 3)} <= listed


def test_no_builtin_negatives_leaves_only_the_repos(tmp_path, fake_api, claude_bin, env):
    repo = repo_with_negatives(tmp_path / "repo")
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
        "--no-canary",
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
