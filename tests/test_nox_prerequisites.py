"""`nox -s tests` on a machine that lacks a tool the suite needs stops before anything else with one
sentence naming the tool and how to install it, instead of failing tests with assertions that do not say
why; the fast lane (`-- -m "not cli"`) needs none of them and is never stopped. And what the session
selects by default: everything but the benchmark scripts' lane."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import COSTS
from tests.support.sandbox import path_without

ROOT = Path(__file__).resolve().parent.parent
SAID = {
    "bwrap": "`bwrap` is not on PATH (the agent CLIs' shell sandbox needs it): apt-get install bubblewrap",
    "socat": "`socat` is not on PATH (the agent CLIs' shell sandbox needs it): apt-get install socat",
}


def run_tests_session(tmp_path: Path, path: str, *posargs: str, **env: str) -> subprocess.CompletedProcess:
    """The tests session run without a venv: the check comes before any install, which then refuses."""
    environ = {**os.environ, "PATH": path, **env}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "nox",
            "-f",
            str(ROOT / "noxfile.py"),
            "--no-venv",
            "-s",
            "tests",
            "--",
            *posargs,
        ],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize("tool", sorted(SAID))
def test_a_missing_sandbox_tool_stops_the_session_with_one_sentence_naming_it(tmp_path, tool):
    done = run_tests_session(tmp_path, str(path_without(tool, os.environ["PATH"], tmp_path / "bin")))
    assert done.returncode != 0
    assert SAID[tool] in done.stderr, done.stderr


def test_a_missing_browser_is_named_with_the_variable_that_points_at_another(tmp_path):
    absent = tmp_path / "no-chromium"
    done = run_tests_session(tmp_path, os.environ["PATH"], SKILLSCOPE_TEST_CHROMIUM=str(absent))
    assert done.returncode != 0
    assert (
        f"Chromium is not at {absent} (the report page tests drive it): apt-get install chromium"
        in done.stderr
    )


def test_the_fast_lane_is_not_stopped_for_a_tool_only_the_slow_lane_needs(tmp_path):
    hidden = path_without("bwrap", os.environ["PATH"], tmp_path / "bin")
    done = run_tests_session(tmp_path, str(hidden), "-m", "not cli")
    assert "apt-get install" not in done.stderr
    # It got past the check to the install, which a session without a venv refuses.
    assert "does not have a virtual environment" in done.stderr, done.stderr


def test_with_every_tool_present_the_check_passes(tmp_path):
    done = run_tests_session(tmp_path, os.environ["PATH"])
    assert "is not on PATH" not in done.stderr and "Chromium is not at" not in done.stderr
    assert "does not have a virtual environment" in done.stderr, done.stderr


def noxfile_functions(*names: str) -> dict:
    """The noxfile's functions of these names, compiled alone: executing the whole file would register its
    sessions with nox in this process (tests/test_docs_build.py reads it the same way)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    body: list[ast.stmt] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    assert len(body) == len(names)
    namespace: dict = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), "noxfile.py", "exec"), namespace)
    return namespace


@pytest.mark.parametrize(
    ("posargs", "pytest_gets"),
    [
        ([], ["-m", "not bench", "-q"]),
        (["tests/select", "-x"], ["-m", "not bench", "tests/select", "-x"]),
        (["-m", "not cli"], ["-m", "not cli"]),
        (["-q", "-m", "bench"], ["-q", "-m", "bench"]),
    ],
)
def test_the_suite_leaves_the_benchmark_lane_out_unless_a_mark_expression_is_given(posargs, pytest_gets):
    suite_arguments = noxfile_functions("suite_arguments", "_flag_value")["suite_arguments"]
    assert suite_arguments(posargs) == pytest_gets


def test_the_lane_it_leaves_out_is_the_benchmark_scripts_mark():
    assert "bench" in COSTS and "benchmarks/" in COSTS["bench"]
