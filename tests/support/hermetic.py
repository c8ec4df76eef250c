"""A home and a git configuration of the suite's own: nothing under test reads the developer's or the
host's. Registered for the whole suite in tests/conftest.py.

The session gets one before any module or session fixture runs (those clone and commit too), and each
test gets a fresh one on top. git's global settings come from a file the suite owns, the system file is
off, and every GIT_* variable the host set (GIT_DIR, GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS, ...) is
dropped: a host whose config says `safe.directory = *` or whose hook exported GIT_DIR changes nothing.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Settings a developer's shell or CI may carry that would steer what the harness reads or writes.
PERSONAL = (
    "GITHUB_STEP_SUMMARY",
    "GITHUB_ACTIONS",
    "SKILLSCOPE_REPO",
    "SKILLSCOPE_SKILLS",
    "SKILLSCOPE_VERSION",
    "CLAUDE_CONFIG_DIR",
    "XDG_CACHE_HOME",  # the parse memo lives in the user cache: the temporary home's, never theirs
    "XDG_CONFIG_HOME",  # git reads $XDG_CONFIG_HOME/git/config and its ignore file from there
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
)
# What a helper that builds a child's environment from scratch passes on to keep git isolated.
GIT_ISOLATION = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")


def git_isolation() -> dict[str, str]:
    """The isolating git variables as set now, for an environment built from scratch."""
    return {name: os.environ[name] for name in GIT_ISOLATION if name in os.environ}


def isolate(patch: pytest.MonkeyPatch, home: Path) -> Path:
    """Point HOME at `home` and git at an empty global config in it; returns that config file."""
    config = home / ".gitconfig"
    config.write_text("# the test suite's own global git config: no host setting applies\n", encoding="utf-8")
    for name in [n for n in os.environ if n.startswith("GIT_")] + list(PERSONAL):
        patch.delenv(name, raising=False)
    patch.setenv("HOME", str(home))
    patch.setenv("GIT_CONFIG_GLOBAL", str(config))
    patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return config


@pytest.fixture(scope="session", autouse=True)
def hermetic_session(tmp_path_factory) -> Iterator[Path]:
    """For module and session fixtures, which run before any test's own home exists; yields the folder
    the tests' own homes are made in."""
    with pytest.MonkeyPatch.context() as patch:
        isolate(patch, tmp_path_factory.mktemp("session-home"))
        yield tmp_path_factory.mktemp("homes")


@pytest.fixture(autouse=True)
def hermetic_home(hermetic_session: Path, monkeypatch) -> Path:
    """Each test's own HOME, and git config in it, so no test sees what another left there."""
    # Not tmp_path_factory.mktemp: it numbers a folder by listing the whole base folder first, so a
    # home per test made there would cost each test time growing with the number run before it.
    home = Path(tempfile.mkdtemp(prefix="home-", dir=hermetic_session))
    isolate(monkeypatch, home)
    return home
