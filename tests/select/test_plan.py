"""harness.select.plan: selection, routing, legs from machine.yml and runner types, gates, plan shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.errors import HarnessError, UsageError
from harness.model import repo as repo_mod
from harness.model.envelope import RunMeta
from harness.report import select as select_report
from harness.select import facts, plan, policy
from harness.select import selection as select_mod
from harness.select.policy import PlanOptions, RunnerType
from harness.select.result import SelectResult
from harness.select.selection import InfraPaths, Ownership
from tests.support.select import assert_valid_plan, dataset, legs, skill, without_envelope

INSTINCT = RunnerType(
    name="instinct",
    labels=("self-hosted", "mi300"),
    os=("Linux",),
    gate="enable_mi_ci",
    environment="instinct",
)
EVERYDAY = RunnerType(name="default", labels=("self-hosted", "x64"), os=("Linux", "Windows"))


def discover(root: Path, globs: tuple[str, ...] = ("skills/*",)) -> repo_mod.Repo:
    return repo_mod.discover(root, list(globs))


def plan_line(root: Path, selection: select_mod.Selection, **options) -> str:
    """The report `select` prints for this selection: the envelope, then the plan, on one line."""
    made = plan.make_plan(selection, discover(root), PlanOptions(**options))
    meta = RunMeta("select", str(root), ["skills/*"], "2026-01-01T00:00:00+00:00")
    return select_report.line(SelectResult(meta, made, list(selection.skills)).to_json())


def plan_for(root: Path, selection: select_mod.Selection, **options) -> dict:
    data = json.loads(plan_line(root, selection, **options))
    assert_valid_plan(data)
    return without_envelope(data)


def changed(root: Path, paths: list[str], room: list[str] | None = None, **options) -> select_mod.Selection:
    return select_mod.select_changed(paths, discover(root), room or [], PlanOptions(**options))


def only(root: Path, *names: str, room: tuple[str, ...] = ()) -> select_mod.Selection:
    return select_mod.select_names(list(names), discover(root), list(room))


# --- changed paths ------------------------------------------------------------------------------------


def test_normalise_paths_fixes_separators_and_drops_blanks():
    lines = ["skills\\a\\SKILL.md\r\n", "\n", "  ./skills/b/x.md  ", "skills/a/SKILL.md", ""]
    assert select_mod.normalise_paths(lines) == ["skills/a/SKILL.md", "skills/b/x.md"]


def test_owner_is_the_skill_whose_folder_prefixes_the_path(tmp_path):
    skill(tmp_path, "skills/pdf")
    skill(tmp_path, "skills/pdf-extra")
    owners = Ownership(discover(tmp_path))
    assert owners.owner("skills/pdf/references/a.md") == ("pdf", "references/a.md")
    assert owners.owner("skills/pdf-extra/SKILL.md") == ("pdf-extra", "SKILL.md")
    assert owners.owner("skills/pdfx/SKILL.md") == (None, "skills/pdfx/SKILL.md")
    assert owners.owner("README.md") == (None, "README.md")


def test_the_deepest_skill_owns_a_path_when_skill_folders_nest(tmp_path):
    skill(tmp_path, "outer")
    skill(tmp_path, "outer/inner")
    owners = Ownership(discover(tmp_path, ("*", "outer/*")))
    assert owners.owner("outer/inner/evals/evals.json") == ("inner", "evals/evals.json")
    assert owners.owner("outer/notes.md") == ("outer", "notes.md")


def test_a_path_under_a_deleted_skill_is_recognised(tmp_path):
    skill(tmp_path, "skills/kept")
    (tmp_path / "skills" / "plain-dir").mkdir()
    owners = Ownership(discover(tmp_path))
    assert owners.deleted_skill_folder("skills/gone/evals/evals.json") == "skills/gone"
    # its SKILL.md went in this change
    assert owners.deleted_skill_folder("skills/plain-dir/SKILL.md") == "skills/plain-dir"
    assert not owners.deleted_skill_folder("skills/plain-dir/notes.md")  # never a skill
    assert not owners.deleted_skill_folder("skills/.hidden/SKILL.md")
    assert not owners.deleted_skill_folder("skills/README.md")  # a file beside the skills, not in one
    assert not owners.deleted_skill_folder("docs/gone/SKILL.md")


def test_deleted_skills_are_recognised_under_dotted_globs(tmp_path):
    skill(tmp_path, "skills/kept")
    owners = Ownership(discover(tmp_path, ("./skills/*/",)))
    assert owners.owner("skills/kept/SKILL.md") == ("kept", "SKILL.md")
    assert owners.deleted_skill_folder("skills/gone/SKILL.md") == "skills/gone"


@pytest.mark.parametrize(
    ("patterns", "path", "touched"),
    [
        (["noxfile.py"], "noxfile.py", True),
        (["noxfile.py"], "sub/noxfile.py", False),
        ([".github/workflows/*.yml"], ".github/workflows/evals.yml", True),
        ([".github/workflows/*.yml"], ".github/actions/x.yml", False),
        (["./.github/"], ".github/workflows/evals.yml", True),  # a directory covers its files
        (["shared"], "shared/lib/tool.py", True),
        (["shared"], "shared-not/tool.py", False),
        (["*.toml"], "pyproject.toml", True),
        ([], "anything", False),
    ],
)
def test_infra_paths_match_globs_files_and_directories(patterns, path, touched):
    assert InfraPaths(patterns).touched(path) is touched


# --- which skills, and whether routing runs ---------------------------------------------------------------


@pytest.fixture
def repo3(tmp_path):
    for name in ("alpha", "beta", "gamma"):
        skill(tmp_path, f"skills/{name}", files={"references/guide.md": "# Guide\n"})
    skill(tmp_path, "skills/bare", evals=None)
    return tmp_path


def test_a_change_selects_the_skills_that_own_its_paths(repo3):
    picked = changed(
        repo3,
        ["skills/gamma/references/guide.md", "skills/alpha/scripts/run.py", "README.md"],
        room=["alpha", "beta"],
    )
    assert picked.skills == ["alpha", "gamma"]
    assert picked.routing is False  # a reference file or a script changes behavior, not routing


def test_an_unrelated_change_selects_nothing(repo3):
    picked = changed(repo3, ["README.md", "docs/usage.md"], room=["alpha"])
    assert picked == select_mod.Selection(skills=[], routing=False, unknown=[])


@pytest.mark.parametrize("inner", ["SKILL.md", "evals/evals.json"])
def test_a_room_members_routing_input_turns_routing_on(repo3, inner):
    assert changed(repo3, [f"skills/alpha/{inner}"], room=["alpha", "beta"]).routing is True


def test_a_skill_outside_the_room_does_not_buy_a_routing_run(repo3):
    assert changed(repo3, ["skills/gamma/SKILL.md"], room=["alpha", "beta"]).routing is False


def test_the_extended_dataset_is_a_routing_input_only_when_extended(repo3):
    path = ["skills/alpha/evals/extended_evals.json"]
    assert changed(repo3, path, room=["alpha"], extended=True).routing is True
    assert changed(repo3, path, room=["alpha"], extended=False).routing is False


def test_an_empty_room_never_routes(repo3):
    assert changed(repo3, ["skills/alpha/SKILL.md"], room=[]).routing is False
    assert changed(repo3, ["ci.yml"], room=[], infra_paths=("ci.yml",)).routing is False


def test_an_infra_path_reruns_every_skill_with_a_dataset_and_routing(repo3):
    picked = changed(
        repo3, [".github/workflows/evals.yml"], room=["beta"], infra_paths=(".github/workflows/evals.yml",)
    )
    assert picked.skills == ["alpha", "beta", "gamma"]
    assert picked.routing is True


def test_a_path_that_only_resembles_an_infra_path_does_not(repo3):
    picked = changed(repo3, ["docs/evals.yml"], room=["beta"], infra_paths=(".github/workflows/evals.yml",))
    assert picked.skills == [] and picked.routing is False


def test_paths_under_deleted_skills_are_listed_as_unknown(repo3):
    picked = changed(
        repo3,
        ["skills/retired/SKILL.md", "skills/retired/evals/evals.json", "skills/alpha/SKILL.md"],
        room=["alpha"],
    )
    assert picked.skills == ["alpha"]
    assert picked.unknown == ["skills/retired/SKILL.md", "skills/retired/evals/evals.json"]


def test_all_and_names_route_whenever_the_room_is_non_empty(repo3):
    repo = discover(repo3)
    assert select_mod.select_all(repo, ["alpha"]) == select_mod.Selection(["alpha", "beta", "gamma"], True)
    assert select_mod.select_all(repo, []).routing is False
    named = only(repo3, "gamma", "alpha", "gamma", room=("beta",))
    assert named == select_mod.Selection(["gamma", "alpha"], True)
    assert only(repo3, "gamma").routing is False


def test_names_that_are_not_skills_or_have_no_dataset_are_refused(repo3):
    with pytest.raises(UsageError) as caught:
        only(repo3, "alpha", "nope", "bare")
    message = str(caught.value)
    assert "no skill named nope" in message and "no eval dataset for bare" in message
    assert "alpha, beta, gamma" in message


# --- legs ------------------------------------------------------------------------------------------------


def test_a_skill_without_machine_yml_gets_one_leg_per_behavior_os(tmp_path):
    skill(tmp_path, "skills/a")
    data = plan_for(
        tmp_path,
        only(tmp_path, "a"),
        behavior_runner=("self-hosted", "linux"),
        behavior_os=("Linux", "Windows"),
        version="1.2.3",
    )
    assert legs(data) == [
        ("a", "Linux", ["self-hosted", "linux"], None),
        ("a", "Windows", ["self-hosted", "linux", "Windows"], None),
    ]
    assert [leg["version"] for leg in data["default"]] == ["1.2.3", "1.2.3"]
    assert data["scoped"] == [] and data["skipped"] == [] and data["gates"] == []
    assert "environment" not in data["default"][0]


def test_default_runner_is_the_hosted_ubuntu_latest_image_alone(tmp_path):
    skill(tmp_path, "skills/a")
    data = plan_for(tmp_path, only(tmp_path, "a"))
    assert data["default"][0]["runner"] == '["ubuntu-latest"]'


def test_os_in_machine_yml_narrows_the_platforms(tmp_path):
    skill(tmp_path, "skills/a", machine="os: [Linux]\n")
    data = plan_for(tmp_path, only(tmp_path, "a"), behavior_os=("Linux", "Windows"))
    assert [leg["os"] for leg in data["default"]] == ["Linux"]


def test_labels_make_a_scoped_leg_with_gate_and_environment(tmp_path):
    skill(tmp_path, "skills/gpu", machine="labels: [gpu, mi300]\nos: [Linux]\n")
    skill(tmp_path, "skills/plain")
    data = plan_for(
        tmp_path,
        only(tmp_path, "gpu", "plain"),
        scoped_runner=("self-hosted",),
        scoped_gate="run-gpu",
        scoped_environment="gpu-pool",
        labels=("run-gpu",),
    )
    assert legs(data, "scoped") == [("gpu", "Linux", ["self-hosted", "gpu", "mi300", "Linux"], "run-gpu")]
    assert data["scoped"][0]["environment"] == "gpu-pool"
    assert legs(data) == [("plain", "Linux", ["ubuntu-latest"], None)]


def test_a_scoped_leg_reuses_the_behavior_runner_when_no_scoped_runner_is_given(tmp_path):
    skill(tmp_path, "skills/gpu", machine="labels: [gpu]\n")
    data = plan_for(tmp_path, only(tmp_path, "gpu"), behavior_runner=("big",))
    assert legs(data) == [("gpu", "Linux", ["big", "gpu", "Linux"], None)]  # no environment: one matrix


def test_runner_labels_have_no_repeats_and_keep_their_order(tmp_path):
    skill(tmp_path, "skills/a", machine="labels: [self-hosted, linux, gpu]\n")
    data = plan_for(tmp_path, only(tmp_path, "a"), scoped_runner=("self-hosted", "Linux"))
    assert legs(data)[0][2] == ["self-hosted", "Linux", "gpu"]


def test_a_gate_missing_from_the_labels_skips_the_leg(tmp_path):
    skill(tmp_path, "skills/gpu", machine="labels: [gpu]\nos: [Linux, Windows]\n")
    data = plan_for(
        tmp_path,
        only(tmp_path, "gpu"),
        scoped_runner=("self-hosted",),
        scoped_gate="run-gpu",
        scoped_environment="hw",
        labels=("documentation",),
    )
    assert data["scoped"] == [] and data["default"] == []
    assert data["skipped"] == [
        {"skill": "gpu", "os": "Linux", "gate": "run-gpu"},
        {"skill": "gpu", "os": "Windows", "gate": "run-gpu"},
    ]
    assert data["gates"] == ["run-gpu"]


def test_the_gate_label_or_ignore_gates_lets_the_leg_run(tmp_path):
    skill(tmp_path, "skills/gpu", machine="labels: [gpu]\n")
    for opts in ({"labels": ("run-gpu",)}, {"ignore_gates": True}):
        data = plan_for(
            tmp_path,
            only(tmp_path, "gpu"),
            scoped_runner=("self-hosted",),
            scoped_gate="run-gpu",
            scoped_environment="hw",
            **opts,
        )
        assert [leg["skill"] for leg in data["scoped"]] == ["gpu"] and data["skipped"] == []


def test_a_gated_leg_without_an_environment_stays_in_the_default_matrix(tmp_path):
    skill(tmp_path, "skills/gpu", machine="labels: [gpu]\n")
    data = plan_for(
        tmp_path,
        only(tmp_path, "gpu"),
        scoped_runner=("self-hosted",),
        scoped_gate="run-gpu",
        labels=("run-gpu",),
    )
    assert legs(data) == [("gpu", "Linux", ["self-hosted", "gpu", "Linux"], "run-gpu")]


def test_gates_are_sorted_and_listed_once(tmp_path):
    skill(tmp_path, "skills/a", machine="runner_type: zeta\nos: [Linux, Windows]\n")
    skill(tmp_path, "skills/b", machine="runner_type: alpha\n")
    types = {"zeta": RunnerType("zeta", gate="z-gate"), "alpha": RunnerType("alpha", gate="a-gate")}
    data = plan_for(tmp_path, only(tmp_path, "a", "b"), runner_types=types)
    assert data["gates"] == ["a-gate", "z-gate"] and len(data["skipped"]) == 3


def test_a_version_pin_overrides_the_runs_version_for_that_skill(tmp_path):
    skill(tmp_path, "skills/pinned", pin="v0.1.3")
    skill(tmp_path, "skills/free")
    data = plan_for(tmp_path, only(tmp_path, "pinned", "free"), version="main")
    assert data["version"] == "main"
    assert {leg["skill"]: leg["version"] for leg in data["default"]} == {"pinned": "v0.1.3", "free": "main"}


def test_an_index_pin_reaches_the_plan_as_written(tmp_path):
    skill(tmp_path, "skills/pinned", pin="skillscope-harness==0.2.0")
    data = plan_for(tmp_path, only(tmp_path, "pinned"), version="main")
    assert [leg["version"] for leg in data["default"]] == ["skillscope-harness==0.2.0"]


# --- runner types ------------------------------------------------------------------------------------------


@pytest.fixture
def typed(tmp_path):
    skill(tmp_path, "skills/serve-on-instinct", machine="runner_type: instinct\n")
    skill(tmp_path, "skills/linux-only", machine="os: [Linux]\n")
    skill(tmp_path, "skills/anywhere")
    skill(tmp_path, "skills/says-default", machine="runner_type: default\nos: [Windows]\n")
    return tmp_path


TYPES = {"instinct": INSTINCT, "default": EVERYDAY}


def test_a_gated_type_with_an_environment_runs_scoped_when_its_label_is_on(typed):
    data = plan_for(typed, only(typed, "serve-on-instinct"), runner_types=TYPES, labels=("enable_mi_ci",))
    assert legs(data, "scoped") == [
        ("serve-on-instinct", "Linux", ["self-hosted", "mi300", "Linux"], "enable_mi_ci")
    ]
    assert data["scoped"][0]["environment"] == "instinct"


def test_a_gated_type_without_its_label_is_skipped(typed):
    data = plan_for(typed, only(typed, "serve-on-instinct"), runner_types=TYPES)
    assert data["skipped"] == [{"skill": "serve-on-instinct", "os": "Linux", "gate": "enable_mi_ci"}]
    assert data["gates"] == ["enable_mi_ci"]


def test_the_default_type_covers_skills_that_name_no_type(typed):
    data = plan_for(typed, only(typed, "anywhere", "linux-only", "says-default"), runner_types=TYPES)
    assert legs(data) == [
        ("anywhere", "Linux", ["self-hosted", "x64", "Linux"], None),
        ("anywhere", "Windows", ["self-hosted", "x64", "Windows"], None),
        ("linux-only", "Linux", ["self-hosted", "x64", "Linux"], None),
        ("says-default", "Windows", ["self-hosted", "x64", "Windows"], None),
    ]


def test_without_a_default_type_the_behavior_runner_applies(typed):
    data = plan_for(typed, only(typed, "anywhere", "says-default"), runner_types={"instinct": INSTINCT})
    assert legs(data) == [
        ("anywhere", "Linux", ["ubuntu-latest"], None),
        ("says-default", "Windows", ["windows-latest"], None),
    ]


def test_a_skill_os_outside_the_types_platforms_is_an_error(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: instinct\nos: [Linux, Windows]\n")
    with pytest.raises(HarnessError) as caught:
        plan_for(tmp_path, only(tmp_path, "x"), runner_types=TYPES)
    message = str(caught.value)
    assert message.startswith("skills/x/evals/machine.yml asks for os Windows")
    assert "'instinct' runs only on Linux" in message and "narrow `os`" in message


def test_a_skill_os_inside_the_types_platforms_narrows_them(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: default\nos: [windows]\n")
    data = plan_for(tmp_path, only(tmp_path, "x"), runner_types=TYPES)
    assert [leg["os"] for leg in data["default"]] == ["Windows"]  # the type's spelling


def test_an_unknown_runner_type_is_an_error_naming_the_file_and_the_fix(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: tpu\n")
    with pytest.raises(HarnessError) as caught:
        plan_for(tmp_path, only(tmp_path, "x"), runner_types=TYPES)
    message = str(caught.value)
    assert message.startswith("skills/x/evals/machine.yml names runner_type 'tpu'")
    assert "(defined: default, instinct)" in message and "--runner-types" in message
    with pytest.raises(HarnessError, match=r"\(defined: none\)"):
        plan_for(tmp_path, only(tmp_path, "x"))


def test_a_type_without_labels_or_os_falls_back_to_the_behavior_flags(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: bare\n")
    skill(tmp_path, "skills/y", machine="runner_type: bare\nos: [macOS]\n")
    data = plan_for(
        tmp_path,
        only(tmp_path, "x", "y"),
        runner_types={"bare": RunnerType("bare")},
        behavior_runner=("r",),
        behavior_os=("Linux", "Windows"),
    )
    assert [(leg[0], leg[1], leg[2]) for leg in legs(data)] == [
        ("x", "Linux", ["r", "Linux"]),
        ("x", "Windows", ["r", "Windows"]),
        ("y", "macOS", ["r", "macOS"]),
    ]


def test_labels_beside_a_runner_type_are_added_to_its_labels(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: instinct\nlabels: [mi355]\n")
    data = plan_for(tmp_path, only(tmp_path, "x"), runner_types=TYPES, ignore_gates=True)
    assert legs(data, "scoped")[0][2] == ["self-hosted", "mi300", "mi355", "Linux"]


def test_a_type_label_already_naming_the_os_is_not_repeated(tmp_path):
    skill(tmp_path, "skills/x", machine="runner_type: lin\n")
    types = {"lin": RunnerType("lin", labels=("self-hosted", "LINUX"), os=("Linux",))}
    assert legs(plan_for(tmp_path, only(tmp_path, "x"), runner_types=types))[0][2] == ["self-hosted", "LINUX"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "invalid JSON"),
        ("[]", "expected a JSON object"),
        ('{"x": []}', "must be an object"),
        ('{"x": {"runner": "a"}}', "unknown key(s) runner"),
        ('{"x": {"labels": "gpu"}}', "`labels` must be a non-empty list"),
        ('{"x": {"os": []}}', "`os` must be a non-empty list"),
        ('{"x": {"gate": ""}}', "`gate` must be a non-empty string"),
        ('{"x": {"environment": 3}}', "`environment` must be a non-empty string"),
        ('{" ": {}}', "type name must be a non-empty string"),
    ],
)
def test_malformed_runner_types_are_usage_errors(text, fragment):
    with pytest.raises(UsageError) as caught:
        policy.parse_runner_types(text)
    assert fragment in str(caught.value) and str(caught.value).startswith("--runner-types")


def test_runner_types_parse_into_types():
    types = policy.parse_runner_types(
        '{"instinct": {"labels": ["self-hosted", "mi300"], "os": ["Linux"], "gate": "enable_mi_ci", '
        '"environment": "instinct"}, "default": {"os": ["Linux", "Windows"]}}'
    )
    assert types == {"instinct": INSTINCT, "default": RunnerType("default", os=("Linux", "Windows"))}
    assert policy.parse_runner_types("  ") == {}


# --- what gets no leg, and bad input ------------------------------------------------------------------------


def test_a_skill_with_no_behavioral_case_is_listed_not_dropped(tmp_path):
    skill(tmp_path, "skills/trigger-only", behavior=False, machine="runner_type: nowhere\n")
    skill(tmp_path, "skills/no-dataset", evals=None)
    skill(tmp_path, "skills/acts")
    data = plan_for(
        tmp_path,
        changed(tmp_path, ["skills/trigger-only/SKILL.md", "skills/no-dataset/x.md", "skills/acts/SKILL.md"]),
    )
    assert data["no_behavior"] == ["no-dataset", "trigger-only"]  # its machine.yml is never consulted
    assert [leg["skill"] for leg in data["default"]] == ["acts"]


def test_extended_cases_count_only_when_extended(tmp_path):
    extra = dataset("ext", behavior=True)
    skill(tmp_path, "skills/ext", behavior=False, extended={"evaluations": extra["evaluations"][:1]})
    assert plan_for(tmp_path, only(tmp_path, "ext"))["no_behavior"] == []
    assert plan_for(tmp_path, only(tmp_path, "ext"), extended=False)["no_behavior"] == ["ext"]


def test_a_malformed_machine_yml_stops_the_plan_with_its_location(tmp_path):
    skill(tmp_path, "skills/x", machine="os: Linux\n")
    with pytest.raises(HarnessError) as caught:
        plan_for(tmp_path, only(tmp_path, "x"))
    message = str(caught.value)
    assert message.startswith("skills/x/evals/machine.yml:1: `os` must be a non-empty list")
    assert "skillscope structural" in message


def test_machine_yml_that_is_not_yaml_stops_the_plan(tmp_path):
    skill(tmp_path, "skills/x", machine="os: [Linux\n")
    with pytest.raises(HarnessError, match=r"^skills/x/evals/machine.yml(:\d+)?: is not valid YAML"):
        plan_for(tmp_path, only(tmp_path, "x"))


def test_a_dataset_that_is_not_json_stops_the_plan(tmp_path):
    skill(tmp_path, "skills/x", evals='{"evaluations": [\n')
    with pytest.raises(HarnessError, match=r"^skills/x/evals/evals.json:2: is not valid JSON"):
        plan_for(tmp_path, only(tmp_path, "x"))
    skill(tmp_path, "skills/x", evals="[]")
    with pytest.raises(HarnessError, match="must be a JSON object holding `evaluations`"):
        plan_for(tmp_path, only(tmp_path, "x"))


def test_legs_follow_the_selection_order(tmp_path):
    for name in ("b", "a", "c"):
        skill(tmp_path, f"skills/{name}")
    data = plan_for(tmp_path, only(tmp_path, "c", "a"))
    assert [leg["skill"] for leg in data["default"]] == ["c", "a"]


def test_the_plan_json_is_one_compact_line_with_every_field(tmp_path):
    skill(tmp_path, "skills/a")
    text = plan_line(tmp_path, only(tmp_path, "a"), version="9")
    assert "\n" not in text and ": " not in text
    assert list(json.loads(text)) == [
        "command",
        "harness_version",
        "repo",
        "started_at",
        "elapsed_s",
        "passed",
        "status",
        "counts",
        "skills",
        "routing",
        "extended",
        "version",
        "agents",
        "models",
        "model",
        "default",
        "scoped",
        "skipped",
        "gates",
        "no_behavior",
        "unknown",
    ]


def test_counts_total_is_the_skills_listed_each_once_and_a_plan_grades_none(tmp_path):
    skill(tmp_path, "skills/two-os", machine="os: [Linux, Windows]\n")
    skill(tmp_path, "skills/gated", machine="runner_type: instinct\n")
    skill(tmp_path, "skills/prompt-only", behavior=False)
    paths = [f"skills/{name}/SKILL.md" for name in ("two-os", "gated", "prompt-only")]
    data = json.loads(plan_line(tmp_path, changed(tmp_path, paths), runner_types=TYPES))
    assert_valid_plan(data)
    listed = {leg["skill"] for key in ("default", "scoped", "skipped") for leg in data[key]}
    assert len(data["default"]) == 2 and data["skipped"]  # two legs of one skill, one waiting for a gate
    assert data["skills"] == sorted(listed | set(data["no_behavior"])) == ["gated", "prompt-only", "two-os"]
    assert data["counts"] == {"total": 3, "pass": 0, "fail": 0, "error": 0}


def test_identical_broken_machine_files_are_each_reported_under_their_own_name(tmp_path):
    for name in ("a", "b"):
        skill(tmp_path, f"skills/{name}", machine="labels: gpu\n")
    cache = facts.MachineCache()
    first = cache.load(tmp_path / "skills/a/evals/machine.yml", "skills/a/evals/machine.yml")
    second = cache.load(tmp_path / "skills/b/evals/machine.yml", "skills/b/evals/machine.yml")
    assert first.problems[0].path == "skills/a/evals/machine.yml"
    assert second.problems[0].path == "skills/b/evals/machine.yml"
    with pytest.raises(HarnessError, match="^skills/b/evals/machine.yml:1:"):
        plan_for(tmp_path, only(tmp_path, "b", "a"))


def test_identical_clean_machine_files_share_one_plan(tmp_path):
    for name in ("a", "b"):
        skill(tmp_path, f"skills/{name}", machine="os: [Linux]\n")
    cache = facts.MachineCache()
    first = cache.load(tmp_path / "skills/a/evals/machine.yml", "skills/a/evals/machine.yml")
    assert cache.load(tmp_path / "skills/b/evals/machine.yml", "skills/b/evals/machine.yml") is first


# --- agents -------------------------------------------------------------------------------------------


def test_a_leg_per_agent_and_machine_yml_narrows_the_agents(tmp_path):
    skill(tmp_path, "skills/everywhere")
    skill(tmp_path, "skills/only-codex", machine="agents: [codex]\n")
    data = plan_for(tmp_path, only(tmp_path, "everywhere", "only-codex"), agents=("claude", "gemini"))
    assert data["agents"] == ["claude", "gemini"]
    assert [(leg["skill"], leg["agent"]) for leg in data["default"]] == [
        ("everywhere", "claude"),
        ("everywhere", "gemini"),
        ("only-codex", "codex"),
    ]


def test_a_leg_per_agent_and_model_a_model_for_one_agent_going_to_it_only(tmp_path):
    skill(tmp_path, "skills/everywhere")
    skill(tmp_path, "skills/only-codex", machine="agents: [codex]\n")
    models = ((None, "cheap"), ("codex", "gpt-big"))
    data = plan_for(tmp_path, only(tmp_path, "everywhere", "only-codex"), agents=("claude",), models=models)
    assert (data["models"], data["model"]) == (["cheap", "codex=gpt-big"], "cheap,codex=gpt-big")
    assert [(leg["skill"], leg["agent"], leg["model"]) for leg in data["default"]] == [
        ("everywhere", "claude", "cheap"),
        ("only-codex", "codex", "cheap"),
        ("only-codex", "codex", "gpt-big"),
    ]


def test_without_models_each_leg_runs_its_cli_default(tmp_path):
    skill(tmp_path, "skills/everywhere")
    data = plan_for(tmp_path, only(tmp_path, "everywhere"))
    assert data["models"] == [] and [leg["model"] for leg in data["default"]] == [None]


def test_an_unknown_agent_in_machine_yml_is_refused_naming_the_choices(tmp_path):
    skill(tmp_path, "skills/odd", machine="agents: [cursor]\n")
    with pytest.raises(HarnessError, match="claude, copilot, codex, gemini or opencode"):
        plan_for(tmp_path, only(tmp_path, "odd"))


def test_a_settings_file_is_an_infra_path_and_the_selection_names_it(repo3):
    picked = changed(
        repo3,
        ["skillscope.toml", "skills/alpha/SKILL.md"],
        room=["beta"],
        settings_files=("skillscope.toml",),
    )
    assert picked.skills == ["alpha", "beta", "gamma"] and picked.routing is True
    assert picked.infra == ["skillscope.toml"]


def test_a_change_off_the_infra_paths_names_none(repo3):
    picked = changed(repo3, ["skills/alpha/SKILL.md"], room=["alpha"], settings_files=("skillscope.toml",))
    assert picked.skills == ["alpha"] and picked.infra == []
