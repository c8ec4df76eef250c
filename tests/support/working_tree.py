"""This repository's working tree as a fresh clone of it would hold it: what a release is built from,
and what a pre-commit config pinned to a commit of it installs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.support.tagged_clone import GIT, ROOT


def tracked_copy(destination: Path) -> Path:
    """The files git tracks, as a fresh clone has them, with their uncommitted edits."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source, target = ROOT / name, destination / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)
    return destination


def committed_copy(destination: Path) -> str:
    """`tracked_copy` into `destination` committed as a repository of one commit; returns its id."""
    tracked_copy(destination)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "working tree"]):
        subprocess.run([*GIT, *args], cwd=destination, check=True, capture_output=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=destination, capture_output=True, check=True, text=True
    )
    return head.stdout.strip()
