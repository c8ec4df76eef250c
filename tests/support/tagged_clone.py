"""A clone of this repository's committed history with a tagged version, as a pinned install sees it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GIT = [
    "git",
    "-c",
    "user.name=skillscope tests",
    "-c",
    "user.email=tests@example.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "tag.gpgsign=false",
]
TAG, TAGGED_VERSION, LATER_VERSION = "v9.9.1-test", "9.9.1", "9.9.2"
RELEASE_TAG = f"v{TAGGED_VERSION}"  # what a PEP 440 version resolves to

# For the environment of a pip that installs the harness under test: no byte-compiling of every
# installed module (about half an install's CPU). What gets installed is the subject, not its .pyc files.
NO_BYTECODE = {"PIP_COMPILE": "false"}


def git(*args: str, cwd: Path) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


def set_version(clone: Path, version: str) -> None:
    init = clone / "harness" / "__init__.py"
    init.write_text(re.sub(r'__version__ = "[^"]*"', f'__version__ = "{version}"', init.read_text()))
    git("commit", "-qam", f"version {version}", cwd=clone)


def make_tagged_clone(parent: Path) -> Path:
    """Clone, commit 9.9.1 and tag it v9.9.1-test and v9.9.1, then move the branch on to 9.9.2."""
    if shutil.which("git") is None:
        raise RuntimeError("git is required to build a tagged clone")
    clone = parent / "skillscope"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    set_version(clone, TAGGED_VERSION)
    git("tag", TAG, cwd=clone)
    git("tag", "-a", "-m", f"release {TAGGED_VERSION}", RELEASE_TAG, cwd=clone)  # annotated, as releases are
    set_version(clone, LATER_VERSION)  # the tag, not the branch tip, must be what gets installed
    return clone
