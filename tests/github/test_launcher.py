"""action/launch.py: version resolution and install specs as functions, then the whole launcher run
the way the action runs it, against a temporary clone of this repository with a tag."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from harness import tomlsafe
from tests.support.tagged_clone import NO_BYTECODE, make_tagged_clone
from tests.support.yamlfiles import ROOT

LAUNCHER = ROOT / "action" / "launch.py"


def installs(test):
    """A test that installs a harness into a fresh venv: the slow lane, and one worker for the
    module's shared venvs, which later tests find already installed."""
    return pytest.mark.venv(pytest.mark.xdist_group("launcher-venvs")(test))


def _load():
    spec = importlib.util.spec_from_file_location("skillscope_launch", LAUNCHER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


launch = _load()


def write_skill(repo: Path, name: str, pin: str | None = None, parent: str = "skills") -> Path:
    skill = repo / parent / name
    (skill / "evals").mkdir(parents=True)
    (skill / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}.\n---\n# {name}\n")
    data = {"evaluations": [{"id": f"{name}-1", "prompt": "hi", "skill_should_trigger": True}]}
    if pin:
        data["skillscope_version"] = pin
    (skill / "evals" / "evals.json").write_text(json.dumps(data))
    return skill


def read_outputs(path: Path) -> dict[str, str]:
    """Parse $GITHUB_OUTPUT the way the runner does: name=value lines and name<<DELIM blocks."""
    values, lines = {}, path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        name, sep, rest = lines[i].partition("<<")
        if sep:
            end = lines.index(rest, i + 1)
            values[name] = "\n".join(lines[i + 1 : end])
            i = end + 1
        else:
            key, _, value = lines[i].partition("=")
            values[key] = value
            i += 1
    return values


# ------------------------------------------------------------------ functions


def test_the_launcher_imports_nothing_from_the_harness():
    text = LAUNCHER.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from|import)\s+harness\b", text, re.M)
    imported = set(re.findall(r"^(?:from|import)\s+([\w.]+)", text, re.M))
    assert all(name.split(".")[0] in sys.stdlib_module_names for name in imported - {"__future__"}), imported


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("", []),
        ("  ", []),
        ("skills/*", ["skills/*"]),
        ("a/*, b/*", ["a/*", "b/*"]),
        ("a/*\nb/*\n", ["a/*", "b/*"]),
        ('["a/*", "b/*"]', ["a/*", "b/*"]),
    ],
)
def test_split_list(text, items):
    assert launch.split_list(text) == items


@pytest.mark.parametrize(
    ("command", "models", "args"),
    [
        ("routing", "haiku,sonnet", ["--model", "haiku,sonnet"]),
        ("behavioral", " haiku ", ["--model", "haiku"]),
        ("select", "haiku,codex=gpt-x", ["--models", "haiku,codex=gpt-x"]),
        ("structural", "", []),
    ],
)
def test_the_models_input_becomes_the_commands_flag(command, models, args):
    assert launch.model_args(command, models) == args


def test_the_models_input_on_a_command_without_models_is_refused():
    with pytest.raises(launch.LaunchError, match="applies to routing, behavioral, cost, select, not refs"):
        launch.model_args("refs", "haiku")


def test_split_list_rejects_a_json_object_array_mix():
    with pytest.raises(launch.LaunchError):
        launch.split_list('["a", 1]')


def test_resolution_order(tmp_path):
    write_skill(tmp_path, "pinned", pin="v0.3.0")

    def resolve(*args, **kwargs):
        return launch.resolve_version(*args, **kwargs)[0]

    env = {"SKILLSCOPE_VERSION": "v0.2.0"}
    assert resolve("v0.1.0", tmp_path, "pinned", "skills/*", env, default="main") == "v0.1.0"
    assert resolve("", tmp_path, "pinned", "skills/*", env, default="main") == "v0.2.0"
    assert resolve(None, tmp_path, "pinned", "skills/*", {}, default="main") == "v0.3.0"
    assert resolve(None, tmp_path, "", "skills/*", {}, default="main") == "main"
    assert resolve(None, tmp_path, None, None, {}) is None


def test_the_skill_is_found_through_the_globs_or_its_path(tmp_path):
    write_skill(tmp_path, "deep", pin="v1.0.0", parent="catalog/team")
    assert launch.skill_pin(tmp_path, "deep", "catalog/*/*") == "v1.0.0"
    assert launch.skill_pin(tmp_path, "catalog/team/deep") == "v1.0.0"
    assert launch.skill_pin(tmp_path, "deep", "skills/*") is None  # not where the globs look


def test_a_skills_index_pin_installs_that_release_from_the_index(tmp_path):
    write_skill(tmp_path, "pinned", pin="skillscope-harness==0.2.0")
    version, _ = launch.resolve_version(None, tmp_path, "pinned", "skills/*", {})
    assert version == "skillscope-harness==0.2.0" and launch.kind_of(version) == "index"
    assert launch.install_spec(version, environ={}) == "skillscope-harness==0.2.0"


def test_a_skill_without_a_pin_or_with_a_broken_dataset_has_none(tmp_path):
    write_skill(tmp_path, "plain")
    broken = write_skill(tmp_path, "broken")
    (broken / "evals" / "evals.json").write_text("{not json")
    assert launch.skill_pin(tmp_path, "plain", "skills/*") is None
    assert launch.skill_pin(tmp_path, "broken", "skills/*") is None
    assert launch.skill_pin(tmp_path, "missing", "skills/*") is None


def test_skills_pinning_different_versions_is_an_error(tmp_path):
    write_skill(tmp_path, "a", pin="v1")
    write_skill(tmp_path, "b", pin="v2")
    write_skill(tmp_path, "c", pin="v1")
    assert launch.resolve_version(None, tmp_path, "a,c", "skills/*", {})[0] == "v1"
    with pytest.raises(launch.LaunchError, match="a=v1, b=v2"):
        launch.resolve_version(None, tmp_path, "a,b", "skills/*", {})


@pytest.mark.parametrize(
    ("version", "kind"),
    [
        ("0.2.0", "release"),
        ("1.0", "release"),
        ("1.0.0rc1", "release"),
        ("2.0.post1", "release"),
        ("skillscope-harness==0.2.0", "index"),
        ("SkillScope_Harness==0.2.0rc1", "index"),
        ("v0.1.0", "ref"),
        ("main", "ref"),
        ("feature/x", "ref"),
        ("3f2a9c1", "ref"),
        ("1234567", "ref"),
        ("./vendor/skillscope", "path"),
        ("/opt/skillscope", "path"),
        ("~/src/skillscope", "path"),
    ],
)
def test_kind_of(version, kind):
    assert launch.kind_of(version) == kind


@pytest.mark.parametrize("bad", ["-rf", "a..b", "x y", "v1;rm", "$(id)", "ref.lock", "@{-1}"])
def test_unsafe_refs_are_refused(bad):
    with pytest.raises(launch.LaunchError, match="not a version"):
        launch.kind_of(bad)


@pytest.mark.parametrize("other", ["skillscope==0.1.1", "harness==1.0", "requests==2.0"])
def test_an_index_name_other_than_ours_is_refused(other):
    """The index name `skillscope` belongs to an unrelated project: never install it by accident."""
    with pytest.raises(launch.LaunchError, match="names another project.*skillscope-harness=="):
        launch.kind_of(other)


def test_an_index_requirement_must_name_a_release():
    with pytest.raises(launch.LaunchError, match="not a release"):
        launch.kind_of("skillscope-harness==main")


def test_install_specs(tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("[project]\nname = 'skillscope'\n")
    env = {"GITHUB_SERVER_URL": "https://git.example"}
    assert launch.install_spec("0.2.0", "someone/skillscope", environ=env) == (
        "git+https://git.example/someone/skillscope.git@v0.2.0"
    )
    assert launch.install_spec("skillscope_harness==0.2.0", environ=env) == "skillscope-harness==0.2.0"
    assert (
        launch.install_spec("v0.1.0", "someone/skillscope", environ=env)
        == "git+https://git.example/someone/skillscope.git@v0.1.0"
    )
    assert (
        launch.install_spec("v0.1.0", "https://git.example/x/y.git", environ=env)
        == "git+https://git.example/x/y.git@v0.1.0"
    )
    assert launch.install_spec("main", str(checkout), environ=env) == f"git+{checkout.as_uri()}@main"
    assert launch.install_spec(str(checkout)) == str(checkout)
    assert launch.install_spec(None, default=str(checkout)) == str(checkout)
    assert launch.install_spec("v1", None, environ={"SKILLSCOPE_ACTION_REPOSITORY": "o/r"}).endswith(
        "github.com/o/r.git@v1"
    )


def test_a_path_version_must_hold_a_project(tmp_path):
    with pytest.raises(launch.LaunchError, match="no pyproject.toml"):
        launch.install_spec(str(tmp_path))
    with pytest.raises(launch.LaunchError, match="no skillscope version"):
        launch.install_spec(None)


def test_outputs_survive_newlines_and_delimiter_lookalikes(tmp_path):
    out = tmp_path / "out"
    out.write_text("earlier=1\n")
    launch.github_output(str(out), {"stdout": "line one\nskillscope_\nEOF", "version": "v1"})
    assert read_outputs(out) == {"earlier": "1", "stdout": "line one\nskillscope_\nEOF", "version": "v1"}


def test_a_missing_command_is_a_usage_error(tmp_path, capsys):
    assert launch.main({"SKILLSCOPE_REPO_INPUT": str(tmp_path)}) == 2
    assert "`command` input is required" in capsys.readouterr().err


def test_a_missing_stdin_file_is_a_usage_error(tmp_path, capsys):
    env = {
        "SKILLSCOPE_COMMAND": "select",
        "SKILLSCOPE_REPO_INPUT": str(tmp_path),
        "SKILLSCOPE_STDIN": str(tmp_path / "nope.txt"),
        "SKILLSCOPE_REQUESTED": "0.1.0",
    }
    assert launch.main(env) == 2
    assert "not a file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("inputs", "origin"),
    [
        ({"SKILLSCOPE_SKILL": "pinned"}, "the skillscope_version pin in evals/evals.json of pinned"),
        ({"SKILLSCOPE_REQUESTED": "v0.0.9"}, "the `version` input"),
        ({"SKILLSCOPE_VERSION": "v0.0.9"}, "$SKILLSCOPE_VERSION"),
    ],
)
def test_a_failed_install_says_where_its_version_came_from(tmp_path, capsys, monkeypatch, inputs, origin):
    write_skill(tmp_path, "pinned", pin="v0.0.9")

    def refused(*args, **kwargs):
        raise launch.LaunchError("could not install git+https://example.invalid/x@v0.0.9 (pip exited 1).")

    monkeypatch.setattr(launch, "install", refused)
    env = {
        "SKILLSCOPE_COMMAND": "structural",
        "SKILLSCOPE_REPO_INPUT": str(tmp_path),
        "SKILLSCOPE_SKILLS_INPUT": "skills/*",
    }
    env.update(inputs)
    assert launch.main(env) == 2
    said = capsys.readouterr().err
    assert f"The version v0.0.9 is {origin}:" in said and "pass the `version` input" in said


# ------------------------------------------------------------------ which pip step takes which option


# Options only `pip install` takes (`pip wheel` refuses each), as a job's SKILLSCOPE_PIP_ARGS may hold them.
INSTALL_ONLY = [
    *("--no-compile", "--force-reinstall", "--no-warn-conflicts", "--no-warn-script-location"),
    *("--upgrade-strategy", "only-if-needed", "--root-user-action=ignore"),
]


@pytest.mark.parametrize(
    ("pip_args", "build"),
    [
        (INSTALL_ONLY + ["--user", "--target", "/t", "-U", "--report", "r.json", "--compile"], []),
        (["-r", "more.txt", "-e", "./plugin", "extra-package", "-c", "pins.txt", "--require-hashes"], []),
        (
            ["--index-url", "file:///w", "--no-compile", "-f", "/links", "--find-links=/more", "-ifile:///x"],
            ["--index-url", "file:///w", "-f", "/links", "--find-links=/more", "-ifile:///x"],
        ),
        (
            ["-vv", "-vU", "-q", "--pre", "--no-index", "--user", "--log", "pip.log"],
            ["-vv", "-q", "--pre", "--no-index", "--log", "pip.log"],
        ),
        (["--extra-index-url"], ["--extra-index-url"]),  # its missing value is pip's to name, in both steps
    ],
)
def test_the_wheel_build_takes_only_the_pip_args_it_shares_with_the_install(pip_args, build):
    assert launch.build_args(pip_args) == build


def pip_options(command: str) -> dict[str, bool]:
    """Each option `pip <command> --help` lists, and whether it takes a value."""
    shown = subprocess.run(
        [sys.executable, "-m", "pip", command, "--help"], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for names, value in re.findall(r"^  ((?:-\w, )?--[\w-]+)( <)?", shown, re.MULTILINE):
        found.update(dict.fromkeys(names.split(", "), bool(value)))
    return found


def test_every_option_the_wheel_build_is_given_is_one_both_pip_steps_take_alike():
    """Read from the pip at hand: an install-only option given to the build would stop it. An option a
    newer pip dropped (--global-option, --use-pep517) is refused by both steps alike, so it may stay."""
    wheel, install = pip_options("wheel"), pip_options("install")
    known = {name: form for name, form in launch.BUILD_OPTIONS.items() if name in install}
    assert len(known) >= 30  # what the build takes is most of the list on any pip this runs on
    assert {name: install[name] for name in known} == known
    assert {name: wheel.get(name) for name in known} == known
    assert not [name for name in launch.BUILD_OPTIONS if name not in install and name in wheel]
    assert {"--no-compile", "--user", "--force-reinstall", "--target", "--report"} <= set(install) - set(
        wheel
    )


# ------------------------------------------------------------------ the launcher, end to end


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A clone of this repository's committed history, tagged `v9.9.1-test`, with a later commit on top."""
    return make_tagged_clone(tmp_path_factory.mktemp("source"))


@pytest.fixture(scope="module")
def venvs(tmp_path_factory):
    return tmp_path_factory.mktemp("venvs")


@pytest.fixture(scope="module")
def dependencies(tmp_path_factory):
    """The harness's dependencies and its build's setuptools: the tests session's wheelhouse as it is,
    else fetched once for the module (from the index, on a bare pytest run). Each install then finds
    them there and nowhere else (`--no-index`): one that asks the index takes about three times the
    CPU. What the tests are about, the harness built from a tag or a folder or taken from a
    wheelhouse, is never among them."""
    wheelhouse = Path(os.environ.get("PIP_FIND_LINKS", ""))
    if os.environ.get("PIP_NO_INDEX") and wheelhouse.is_absolute() and wheelhouse.is_dir():
        return wheelhouse  # copying it here would cost a resolve of every package, for the same files
    folder = tmp_path_factory.mktemp("dependencies")
    pyproject = tomlsafe.load(ROOT / "pyproject.toml")
    wanted = [*pyproject["project"]["dependencies"], *pyproject["build-system"]["requires"]]
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check"]
    done = subprocess.run([*pip, "--dest", str(folder), *wanted], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return folder


def run_launcher(tmp_path, venvs, dependencies, **env):
    """Run action/launch.py in a subprocess with the environment action.yml gives it, pip finding the
    harness's dependencies in `dependencies` alone."""
    outputs = tmp_path / "github_output"
    summary = tmp_path / "step_summary"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLSCOPE_", "GITHUB_"))}
    environ.update(SKILLSCOPE_VENVS=str(venvs), GITHUB_OUTPUT=str(outputs), GITHUB_STEP_SUMMARY=str(summary))
    environ.update(NO_BYTECODE)
    offline = shlex.join(["--no-index", f"--find-links={dependencies}"])
    environ.update(env, SKILLSCOPE_PIP_ARGS=f"{offline} {env.get('SKILLSCOPE_PIP_ARGS', '')}".strip())
    done = subprocess.run(
        [sys.executable, str(LAUNCHER)],
        env=environ,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=280,
    )
    parsed = read_outputs(outputs) if outputs.exists() else {}
    return done, parsed, summary


@pytest.fixture(scope="module")
def release_folder(tmp_path_factory):
    """Where the module's first install runs: its wheelhouse, and what pip leaves there (its log, the
    report of what it installed, an extra folder of links to look in)."""
    folder = tmp_path_factory.mktemp("first-install")
    (folder / "links").mkdir()
    return folder


@pytest.fixture(scope="module")
def release_install(release_folder, source, venvs, dependencies):
    """The module's one install from the source: `9.9.1` into a fresh venv, the way a run's jobs install
    it: built into a wheelhouse, then installed from there, with SKILLSCOPE_PIP_ARGS holding install-only
    options (one of them `--report`, which says what was installed) and options of both steps (`--log`,
    `--find-links`). The tests after it that name the same commit find it installed, as the steps of
    one job do."""
    pip_args = [
        *INSTALL_ONLY,
        *("--report", str(release_folder / "installed.json")),
        *("--log", str(release_folder / "pip.log"), f"--find-links={release_folder / 'links'}"),
    ]
    return run_launcher(
        release_folder,
        venvs,
        dependencies,
        SKILLSCOPE_COMMAND="--version",
        SKILLSCOPE_REQUESTED="9.9.1",
        SKILLSCOPE_SOURCE=str(source),
        SKILLSCOPE_WHEELHOUSE=str(release_folder / "wheels"),
        SKILLSCOPE_PIP_ARGS=shlex.join(pip_args),
    )


@installs
def test_a_pep440_version_installs_its_tag_of_the_source_once(
    tmp_path, source, venvs, dependencies, release_install
):
    """`9.9.1` means the tag v9.9.1 of SKILLSCOPE_SOURCE, never a name on a package index, and not the
    branch tip (9.9.2); a second call finds it installed."""
    done, outputs, _ = release_install
    spec = f"git+{source.as_uri()}@v9.9.1"
    assert done.returncode == 0, done.stderr
    assert f"building a wheel of {spec}" in done.stderr
    assert done.stdout.strip() == "skillscope 9.9.1"
    assert outputs == {"version": "9.9.1", "stdout": "skillscope 9.9.1"}
    marker = launch.venv_dir(spec, venvs) / launch.INSTALLED_MARKER
    assert marker.read_text().split()[0] == spec
    assert not list(marker.parent.glob("lib/*/site-packages/pip"))  # this pip installed it: none seeded
    env = dict(SKILLSCOPE_COMMAND="--version", SKILLSCOPE_REQUESTED="9.9.1", SKILLSCOPE_SOURCE=str(source))
    again, outputs, _ = run_launcher(tmp_path, venvs, dependencies, **env)
    assert again.returncode == 0, again.stderr
    assert "installing" not in again.stderr  # the tag still names the same commit: nothing to do
    assert outputs["stdout"] == "skillscope 9.9.1"


@installs
def test_pip_args_reach_the_steps_that_take_them_and_no_other(release_folder, release_install):
    """SKILLSCOPE_PIP_ARGS are `pip install` arguments: the wheel build gets only those it takes too."""
    done, _, _ = release_install
    assert done.returncode == 0, done.stderr  # the build was given none of the install-only options
    [built] = (release_folder / "wheels").glob("*/*.whl")
    assert built.parent == launch.wheel_dir(release_folder / "wheels", "9.9.1")
    assert built.name.startswith("skillscope_harness-9.9.1-") and built.name.endswith("-none-any.whl")
    report = json.loads((release_folder / "installed.json").read_text(encoding="utf-8"))
    installed = {item["metadata"]["name"]: item["download_info"]["url"] for item in report["install"]}
    assert installed["skillscope-harness"] == built.as_uri()  # --report reached the install, of that wheel
    # --log and --find-links reached both: one log, the build's part ending where `pip wheel` says it built.
    build, install = (
        (release_folder / "pip.log")
        .read_text(encoding="utf-8")
        .split(" Successfully built skillscope-harness\n", 1)
    )
    assert f"Processing ./wheels/{built.parent.name}/{built.name}" in install
    assert "Successfully installed" in install
    links = str(release_folder / "links")
    assert any(links in looked for looked in links_looked_in(build))
    assert any(links in looked for looked in links_looked_in(install))


def links_looked_in(log: str) -> list[list[str]]:
    """The folders of links each pip run in `log` looked in (its own and its configuration's)."""
    said = "Looking in links: "
    return [line.split(said, 1)[1].split(", ") for line in log.splitlines() if said in line]


@installs
def test_a_skills_pin_picks_the_version_and_the_command_runs_in_the_repo(
    tmp_path, source, venvs, dependencies, release_install
):
    """The pin `v9.9.1` is a git ref naming the commit already installed for `9.9.1`: no second install."""
    repo = tmp_path / "repo"
    write_skill(repo, "pinned", pin="v9.9.1")
    write_skill(repo, "other")
    changed = tmp_path / "changed.txt"
    changed.write_text("skills/pinned/SKILL.md\n")
    done, outputs, summary = run_launcher(
        tmp_path,
        venvs,
        dependencies,
        SKILLSCOPE_COMMAND="list-skills",
        SKILLSCOPE_SKILL="pinned",
        SKILLSCOPE_SKILLS_INPUT="skills/*\n",
        SKILLSCOPE_REPO_INPUT=str(repo),
        SKILLSCOPE_SOURCE=str(source),
        SKILLSCOPE_STDIN=str(changed),
    )
    assert done.returncode == 0, done.stderr
    assert "installing" not in done.stderr
    assert json.loads(outputs["stdout"]) == ["other", "pinned"]
    assert outputs["version"] == "v9.9.1"
    assert not summary.exists()  # list-skills is data for the next step, not a report


@installs
def test_without_a_version_it_installs_the_actions_own_checkout(tmp_path, source, venvs, dependencies):
    checkout = tmp_path / "action-checkout"
    subprocess.run(["git", "clone", "--quiet", str(source), str(checkout)], check=True)
    done, outputs, _ = run_launcher(
        tmp_path,
        venvs,
        dependencies,
        SKILLSCOPE_COMMAND="--version",
        SKILLSCOPE_ACTION_PATH=str(checkout),
        SKILLSCOPE_ACTION_REF="v9.9.2",
    )
    assert done.returncode == 0, done.stderr
    assert outputs == {"version": "v9.9.2", "stdout": "skillscope 9.9.2"}


@installs
def test_the_commands_exit_code_and_a_failed_install_come_back(
    tmp_path, source, venvs, dependencies, release_install
):
    done, outputs, _ = run_launcher(
        tmp_path,
        venvs,
        dependencies,
        SKILLSCOPE_COMMAND="no-such-command",
        SKILLSCOPE_REQUESTED="9.9.1",
        SKILLSCOPE_SOURCE=str(source),
    )
    assert done.returncode == 2, done.stderr  # argparse's usage error, from the installed harness
    assert outputs["version"] == "9.9.1"
    done, _, _ = run_launcher(
        tmp_path,
        venvs,
        dependencies,
        SKILLSCOPE_COMMAND="--version",
        SKILLSCOPE_REQUESTED="no-such-tag",
        SKILLSCOPE_SOURCE=str(source),
    )
    assert done.returncode == 2
    assert "could not install" in done.stderr


@pytest.mark.parametrize(
    ("text", "variables"),
    [
        ("", {}),
        ("  ", {}),
        (" https://gateway.example/anthropic ", {"ANTHROPIC_BASE_URL": "https://gateway.example/anthropic"}),
        ("http://127.0.0.1:8080", {"ANTHROPIC_BASE_URL": "http://127.0.0.1:8080"}),
        (
            '{"OPENAI_BASE_URL": "https://gw.example/v1", "GOOGLE_GEMINI_BASE_URL": "https://gw.example/g"}',
            {"OPENAI_BASE_URL": "https://gw.example/v1", "GOOGLE_GEMINI_BASE_URL": "https://gw.example/g"},
        ),
    ],
)
def test_endpoints_a_url_or_one_per_agent_variable(text, variables):
    assert launch.endpoints(text) == variables


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("gateway.example", "not an http(s) URL"),
        ("https://", "not an http(s) URL"),
        ("https://gw.example/a b", "not an http(s) URL"),
        ('{"ANTHROPIC_BASE_URL": 3}', "not an http(s) URL"),
        ('{"PATH": "https://gw.example"}', "names PATH, which is not an endpoint variable"),
        ('{"ANTHROPIC_BASE_URL": ', "not valid JSON"),
    ],
)
def test_a_bad_endpoint_is_a_usage_error_naming_the_input(text, fragment):
    with pytest.raises(launch.LaunchError, match=re.escape(fragment)):
        launch.endpoints(text)


def test_a_bad_endpoint_stops_the_launch_before_any_install(tmp_path, capsys):
    env = {
        "SKILLSCOPE_COMMAND": "routing",
        "SKILLSCOPE_REPO_INPUT": str(tmp_path),
        "SKILLSCOPE_REQUESTED": "0.1.0",
        "SKILLSCOPE_API_BASE_URL": "gateway.example",
        "SKILLSCOPE_VENVS": str(tmp_path / "venvs"),
    }
    assert launch.main(env) == 2
    assert "`api-base-url` input gives ANTHROPIC_BASE_URL 'gateway.example'" in capsys.readouterr().err
    assert not (tmp_path / "venvs").exists()


@installs
def test_the_wheel_of_a_version_is_built_once_and_reused_without_its_source(
    tmp_path, release_folder, release_install, dependencies, capfd
):
    """The module's first install built the wheel of 9.9.1; a call for the label finds it, and a leg of
    the same run installs it into a fresh venv from a source that can no longer be cloned."""
    wheelhouse = release_folder / "wheels"
    [built] = wheelhouse.glob("*/*.whl")
    assert release_install[0].stderr.count("building a wheel") == 1
    pip = launch.pip_command(Path(sys.executable), borrowed=True)
    assert launch.wheel(pip, "unused", wheelhouse, "9.9.1") == str(built)
    assert "building a wheel" not in capfd.readouterr().err

    leg, outputs, _ = run_launcher(
        tmp_path,
        tmp_path / "venvs-leg",
        dependencies,
        SKILLSCOPE_COMMAND="--version",
        SKILLSCOPE_REQUESTED="9.9.1",
        SKILLSCOPE_SOURCE=str(tmp_path / "gone"),
        SKILLSCOPE_WHEELHOUSE=str(wheelhouse),
    )
    assert leg.returncode == 0, leg.stderr
    assert outputs == {"version": "9.9.1", "stdout": "skillscope 9.9.1"}
    assert "building a wheel" not in leg.stderr and f"installing {built}" in leg.stderr
    assert list(wheelhouse.glob("*/*.whl")) == [built]


# ------------------------------------------------------------------ whose pip installs


@pytest.mark.venv
def test_a_venv_gets_no_pip_of_its_own_where_the_launchers_python_can_lend_one(tmp_path):
    """The installs above borrow this interpreter's pip; one without pip seeds the venv's own."""
    assert launch.borrows_pip()  # the tests' pip takes --python
    python = tmp_path / "bare" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(python.parent.parent)], check=True)
    code = f"import runpy; print(runpy.run_path({str(LAUNCHER)!r})['borrows_pip']())"
    done = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
    assert launch.pip_command(python, borrowed=False) == [str(python), "-m", "pip"]
    lent = launch.pip_command(python, borrowed=True)
    assert lent == [sys.executable, "-m", "pip", "--python", str(python)]


# ------------------------------------------------------------------ what an install is keyed on


def test_a_tag_is_keyed_on_the_commit_it_names_and_a_commit_on_itself(source):
    url = f"git+{source.as_uri()}"
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=source, capture_output=True, text=True
    ).stdout.strip()
    tagged = subprocess.run(
        ["git", "rev-parse", "v9.9.1^{commit}"], cwd=source, capture_output=True, text=True
    ).stdout.strip()
    assert launch.install_key(f"{url}@v9.9.1") == f"{url}@v9.9.1 {tagged}"  # the annotated tag, peeled
    assert launch.install_key(f"{url}@{head}") == f"{url}@{head} {head}"
    assert launch.install_key(f"{url}@no-such-ref") is None  # unknowable: install every time


def test_a_checkout_is_keyed_on_its_package_files(tmp_path):
    checkout = tmp_path / "checkout"
    (checkout / "harness").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[project]\n")
    module = checkout / "harness" / "cli.py"
    module.write_text("one\n")
    before = launch.install_key(str(checkout))
    assert before == launch.install_key(str(checkout))
    module.write_text("two, longer\n")
    assert launch.install_key(str(checkout)) != before
    assert launch.install_key(str(tmp_path / "elsewhere")) is None
    assert launch.install_key("skillscope-harness==1.0") == "skillscope-harness==1.0"


def test_an_install_counts_only_with_its_program_and_the_same_key(tmp_path):
    env_dir = tmp_path / "env"
    launch.mark_installed(env_dir.mkdir() or env_dir, "key")
    assert not launch.is_installed(env_dir, "key")  # no skillscope program in it
    program = launch.executable(env_dir, "skillscope")
    program.parent.mkdir()
    program.write_text("")
    assert launch.is_installed(env_dir, "key")
    assert not launch.is_installed(env_dir, "other")
    assert not launch.is_installed(env_dir, None)
    launch.mark_installed(env_dir, None)
    assert not launch.is_installed(env_dir, "key")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("skillscope.toml", 'skills-dir = ["catalog/*"]\n'),
        ("pyproject.toml", '[tool.skillscope]\nskills-dir = "catalog/*"\n'),
    ],
)
def test_a_skill_is_found_through_the_repos_settings_file(tmp_path, name, text):
    write_skill(tmp_path, "deep", pin="v1.0.0", parent="catalog")
    assert launch.skill_pin(tmp_path, "deep") is None  # not at the root, where the default looks
    (tmp_path / name).write_text(text)
    assert launch.skill_pin(tmp_path, "deep") == "v1.0.0"
