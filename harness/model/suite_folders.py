"""Where a Claude Code plugin eval suite sits under a skill's `evals/` folder, found without loading the
suite's reader (PyYAML): most catalogs have none, and a run that finds none never imports it."""

from __future__ import annotations

import os
from pathlib import Path

from harness.files import present

CASE_FILE = "case.yaml"
PROMPT_FILE = "prompt.md"
RESERVED = {"results", "mocks", ".replay"}  # the CLI's own folders inside an eval dir, never cases


def case_folders(evals: Path) -> list[Path]:
    """Every folder under `evals` holding a case.yaml or a prompt.md, in path order. One walk, not a
    glob per name: every skill of a catalog is asked, and nearly all hold neither."""
    if not evals.is_dir():
        return []
    found = []
    for current, dirs, files in os.walk(evals):  # as a glob does: linked folders are not entered
        dirs[:] = [name for name in dirs if name not in RESERVED]
        names = {*files, *dirs}
        if any(name in names and present(Path(current, name)) for name in (CASE_FILE, PROMPT_FILE)):
            found.append(Path(current))
    return sorted(found)
