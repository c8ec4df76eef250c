"""`{name}` placeholders from hooks, replaced literally: never `str.format`, so other braces survive."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from harness.model.dataset import Case


def fill(text: str, values: Mapping[str, object]) -> str:
    """Replace each `{name}` whose name is a key of `values`, in one pass (a value is never re-read)."""
    if not values:
        return text
    names = sorted(values, key=len, reverse=True)
    pattern = re.compile("\\{(" + "|".join(re.escape(name) for name in names) + ")\\}")
    return pattern.sub(lambda match: str(values[match.group(1)]), text)


def fill_case(case: Case, values: Mapping[str, object]) -> Case:
    """The case as graded: prompt, literal checks and judged statements filled in."""
    if not values:
        return case
    return dataclasses.replace(
        case,
        prompt=fill(case.prompt, values),
        logs_contain=[fill(t, values) for t in case.logs_contain],
        files_exist=[fill(t, values) for t in case.files_exist],
        expected_behavior=[fill(t, values) for t in case.expected_behavior],
        unexpected_behavior=[fill(t, values) for t in case.unexpected_behavior],
    )
