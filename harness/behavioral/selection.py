"""Which cases a behavioral run grades: `true` cases that assert something beyond routing."""

from __future__ import annotations

from collections.abc import Mapping

from harness.behavioral.hooks import Hooks
from harness.errors import HarnessError
from harness.model import catalog
from harness.model.dataset import Case
from harness.model.repo import Repo


def behavioral_cases(candidates: list[Case], hooks: Mapping[str, Hooks | None]) -> list[Case]:
    """`true` cases with an expectation, or whose skill's hooks define `check` (or failed to load,
    so the failure shows as errors instead of a silently smaller run)."""
    chosen = []
    for case in candidates:
        if not case.should_trigger:
            continue
        skill_hooks = hooks.get(case.skill or "")
        checked = skill_hooks is not None and (skill_hooks.has_check or skill_hooks.load_error is not None)
        if case.has_behavior or checked:
            chosen.append(case)
    return chosen


def dataset_candidates(
    repo: Repo, skills: list[str], only: list[str], extended: bool
) -> tuple[list[str], list[Case], catalog.Catalog]:
    """The skills asked for (default: those with a dataset), their selected `true` cases, and the catalog
    they were read from (the structural gate checks the used skills of it without reading them again)."""
    names = skills or repo.with_dataset()
    if not names:
        raise HarnessError(
            f"no skill with evals/evals.json under --skills-dir {','.join(repo.globs)}; point "
            "--skills-dir at your skills or add a dataset."
        )
    loaded = catalog.load(repo, names)
    selected = catalog.select_cases(loaded.cases(names, extended=extended), only, skills)
    return names, [c for c in selected if c.should_trigger], loaded
