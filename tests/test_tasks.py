"""The invoke tasks in tasks.py, run with invoke as an author runs them.

Each task is a thin wrapper over `skillscope`, so what can break is the wrapper: a flag the command no
longer takes, a plan field that moved, an exit code lost. The offline tasks run for real; the agent
tasks run once for real against the scripted model API, and each one's command line (`inv --dry`) is
parsed by skillscope's own parser.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import build_parser, parse
from tests.support.helpers import make_skill
from tests.support.select import commit, git, init_repo

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def skills_repo(root: Path, settings: str = "") -> Path:
    """A git repo whose settings name skills/* as the skills folder, as `skillscope init` writes them."""
    init_repo(root)
    (root / "skillscope.toml").write_text(f'skills-dir = ["skills/*"]\n{settings}', encoding="utf-8")
    return root


def inv(*words: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "invoke", "--search-root", str(ROOT), *words],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def task_names() -> list[str]:
    tree = ast.parse((ROOT / "tasks.py").read_text(encoding="utf-8"))
    return [
        node.name.replace("_", "-")
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.decorator_list and not node.name.startswith("_")
    ]


def test_inv_list_shows_every_task(tmp_path):
    done = inv("--list", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = re.findall(r"^  (\S+)", done.stdout, re.MULTILINE)
    assert sorted(listed) == sorted(task_names())


def test_new_skill_scaffolds_a_skill_and_shows_what_to_fill_in(tmp_path):
    init_repo(tmp_path)
    done = inv("new-skill", "demo-skill", "--dir", "skills", cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output  # the scaffold is made; its structural run only reports
    assert (tmp_path / "skills" / "demo-skill" / "SKILL.md").is_file()
    assert json.loads((tmp_path / "skills" / "demo-skill" / "evals" / "evals.json").read_text())
    # an unedited scaffold is not green: structural names each placeholder still to replace
    assert "skillscope structural: fail:" in output
    assert "template-leftover" in output


def test_new_skill_without_dir_puts_the_skill_where_the_settings_look(tmp_path):
    skills_repo(tmp_path)
    done = inv("new-skill", "demo-skill", cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert (tmp_path / "skills" / "demo-skill" / "SKILL.md").is_file()
    assert not (tmp_path / "demo-skill").exists()
    assert "template-leftover" in output  # structural saw it


def test_check_runs_both_checks_and_fails_on_a_broken_link(tmp_path):
    skills_repo(tmp_path)
    make_skill(tmp_path / "skills", "linker", body="# Linker\n\nSee [the guide](references/guide.md).\n")
    done = inv("check", cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "skillscope structural: fail" in output
    assert "skillscope refs: fail" in output
    assert "references/guide.md" in output


def test_check_passes_a_clean_repo(tmp_path):
    skills_repo(tmp_path)
    make_skill(tmp_path / "skills", "tidy")
    done = inv("check", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_plan_prints_the_ci_plan_of_the_branch(tmp_path):
    repo = skills_repo(tmp_path / "repo", 'routing-room = "all"\n')
    make_skill(repo / "skills", "alpha")
    make_skill(repo / "skills", "beta")
    commit(repo, "skills")
    git(repo, "checkout", "-q", "-b", "change")
    commit(
        repo,
        "edit alpha",
        {"skills/alpha/SKILL.md": (repo / "skills/alpha/SKILL.md").read_text() + "\nMore.\n"},
    )
    done = inv("plan", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "changed since main: 1 path(s)" in done.stdout
    assert "routing: yes" in done.stdout
    assert re.search(r"^behavioral: alpha on Linux -> ubuntu-latest$", done.stdout, re.MULTILINE)
    assert "beta" not in done.stdout.split("changed since", 1)[1]


def test_plan_names_a_removed_skills_paths(tmp_path):
    repo = skills_repo(tmp_path / "repo", 'routing-room = "all"\n')
    make_skill(repo / "skills", "alpha")
    make_skill(repo / "skills", "beta")
    commit(repo, "skills")
    git(repo, "checkout", "-q", "-b", "change")
    git(repo, "rm", "-q", "-r", "skills/beta")
    commit(repo, "remove beta")
    done = inv("plan", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "not planned: skills/beta/SKILL.md (its skill is gone)" in done.stdout


def test_plan_with_a_base_that_is_not_there_is_selects_error_not_a_git_dump(tmp_path):
    repo = skills_repo(tmp_path / "repo")
    make_skill(repo / "skills", "alpha")
    commit(repo, "skills")
    done = inv("plan", "--since", "nowhere", cwd=repo)
    assert done.returncode == 1
    assert "--since: 'nowhere' is not a commit" in done.stderr
    assert "Encountered a bad command exit code" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("task", "words"),
    [("route", ["--routing-room", "nosuch"]), ("plan", ["--since", "nowhere"])],
)
def test_a_forwarded_error_names_an_option_the_task_takes(task, words, tmp_path):
    repo = skills_repo(tmp_path / "repo")
    make_skill(repo / "skills", "alpha")
    commit(repo, "skills")
    done = inv(task, *words, cwd=repo)
    assert done.returncode != 0
    named = re.search(r"error: (--[a-z-]+)", done.stderr)
    assert named, done.stderr
    assert named.group(1) == words[0]
    assert named.group(1) in inv("--help", task, cwd=repo).stdout


@pytest.mark.parametrize(
    ("task", "words"),
    [
        ("route", ["--routing-room", "a,b", "--only", "a-pos-1", "--keep-logs", "logs"]),
        ("behave", ["--skill", "a", "--only", "a-pos-1", "--keep-logs", "logs"]),
        ("compare", ["--skill", "a", "--baseline", "HEAD~1", "--mode", "routing", "--repeat", "2"]),
        ("compare", ["--reports", "old.json new.json"]),
        ("cost", ["--skill", "a", "--room", "a,b", "--repeat", "2", "say hello"]),
        ("show", ["--case", "a-pos-1,a-pos-2", "--full", "logs"]),
    ],
)
def test_agent_task_command_lines_parse(task, words, tmp_path):
    done = inv("--dry", task, *words, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = ANSI.sub("", done.stdout).strip().splitlines()[-1]
    command = shlex.split(line)
    start = next(
        i for i, word in enumerate(command) if word in {"routing", "behavioral", "compare", "cost", "show"}
    )
    argv = command[start:]
    parse(build_parser(only=argv[0]), argv)  # an unknown flag or a missing value exits here


def test_route_runs_the_agent_for_real(tmp_path, claude_bin, fake_api, fake_env):
    repo = skills_repo(tmp_path / "repo")
    make_skill(repo / "skills", "alpha")
    env = {**fake_env, "SKILLSCOPE_CLAUDE": claude_bin, "PATH": os.environ["PATH"]}
    # One case of each kind, through the task's --only: each case is one start of the CLI.
    done = inv("route", "--routing-room", "alpha", "--only", "alpha-pos-1,alpha-neg-1", cwd=repo, env=env)
    report = json.loads((repo / ".skillscope" / "runs" / "latest-routing.json").read_text())
    verdicts = {case["id"]: case["verdict"] for case in report["cases"]}
    # The scripted model answers every prompt in text: the positive is missed, the negative passes, and
    # the failed gate is the task's exit code.
    assert verdicts == {"alpha-pos-1": "missed_trigger", "alpha-neg-1": "true_negative"}, report["cases"]
    assert done.returncode == 1, done.stdout + done.stderr
    assert fake_api.requests


@pytest.mark.parametrize("task", ["test", "lint"])
def test_own_repo_tasks_find_skillscope_noxfile_from_a_skills_repo(task, tmp_path):
    done = inv("--dry", task, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    command = shlex.split(ANSI.sub("", done.stdout).strip().splitlines()[-1])
    noxfile = str(ROOT / "noxfile.py")
    assert command[:3] == ["nox", "-f", noxfile]
    listed = subprocess.run(
        [sys.executable, "-m", "nox", "-f", noxfile, "-l"], cwd=tmp_path, capture_output=True, text=True
    )
    assert listed.returncode == 0, listed.stderr
    assert re.search(rf"^\* {'tests' if task == 'test' else task} ->", listed.stdout, re.MULTILINE)
