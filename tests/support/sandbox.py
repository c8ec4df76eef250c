"""The shell sandbox's needs in a test: bubblewrap present (a test that needs it fails without it), or
a PATH that hides it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

NEEDED = ("bwrap", "socat")


def require_bubblewrap() -> None:
    """Fail, never skip, where claude's sandbox cannot start: CI installs what it needs."""
    missing = [tool for tool in NEEDED if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not on PATH: the shell sandbox tests need Debian's bubblewrap and "
            "socat (apt-get install bubblewrap socat)",
            pytrace=False,
        )


def path_without(tool: str, path: str, folder: Path) -> Path:
    """One folder of links to every program on `path` but `tool`, the first of each name winning."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in path.split(os.pathsep):
        directory = Path(entry)
        if not directory.is_dir():
            continue
        for program in directory.iterdir():
            link = folder / program.name
            if program.name != tool and not link.exists() and not link.is_symlink():
                link.symlink_to(program)
    return folder
