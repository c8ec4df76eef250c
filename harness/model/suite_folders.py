"""Where a Claude Code plugin eval suite sits under a skill's `evals/` folder, found without loading the
suite's reader (PyYAML): most catalogs have none, and a run that finds none never imports it."""

from __future__ import annotations

from pathlib import Path

from harness.files import present

CASE_FILE = "case.yaml"
PROMPT_FILE = "prompt.md"
RESERVED = {"results", "mocks", ".replay"}  # the CLI's own folders inside an eval dir, never cases


def case_folders(evals: Path) -> list[Path]:
    """Every folder under `evals` holding a case.yaml or a prompt.md, in path order."""
    if not evals.is_dir():
        return []
    found = {p.parent for name in (CASE_FILE, PROMPT_FILE) for p in evals.rglob(name) if present(p)}
    return sorted(f for f in found if not RESERVED & set(f.relative_to(evals).parts))
