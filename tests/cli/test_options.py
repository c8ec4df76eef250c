"""harness.cli.options: each command's flags checked once, at its edge.

A corpus of bad flag values (data/bad_flags.json) each gives one usage sentence and exit 2 before any
repo is read; a whole run, on either routing engine and on behavioral, calls each resolver once.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.cli import flags, resolve
from harness.errors import UsageError
from tests.fakeapi import replies as R
from tests.support.helpers import run_cli
from tests.support.routing import CaseRouter, route, routing_env, skills_repo

BAD_FLAGS = json.loads((Path(__file__).parent / "data" / "bad_flags.json").read_text(encoding="utf-8"))
# Every module a run of the paid commands passes through, loaded before the counting starts.
MODULES = (
    "harness.cli.options",
    "harness.cli.paid",
    "harness.commands.routing",
    "harness.commands.routing_agent",
    "harness.commands.behavioral",
    "harness.commands.tune",
    "harness.commands.tune_agent",
    "harness.commands.tune_end",
    "harness.commands.compare",
    "harness.commands.cost",
)
# The list flags whose reading is counted (parse_list also reads --agent, --skills-dir... for resolvers).
LISTS = ("--skill", "--only", "--routing-room", "--warn", "--error", "--model")


@pytest.mark.parametrize("case", BAD_FLAGS, ids=lambda case: " ".join(case["argv"]))
def test_a_bad_flag_is_one_usage_sentence_and_exit_2_before_any_repo_is_read(
    case: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_repo(*_args, **_kwargs):
        raise AssertionError("the repo was read before every flag was checked")

    monkeypatch.setattr(resolve, "repo_of", no_repo)
    run = run_cli(case["argv"], cwd=tmp_path)
    assert run.code == 2, run.stderr
    assert run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("error: ") and line.endswith(".") and case["says"] in line


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Calls of each resolver (of each bar and list flag), wherever a module holds it."""
    for name in MODULES:
        importlib.import_module(name)
    calls: Counter = Counter()
    resolvers: dict[str, Callable] = {
        "report_options": flags.report_options,
        "min_accuracy": flags.min_accuracy,
        "parse_list": flags.parse_list,
        "agents_of": resolve.agents_of,
        "legs_of": resolve.legs_of,
        "pass_env_of": resolve.pass_env_of,
        "sources_of": importlib.import_module("harness.cli.options").sources_of,
    }
    loaded = [module for name, module in sys.modules.items() if name.startswith("harness") and module]
    for key, original in resolvers.items():
        wrapper = counting(key, original, calls)
        for module in loaded:
            for attr, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attr, wrapper)
    return calls


def counting(key: str, original: Callable, calls: Counter) -> Callable:
    def wrapper(*args, **kwargs):
        if key == "min_accuracy":
            calls[f"{key} {args[1] if len(args) > 1 else kwargs.get('flag', '--min-accuracy')}"] += 1
        elif key == "parse_list":
            if args[0] in LISTS and isinstance(args[1], str | None):  # not a word of a list of words
                calls[f"{key} {args[0]}"] += 1
        else:
            calls[key] += 1
        return original(*args, **kwargs)

    return wrapper


def once_each(calls: Counter, *expected: str) -> None:
    assert {key: n for key, n in calls.items() if n != 1} == {}
    assert set(expected) <= set(calls), calls


LEXICAL = ("report_options", "min_accuracy --min-accuracy", "min_accuracy --min-rank1", "agents_of")
LISTED = ("parse_list --skill", "parse_list --only", "parse_list --routing-room", "sources_of")


def test_a_lexical_routing_run_calls_each_resolver_once(tmp_path: Path, counted: Counter) -> None:
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    output = tmp_path / "lexical.json"
    run = run_cli(
        [
            "routing",
            "--engine",
            "lexical",
            "--repo",
            str(repo),
            "--routing-room",
            "all",
            "--output",
            str(output),
        ],
        cwd=repo,
    )
    assert run.code in (0, 1), run.stderr
    assert json.loads(output.read_text(encoding="utf-8"))["command"] == "routing"
    once_each(counted, *LEXICAL, *LISTED)
    assert "legs_of" not in counted and "pass_env_of" not in counted  # the lexical engine spends nothing


@pytest.mark.usefixtures("private_temp")
def test_an_agent_routing_run_calls_each_resolver_once(
    fake_api, claude_bin, tmp_path: Path, counted: Counter
) -> None:
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    done = route(
        repo, env, "--only", "alpha-pos-1,alpha-neg-1", "--routing-room", "all", "--skip-preflight",
        "--no-cache", "--no-canary", "--model", "claude-fake-a",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    assert done.verdicts() == {"alpha-pos-1": "correct_trigger", "alpha-neg-1": "true_negative"}
    once_each(
        counted, "report_options", "min_accuracy --min-accuracy", "agents_of", "legs_of", "pass_env_of",
        "parse_list --model", *LISTED,
    )  # fmt: skip


@pytest.mark.usefixtures("private_temp")
def test_a_behavioral_dry_run_calls_each_resolver_once(
    fake_api, claude_bin, tmp_path: Path, counted: Counter
) -> None:
    repo = skills_repo(tmp_path / "repo", "alpha")
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    run = run_cli(
        ["behavioral", "--repo", str(repo), "--only", "alpha-pos-1", "--dry-run"], cwd=repo, environ=env
    )
    assert run.code == 0, run.stderr
    assert "nothing was sent" in run.stdout and fake_api.requests == []
    once_each(
        counted, "report_options", "agents_of", "legs_of", "pass_env_of", "sources_of", "parse_list --only"
    )


def test_a_lexical_tuning_calls_each_resolver_once(tmp_path: Path, counted: Counter) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(Path(__file__).parents[1] / "tune" / "room", repo)
    candidate = "Reads a receipt and works out its total."
    (repo / "mine.json").write_text(json.dumps([candidate]), encoding="utf-8")
    output = tmp_path / "tune.json"
    argv = ["tune", "alpha", "--engine", "lexical", "--candidates", "mine.json", "--repo", str(repo)]
    run = run_cli([*argv, "--output", str(output)], cwd=repo, environ={"HOME": str(tmp_path / "home")})
    assert run.code == 0, run.stderr
    assert json.loads(output.read_text(encoding="utf-8"))["command"] == "tune"
    once_each(counted, "report_options", "sources_of", "parse_list --routing-room")
    assert "legs_of" not in counted and "pass_env_of" not in counted  # the lexical engine spends nothing


def test_the_options_are_frozen() -> None:
    from dataclasses import FrozenInstanceError

    from harness.cli import build_parser
    from harness.cli.options import routing_options

    args = build_parser(only="routing").parse_args(["routing", "--engine", "lexical", "--skill", "a,b"])
    options = routing_options(args)
    assert options.skills == ("a", "b") and options.paid is None and options.modelled_agent == "claude"
    with pytest.raises(FrozenInstanceError):
        options.engine = "agent"  # type: ignore[misc]


def test_the_builder_itself_raises_the_usage_error() -> None:
    from harness.cli import build_parser
    from harness.cli.options import behavioral_options

    args = build_parser(only="behavioral").parse_args(["behavioral", "--agent", "claude,codex"])
    with pytest.raises(UsageError, match="behavioral runs one agent at a time"):
        behavioral_options(args)
