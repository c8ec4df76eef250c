"""Comparing two existing reports: the cases of a routing or behavioral JSON report, read back."""

from __future__ import annotations

import json
from pathlib import Path

from harness.compare.result import CaseComparison
from harness.compare.sides import SideRecord, runs_of
from harness.errors import HarnessError, UsageError

MODES = ("routing", "behavioral")


def load(path: Path) -> dict:
    """A routing or behavioral report, or one sentence saying what is wrong with the file."""
    try:
        document = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UsageError(f"--reports: cannot read {path} ({exc.strerror or exc}); check the path.") from None
    except json.JSONDecodeError as exc:
        raise HarnessError(
            f"{path}:{exc.lineno}: not JSON ({exc.msg}); pass a report written by skillscope routing or "
            "behavioral."
        ) from None
    command = document.get("command") if isinstance(document, dict) else None
    if command not in MODES or not isinstance(document.get("cases"), list):
        raise HarnessError(
            f"{path}:1: not a routing or behavioral report (command {command!r}); compare reads only the "
            "JSON reports of those two commands."
        )
    return document


def compare(baseline: dict, candidate: dict, names: tuple[str, str]) -> list[CaseComparison]:
    """The candidate's cases, each with the baseline report's runs of the same id (if any)."""
    mode = candidate["command"]
    if baseline["command"] != mode:
        raise UsageError(
            f"--reports: {names[0]} is a {baseline['command']} report but {names[1]} is a {mode} report; "
            "compare two reports of the same command."
        )
    before = {case["id"]: case for case in baseline["cases"]}
    return [
        pair(mode, case, before.get(case["id"]), f"the baseline report {names[0]} has no case `{case['id']}`")
        for case in candidate["cases"]
    ]


def pair(mode: str, case: dict, old: dict | None, missing: str) -> CaseComparison:
    """One candidate case JSON against the baseline's JSON of the same case (None: it was not run)."""
    return CaseComparison(
        id=case["id"],
        skill=case.get("skill"),
        source=case["source"],
        line=case.get("line"),
        prompt=case["prompt"],
        expect=case.get("expect"),
        baseline=SideRecord(runs_of(mode, old)) if old else SideRecord(missing=missing),
        candidate=SideRecord(runs_of(mode, case)),
        mode=mode,
        trust_level=case.get("trust_level", "stable"),
    )


def dropped(baseline: dict, candidate: dict) -> list[str]:
    """Case ids the baseline ran that the candidate's dataset no longer has."""
    kept = {case["id"] for case in candidate["cases"]}
    return [case["id"] for case in baseline["cases"] if case["id"] not in kept]
