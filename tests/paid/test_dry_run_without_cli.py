"""A dry run needs no agent CLI: with none installed, each paid command still says what it would run,
which CLI it would look for (its pinned version) and that it is not here, and exits 0."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.agent.runtime import pins
from tests.support.helpers import make_skill, run_cli
from tests.support.hermetic import git_isolation

RUNTIMES = ("claude", "codex", "copilot", "gemini", "opencode")
# A closed loopback port: were anything sent, it would fail rather than reach a model.
NOWHERE = "http://127.0.0.1:9"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Two skills committed (compare's baseline is HEAD)."""
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    make_skill(root, "beta")
    for args in (
        ("init", "-q"),
        ("add", "-A"),
        ("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "s"),
    ):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root


def bare_env(tmp_path: Path) -> dict[str, str]:
    """A PATH holding git alone (compare reads the baseline with it), and no SKILLSCOPE_<AGENT>."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    git = shutil.which("git")
    assert git is not None
    (bin_dir / "git").symlink_to(git)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"PATH": str(bin_dir), "HOME": str(home), **git_isolation()}
    env.update(ANTHROPIC_BASE_URL=NOWHERE, ANTHROPIC_API_KEY="k", OPENAI_BASE_URL=NOWHERE, OPENAI_API_KEY="k")
    return env


COMMANDS = {
    "routing": ["routing", "--routing-room", "all", "--only", "alpha-pos-1"],
    "behavioral": ["behavioral", "--skill", "alpha", "--only", "alpha-pos-1"],
    "compare": ["compare", "--skill", "alpha", "--only", "alpha-pos-1", "--mode", "routing"],
    "cost": ["cost", "Please do the alpha job.", "--skill", "alpha"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_dry_run_without_the_agent_cli_says_which_it_would_use_and_exits_0(
    tmp_path, repo, runtime, command
):
    env = bare_env(tmp_path)
    assert all(shutil.which(pins()[name]["bin"], path=env["PATH"]) is None for name in RUNTIMES)
    argv = [*COMMANDS[command], "--repo", str(repo), "--agent", runtime, "--dry-run", "--model", "m"]
    done = run_cli(argv, cwd=repo, environ=env)
    pin = pins()[runtime]
    said = f"Agent CLI: {runtime} (`{pin['bin']}` from PATH, pinned {pin['version']}) is not installed here"
    assert done.code == 0, done.stderr[-2000:]
    assert said in done.stdout
    assert f"npm install -g {pin['package']}@{pin['version']}" in done.stdout
    assert "nothing was sent" in done.stdout
    assert not (repo / ".skillscope" / "runs").exists()  # no report either


ENDPOINT_VARS = {
    "claude": "ANTHROPIC_BASE_URL",
    "codex": "OPENAI_BASE_URL",
    "opencode": "OPENAI_BASE_URL",
    "gemini": "GOOGLE_GEMINI_BASE_URL",
    "copilot": "COPILOT_PROVIDER_BASE_URL",
}


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_dry_run_names_the_endpoint_that_would_be_billed(tmp_path, repo, runtime):
    variable = ENDPOINT_VARS[runtime]
    argv = ["routing", "--repo", str(repo), "--routing-room", "all", "--agent", runtime, "--dry-run"]
    bare = {k: v for k, v in bare_env(tmp_path).items() if k != variable}
    env = {**bare, variable: "http://user:secret@127.0.0.1:9/v1"}
    done = run_cli([*argv, "--model", "m"], cwd=repo, environ=env)
    assert done.code == 0, done.stderr[-2000:]
    assert f"Endpoint ({runtime}): {variable}=http://127.0.0.1:9/v1 (from the environment)" in done.stdout
    assert "secret" not in done.stdout  # credentials in the URL stay out of the line

    done = run_cli([*argv, "--model", "m"], cwd=repo, environ=bare)
    assert done.code == 0, done.stderr[-2000:]
    assert f"Endpoint ({runtime}): " in done.stdout
    assert f", the default ({variable} is not set)" in done.stdout


def test_a_dry_run_says_where_it_found_the_cli_and_does_not_start_it(tmp_path, repo):
    env = bare_env(tmp_path)
    # An executable that would leave a mark if the dry run ran it (even for --version).
    fake = tmp_path / "bin" / "claude"
    mark = tmp_path / "started"
    fake.write_text(f"#!/bin/sh\ntouch {mark}\necho 2.1.332\n", encoding="utf-8")
    fake.chmod(0o755)
    done = run_cli(
        ["routing", "--repo", str(repo), "--routing-room", "all", "--dry-run"], cwd=repo, environ=env
    )
    assert done.code == 0, done.stderr[-2000:]
    pinned = pins()["claude"]["version"]
    assert f"Agent CLI: claude (`claude` from PATH, pinned {pinned}) was found at {fake}" in done.stdout
    assert f" {fake} -p " in done.stdout  # the command it would run uses what was found
    assert not mark.exists()


def test_a_cli_named_by_its_variable_is_looked_for_there(tmp_path, repo):
    env = {**bare_env(tmp_path), "SKILLSCOPE_GEMINI": str(tmp_path / "nowhere" / "gemini")}
    done = run_cli(
        ["routing", "--repo", str(repo), "--routing-room", "all", "--agent", "gemini", "--dry-run"],
        cwd=repo,
        environ=env,
    )
    assert done.code == 0, done.stderr[-2000:]
    assert f"`{tmp_path / 'nowhere' / 'gemini'}` from $SKILLSCOPE_GEMINI" in done.stdout
    assert "is not installed here" in done.stdout
    assert os.environ.get("SKILLSCOPE_GEMINI") != env["SKILLSCOPE_GEMINI"]


@pytest.mark.parametrize("where", ["flag", "setting"])
def test_pass_env_refuses_skillscopes_own_variables_before_anything_runs(where, repo, tmp_path):
    argv = [*COMMANDS["routing"], "--repo", str(repo), "--dry-run"]
    if where == "flag":
        argv += ["--pass-env", "MY_SETTING,SKILLSCOPE_CACHE_KEY"]
    else:
        (repo / "skillscope.toml").write_text('pass-env = ["MY_SETTING", "SKILLSCOPE_CACHE_KEY"]\n')
    run = run_cli(argv, cwd=repo, environ=bare_env(tmp_path))
    assert run.code == 2, run.stderr
    assert "--pass-env: SKILLSCOPE_CACHE_KEY is skillscope's own" in run.stderr
    assert "Traceback" not in run.stderr


def test_pass_env_takes_a_json_array_or_a_comma_list(repo, tmp_path):
    env = bare_env(tmp_path)
    for given in ('["MY_SETTING", "OTHER"]', "MY_SETTING,OTHER"):
        argv = [*COMMANDS["routing"], "--repo", str(repo), "--dry-run", "--pass-env", given]
        run = run_cli(argv, cwd=repo, environ=env)
        assert run.code == 0, run.stderr
    bad = run_cli([*argv[:-1], "A=B"], cwd=repo, environ=env)
    assert bad.code == 2 and "'A=B' is not an environment variable's name" in bad.stderr
