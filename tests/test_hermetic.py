"""The suite reads neither the host's git configuration nor its home (tests/support/hermetic.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Tests that expect git to refuse a repository owned by someone else: a host setting trusts every one.
REFUSALS = (
    "tests/select/test_gitdiff.py::test_gits_safe_directory_refusal_is_passed_through_with_its_fix",
    "tests/badinput/test_corpus.py::test_a_bad_input_gives_its_finding_or_usage_error_never_a_crash"
    "[select-since-dubious-owner]",
)
PROBE = "tests/test_hermetic.py::test_git_sees_no_setting_but_the_suites_own_empty_file"
TRUST_EVERYTHING = "[safe]\n\tdirectory = *\n[skillscope]\n\thost = read\n"


def hostile_host(root: Path) -> dict[str, str]:
    """An environment whose every git config source (global, XDG, system, command-line variables)
    trusts every directory and sets `skillscope.host`."""
    home, xdg = root / "home", root / "xdg"
    (xdg / "git").mkdir(parents=True)
    home.mkdir()
    for config in (root / "global", root / "system", home / ".gitconfig", xdg / "git" / "config"):
        config.write_text(TRUST_EVERYTHING, encoding="utf-8")
    # Nothing of the outer run either (an xdist worker's PYTEST_XDIST_WORKER, say).
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PYTEST_"))}
    environ.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(xdg),
        GIT_CONFIG_GLOBAL=str(root / "global"),
        GIT_CONFIG_SYSTEM=str(root / "system"),
        GIT_CONFIG_COUNT="1",
        GIT_CONFIG_KEY_0="safe.directory",
        GIT_CONFIG_VALUE_0="*",
        PYTHONPATH=str(ROOT),
    )
    return environ


def test_git_sees_no_setting_but_the_suites_own_empty_file(tmp_path):
    listed = subprocess.run(
        ["git", "config", "--list", "--show-origin"], cwd=tmp_path, capture_output=True, text=True
    )
    assert listed.stdout == ""
    assert Path(os.environ["GIT_CONFIG_GLOBAL"]).parent == Path(os.environ["HOME"])
    assert os.environ["GIT_CONFIG_NOSYSTEM"] == "1"


def test_a_host_whose_git_trusts_every_directory_does_not_reach_the_tests(tmp_path):
    host = hostile_host(tmp_path / "host")
    # The host really does trust everything: git there reads the value.
    seen = subprocess.run(["git", "config", "skillscope.host"], env=host, capture_output=True, text=True)
    assert seen.stdout.strip() == "read"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "inner"),
        ]
        + [*REFUSALS, PROBE],
        cwd=ROOT,
        env=host,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout
