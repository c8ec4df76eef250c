"""`skillscope select` end to end in-process: inputs, flags, stdout/stderr contract and exit codes."""

from __future__ import annotations

import json

import pytest

from harness import __version__
from tests.support.select import commit, git, init_repo, legs, select, skill, without_envelope


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    skill(root, "skills/alpha", files={"references/guide.md": "# Guide\n"})
    skill(root, "skills/beta", machine="labels: [self-hosted, gpu]\nos: [Linux]\n")
    skill(root, "skills/quiet", behavior=False)
    return root


def test_changed_paths_on_stdin_plan_their_owners(repo):
    run = select(
        repo,
        "--changed",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "alpha,beta",
        stdin="skills\\alpha\\references\\guide.md\n\n./skills/quiet/SKILL.md\r\nREADME.md\n",
    )
    assert run.code == 0 and run.stderr == ""
    plan = run.plan
    assert plan["routing"] is False
    assert legs(plan) == [("alpha", "Linux", ["ubuntu-latest"], None)]
    assert plan["no_behavior"] == ["quiet"]


def test_a_room_members_skill_md_turns_routing_on(repo):
    run = select(
        repo,
        "--changed",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "alpha",
        stdin="skills/alpha/SKILL.md\n",
    )
    assert run.plan["routing"] is True


def test_all_plans_every_skill_and_routes_when_the_room_is_named(repo):
    plan = select(repo, "--all", "--skills-dir", "skills/*", "--routing-room", "all").plan
    assert plan["routing"] is True
    assert [leg["skill"] for leg in plan["default"]] == ["alpha", "beta"]
    assert plan["no_behavior"] == ["quiet"]


def test_a_blank_room_with_several_skills_means_no_routing(repo):
    assert select(repo, "--all", "--skills-dir", "skills/*", "--routing-room", "").plan["routing"] is False
    assert select(repo, "--all", "--skills-dir", "skills/*").plan["routing"] is False


@pytest.mark.parametrize(
    ("changed", "noted"),
    [("skills/alpha/SKILL.md\n", True), ("skills/alpha/references/guide.md\n", False)],
)
def test_a_description_change_unrouted_for_want_of_a_room_is_noted(repo, changed, noted):
    # A user's first `select` on a catalog: a SKILL.md edit plans no routing, since no room was named.
    # The plan stays one line on stdout; stderr says why routing is off and the flag that turns it on.
    run = select(repo, "--changed", "--skills-dir", "skills/*", stdin=changed)
    assert run.code == 0 and run.plan["routing"] is False
    said = "note: routing is off in this plan: 3 skills have a dataset and no --routing-room names a room"
    assert (said in run.stderr) is noted
    assert "--routing-room all (or catalog)" in run.stderr or not noted
    named_none = select(
        repo, "--changed", "--skills-dir", "skills/*", "--routing-room", "none", stdin=changed
    )
    assert named_none.stderr == ""  # off on purpose: nothing to say


def test_routing_room_none_turns_routing_off(repo):
    plan = select(repo, "--names", "alpha", "--skills-dir", "skills/*", "--routing-room", "none").plan
    assert plan["routing"] is False and [leg["skill"] for leg in plan["default"]] == ["alpha"]


def test_a_one_skill_repo_routes_its_only_skill(tmp_path):
    skill(tmp_path, "solo")
    plan = select(tmp_path, "--changed", stdin="solo/SKILL.md\n").plan
    assert plan["routing"] is True and [leg["skill"] for leg in plan["default"]] == ["solo"]


def test_skills_dir_defaults_to_the_directories_where_select_ran(repo):
    plan = select(repo, "--all", cwd=repo / "skills").plan
    assert [leg["skill"] for leg in plan["default"]] == ["alpha", "beta"]


def test_unknown_names_are_a_usage_error_naming_them(repo):
    run = select(repo, "--names", "alpha,ghost", "--skills-dir", "skills/*")
    assert run.code == 2 and run.stdout == ""
    assert run.stderr.startswith("error: --names: no skill named ghost")


def test_an_unknown_room_member_is_a_usage_error(repo):
    run = select(repo, "--all", "--skills-dir", "skills/*", "--routing-room", "alpha,ghost")
    assert run.code == 2 and "--routing-room names ghost" in run.stderr


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--all", "--changed"],
        ["--names", "a", "--all"],
        ["--since", "main"],
        ["--changed", "--since", "a", "b"],
    ],
)
def test_exactly_one_input_is_required(repo, argv):
    run = select(repo, *argv)
    assert run.code == 2 and "error:" in run.stderr


def test_infra_paths_rerun_everything(repo):
    plan = select(
        repo,
        "--changed",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "alpha",
        "--infra-paths",
        '[".github/workflows/evals.yml", "noxfile.py"]',
        stdin=".github/workflows/evals.yml\n",
    ).plan
    assert plan["routing"] is True and [leg["skill"] for leg in plan["default"]] == ["alpha", "beta"]


def test_scoped_flags_gate_and_split_the_hardware_leg(repo):
    args = [
        "--names",
        "alpha,beta",
        "--skills-dir",
        "skills/*",
        "--scoped-runner",
        "self-hosted",
        "--scoped-gate",
        "run-gpu",
        "--scoped-environment",
        "gpu-pool",
    ]
    gated = select(repo, *args).plan
    assert gated["skipped"] == [{"skill": "beta", "os": "Linux", "gate": "run-gpu"}]
    assert gated["gates"] == ["run-gpu"] and gated["scoped"] == []
    for extra in (["--labels", "docs,run-gpu"], ["--ignore-gates"]):
        opened = select(repo, *args, *extra).plan
        assert legs(opened, "scoped") == [("beta", "Linux", ["self-hosted", "gpu", "Linux"], "run-gpu")]
        assert opened["scoped"][0]["environment"] == "gpu-pool" and opened["skipped"] == []


def test_behavior_runner_and_os_flags_shape_default_legs(repo):
    plan = select(
        repo,
        "--names",
        "alpha",
        "--skills-dir",
        "skills/*",
        "--behavior-runner",
        '["self-hosted", "x64"]',
        "--behavior-os",
        "Linux,Windows",
    ).plan
    assert legs(plan) == [
        ("alpha", "Linux", ["self-hosted", "x64", "Linux"], None),
        ("alpha", "Windows", ["self-hosted", "x64", "Windows"], None),
    ]


def test_blank_workflow_inputs_mean_the_defaults(repo):
    plan = select(
        repo,
        "--names",
        "alpha",
        "--skills-dir",
        "skills/*",
        "--behavior-runner",
        "",
        "--behavior-os",
        " ",
        "--scoped-gate",
        "",
        "--scoped-environment",
        "",
        "--runner-types",
        "",
    ).plan
    assert legs(plan) == [("alpha", "Linux", ["ubuntu-latest"], None)]


def test_runner_types_resolve_a_named_kind_of_machine(tmp_path):
    skill(tmp_path, "skills/big", machine="runner_type: instinct\n")
    types = {
        "instinct": {
            "labels": ["self-hosted", "mi300"],
            "os": ["Linux"],
            "gate": "enable_mi_ci",
            "environment": "instinct",
        }
    }
    plan = select(
        tmp_path,
        "--all",
        "--skills-dir",
        "skills/*",
        "--runner-types",
        json.dumps(types),
        "--labels",
        "enable_mi_ci",
    ).plan
    assert legs(plan, "scoped") == [("big", "Linux", ["self-hosted", "mi300", "Linux"], "enable_mi_ci")]


def test_an_unknown_runner_type_exits_1_with_the_fix(tmp_path):
    skill(tmp_path, "skills/big", machine="runner_type: instinct\n")
    run = select(tmp_path, "--all", "--skills-dir", "skills/*")
    assert run.code == 1 and run.stdout == ""
    assert run.stderr.startswith("error: skills/big/evals/machine.yml names runner_type 'instinct'")


def test_a_malformed_machine_yml_exits_1_naming_it(tmp_path):
    skill(tmp_path, "skills/x", machine="os: [Linux]\nrunner: big\n")
    run = select(tmp_path, "--all", "--skills-dir", "skills/*")
    assert run.code == 1 and run.stdout == ""
    assert run.stderr.startswith("error: skills/x/evals/machine.yml:2: has unknown key(s) runner")
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("flag", "value", "fragment"),
    [
        ("--runner-types", "{oops", "--runner-types: invalid JSON"),
        ("--behavior-runner", "[1]", "--behavior-runner: every entry must be a non-empty string"),
        ("--scoped-gate", "a,b", "--scoped-gate takes one label"),
        ("--labels", "{}", "--labels: expected a JSON array"),
    ],
)
def test_malformed_flag_values_are_usage_errors(repo, flag, value, fragment):
    run = select(repo, "--all", "--skills-dir", "skills/*", flag, value)
    assert run.code == 2 and fragment in run.stderr and run.stdout == ""


def test_version_comes_from_the_flag_then_the_environment_then_the_harness(tmp_path):
    skill(tmp_path, "solo")
    assert select(tmp_path, "--all").plan["version"] == __version__
    assert select(tmp_path, "--all", environ={"SKILLSCOPE_VERSION": "v9"}).plan["version"] == "v9"
    plan = select(tmp_path, "--all", "--version", "main", environ={"SKILLSCOPE_VERSION": "v9"}).plan
    assert plan["version"] == "main" and plan["default"][0]["version"] == "main"


def test_a_pinned_skill_keeps_its_pin(tmp_path):
    skill(tmp_path, "solo", pin="v0.1.3")
    plan = select(tmp_path, "--all", "--version", "main").plan
    assert plan["version"] == "main" and plan["default"][0]["version"] == "v0.1.3"


def test_no_extended_leaves_extended_cases_out(tmp_path):
    behaving = {
        "evaluations": [
            {"id": "x-ext", "skill_should_trigger": True, "prompt": "p", "files_exist": ["out.txt"]}
        ]
    }
    skill(tmp_path, "solo", behavior=False, extended=behaving)
    assert select(tmp_path, "--all").plan["no_behavior"] == []
    plan = select(tmp_path, "--all", "--no-extended").plan
    assert plan["no_behavior"] == ["solo"] and plan["extended"] is False


def test_changed_paths_under_a_deleted_skill_are_reported_as_unknown(repo):
    plan = select(
        repo,
        "--changed",
        "--skills-dir",
        "skills/*",
        stdin="skills/old/SKILL.md\nskills/old/evals/evals.json\n",
    ).plan
    assert plan["unknown"] == ["skills/old/SKILL.md", "skills/old/evals/evals.json"]
    assert plan["default"] == [] and plan["no_behavior"] == []


def test_an_empty_change_is_an_empty_plan(repo):
    plan = select(repo, "--changed", "--skills-dir", "skills/*", stdin="").plan
    assert plan["counts"] == {"total": 0, "pass": 0, "fail": 0, "error": 0}
    assert without_envelope(plan) == {
        "skills": [],
        "routing": False,
        "extended": True,
        "version": __version__,
        "agents": ["claude"],
        "models": [],
        "model": "",
        "default": [],
        "scoped": [],
        "skipped": [],
        "gates": [],
        "no_behavior": [],
        "unknown": [],
    }


# --- --since against real repositories ------------------------------------------------------------------


@pytest.fixture
def history(tmp_path):
    """main advanced (touching beta and the workflow) after `feature` branched off to change alpha."""
    root = init_repo(tmp_path / "clone")
    skill(root, "skills/alpha")
    skill(root, "skills/beta")
    commit(root, "two skills", {".github/workflows/evals.yml": "on: push\n"})
    git(root, "checkout", "-q", "-b", "feature")
    commit(
        root, "alpha's description", {"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: New.\n---\n"}
    )
    git(root, "checkout", "-q", "main")
    commit(
        root,
        "infra and beta",
        {".github/workflows/evals.yml": "on: pull_request\n", "skills/beta/references/x.md": "x\n"},
    )
    git(root, "checkout", "-q", "feature")
    return root


def test_since_plans_only_what_the_branch_changed(history):
    run = select(
        history,
        "--since",
        "main",
        "feature",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "all",
        "--infra-paths",
        ".github/workflows/evals.yml",
    )
    assert run.code == 0
    plan = run.plan
    assert [leg["skill"] for leg in plan["default"]] == ["alpha"]  # the base's infra change is not ours
    assert plan["routing"] is True
    assert run.stderr == "Changed files:\n  skills/alpha/SKILL.md\n"


def test_since_with_no_change_lists_none(history):
    run = select(history, "--since", "HEAD", "HEAD", "--skills-dir", "skills/*")
    assert run.code == 0 and run.plan["default"] == []
    assert run.stderr == "Changed files:\n  (none)\n"


def test_since_unrelated_histories_note_the_fallback(history):
    git(history, "checkout", "-q", "--orphan", "island")
    commit(history, "island", {"skills/beta/SKILL.md": "---\nname: beta\ndescription: Island.\n---\n"})
    run = select(history, "--since", "main", "island", "--skills-dir", "skills/*")
    assert run.code == 0
    assert "no merge base" in run.stderr and "skills/beta/SKILL.md" in run.stderr
    assert "beta" in [leg["skill"] for leg in run.plan["default"]]


def test_since_a_missing_commit_exits_1(history):
    run = select(history, "--since", "origin/main", "HEAD", "--skills-dir", "skills/*")
    assert run.code == 1 and run.stdout == ""
    assert run.stderr.startswith("error: --since: 'origin/main' is not a commit")


def test_globs_that_match_no_skill_are_an_error_not_an_empty_plan(repo):
    run = select(repo, "--all", "--skills-dir", "skilz/*")
    assert run.code == 1 and run.stdout == ""
    assert run.stderr.startswith("error: no skill found: no directory matched by --skills-dir skilz/*")


def test_agents_reach_the_plan_and_an_unknown_one_is_a_usage_error(repo):
    plan = select(repo, "--names", "alpha", "--skills-dir", "skills/*", "--agents", "claude,codex").plan
    assert plan["agents"] == ["claude", "codex"]
    assert {leg["agent"] for leg in plan["default"]} <= {"claude", "codex"}
    run = select(repo, "--names", "alpha", "--skills-dir", "skills/*", "--agents", "cursor")
    assert run.code == 2 and "--agents: unknown agent 'cursor'" in run.stderr


def test_models_reach_the_plan_from_the_flag_or_the_settings_and_a_bad_one_is_a_usage_error(repo):
    plan = select(repo, "--names", "alpha", "--skills-dir", "skills/*", "--models", "haiku,sonnet").plan
    assert plan["models"] == ["haiku", "sonnet"] and plan["model"] == "haiku,sonnet"
    assert sorted(leg["model"] for leg in plan["default"]) == ["haiku", "sonnet"]
    (repo / "skillscope.toml").write_text('models = ["haiku"]\n')
    from_file = select(repo, "--names", "alpha", "--skills-dir", "skills/*")
    assert from_file.code == 0, from_file.stderr
    assert from_file.plan["models"] == ["haiku"] and from_file.plan["default"][0]["model"] == "haiku"
    run = select(repo, "--names", "alpha", "--skills-dir", "skills/*", "--models", "haiku,,sonnet")
    assert run.code == 2 and "--models: every entry must be a non-empty string." in run.stderr


# --- the settings files are infra paths ---------------------------------------------------------------


@pytest.fixture
def settled(tmp_path):
    """Two skills on main with their settings in skillscope.toml, and a branch `change` to edit."""
    root = init_repo(tmp_path / "clone")
    skill(root, "skills/alpha")
    skill(root, "skills/beta")
    commit(root, "two skills", {"skillscope.toml": 'skills-dir = ["skills/*"]\nrouting-room = "all"\n'})
    git(root, "checkout", "-q", "-b", "change")
    return root


def planned(root) -> tuple[list[str], bool, str]:
    run = select(root, "--since", "main", "change")
    assert run.code == 0, run.stderr
    return sorted({leg["skill"] for leg in run.plan["default"]}), run.plan["routing"], run.stderr


def test_a_settings_change_beside_one_skill_plans_every_skill_and_routing(settled):
    settings = 'skills-dir = ["skills/*"]\nrouting-room = "all"\nmin-accuracy = 0.9\n'
    commit(settled, "stricter", {"skillscope.toml": settings, "skills/alpha/references/x.md": "x\n"})
    skills, routing, stderr = planned(settled)
    assert (skills, routing) == (["alpha", "beta"], True)
    assert "note: skillscope.toml changed (settings or --infra-paths)" in stderr


def test_a_quarantine_change_plans_every_skill(settled):
    commit(settled, "quarantine", {".skillscope/quarantine.json": '{"cases": []}\n'})
    assert planned(settled)[:2] == (["alpha", "beta"], True)


def test_a_baseline_change_plans_nothing_as_structural_runs_on_every_change(settled):
    commit(settled, "baseline", {".skillscope/baseline.json": "{}\n"})
    assert planned(settled)[:2] == ([], False)


@pytest.mark.parametrize(
    ("before", "after", "everything"),
    [
        (None, "[tool.ruff]\nline-length = 100\n", False),  # another tool's settings
        (None, "[tool.skillscope]\nmin-accuracy = 0.9\n", True),
        ("[tool.skillscope]\nmin-accuracy = 0.9\n", "[tool.ruff]\nline-length = 100\n", True),  # removed
    ],
)
def test_pyproject_is_a_settings_file_when_it_holds_the_table_now_or_at_the_base(
    settled, before, after, everything
):
    # one settings file at a time: the base holds pyproject.toml as `before`, and no skillscope.toml
    commit(settled, "before", {"pyproject.toml": before} if before else {}, remove=["skillscope.toml"])
    git(settled, "branch", "-f", "main")
    commit(settled, "after", {"pyproject.toml": after})
    run = select(settled, "--since", "main", "change", "--skills-dir", "skills/*", "--routing-room", "all")
    assert run.code == 0, run.stderr
    assert bool(run.plan["default"]) is everything
