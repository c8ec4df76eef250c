"""How a routing or behavioral run's reports list its quarantined cases: run and reported, never gating (a
failure is a warning, and JUnit output), so neither a CI check nor a test table goes red on it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from harness.model.findings import WARNING, Finding

if TYPE_CHECKING:  # JUnit is rendered where --junit asks for it
    from harness.report.junit import JUnitCase


def until(entry: Mapping[str, str]) -> str:
    return f"quarantined until {entry['expires']} ({entry['reason']}), not gating"


def by_id(entries: list[dict]) -> dict[str, dict]:
    return {entry["id"]: entry for entry in entries}


def headline_note(entries: list[dict]) -> str:
    return f"{len(entries)} quarantined (not gating)" if entries else ""


def markdown_lines(entries: list[dict], statuses: Mapping[str, str]) -> list[str]:
    """One line naming each quarantined case with this run's status, its expiry and its reason."""
    if not entries:
        return []
    shown = "; ".join(
        f"`{e['id']}` ({statuses.get(e['id'], 'not run')}, until {e['expires']}: {e['reason']})"
        for e in entries
    )
    return [f"Quarantined case(s), run and reported but not gating: {shown}.", ""]


def held(found: Finding, entry: Mapping[str, str] | None) -> Finding:
    """`found` as a warning saying its case is quarantined; as it was when the case is not."""
    if entry is None:
        return found
    return dataclasses.replace(found, severity=WARNING, message=f"{found.message} [{until(entry)}]")


def junit_case(case: JUnitCase, entry: Mapping[str, str] | None) -> JUnitCase:
    """A quarantined case's failure moved to its output: reported, and not failing the table."""
    if entry is None or case.failure is None:
        return case
    output = "\n".join(part for part in (f"{until(entry)}; it failed:", case.failure, case.output) if part)
    return dataclasses.replace(case, failure=None, output=output)


def junit_cases(kind: str, cases: list[JUnitCase], meta: dict) -> list[JUnitCase]:
    """A paid run's JUnit cases: each quarantined failure as output, then why the run stopped early."""
    from harness.report.junit import halt_cases

    entries = by_id(meta.get("quarantine") or [])
    return [junit_case(case, entries.get(case.name)) for case in cases] + halt_cases(kind, meta)
