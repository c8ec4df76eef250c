"""Which cases a behavioral run grades: `true` cases that assert something beyond routing."""

from __future__ import annotations

from collections.abc import Mapping

from harness.behavioral.hooks import Hooks
from harness.model.dataset import Case


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
