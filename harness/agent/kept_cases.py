"""Kept agent logs matched to the cases of a run: a --keep-logs folder's files chosen by case id, and a
run's JSON report's cases by the file stem their logs carry (the naming of session.log_path and of the
patterns in logs.py, which only this package knows)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from harness.errors import UsageError
from harness.jsonfields import array_at, object_at

from .logs import LogFile, kept_files, log_file
from .session import log_path

ReportObject = dict[str, Any]  # a member of a run's JSON report, as loaded


def chosen_files(where: Path, given: str, cases: list[str]) -> list[tuple[str, LogFile]]:
    """(label, file) of the one log, or of every log under the folder, or of each of `cases`' logs;
    `given` is the path as the user wrote it, for the messages."""
    if where.is_file():
        return [(where.name, log_file(where) or LogFile(where, where.stem, "run"))]
    if not where.is_dir():
        raise UsageError(
            f"{given}: no such folder or file; pass the folder a run was given as --keep-logs, "
            "or the run's JSON report"
        )
    found = labelled(where)
    if not found:
        raise UsageError(
            f"{given} holds no agent logs: routing, behavioral, compare and cost keep them there "
            f"when run with --keep-logs {given}"
        )
    if not cases:
        return found
    chosen = []
    for case in cases:
        matched = [(label, f) for label, f in found if belongs(f, case)]
        if not matched:
            stems = sorted({f.stem for _, f in found})
            raise UsageError(
                f"no log of case `{case}` in {given}; its cases: {', '.join(stems[:20])}"
                + (f" and {len(stems) - 20} more" if len(stems) > 20 else "")
            )
        chosen += matched
    return chosen


def labelled(folder: Path) -> list[tuple[str, LogFile]]:
    """Every kept log under `folder`, labelled by its path there."""
    return [(f.path.relative_to(folder).as_posix(), f) for f in kept_files(folder)]


def logs_of(report: ReportObject, given: str, cwd: Path, *, required: bool = True) -> Path | None:
    """The folder the run kept its logs in: as given to it, from `cwd` or from the repo's root. None when
    there is none and it is not `required`."""
    values = object_at(object_at(report, "settings"), "values")
    kept = values.get("keep-logs")
    if not isinstance(kept, str) or not kept:
        if not required:
            return None
        # The report itself is still there to read: say how, and never ask a lexical run (which
        # refuses --keep-logs, having no agent) to keep logs.
        itself = f"`skillscope show {given} --format text` (or --html PAGE) prints the report itself"
        if report.get("engine") == "lexical":
            lexical = "a lexical routing run ranks without an agent and keeps no logs"
            raise UsageError(f"{given}: {lexical}; {itself}")
        raise UsageError(
            f"{given}: this {report['command']} run kept no agent logs; run it again with --keep-logs DIR; "
            + itself
        )
    repo = report.get("repo") if isinstance(report.get("repo"), str) else None
    candidates = [cwd / kept, *([Path(repo) / kept] if repo else [])]
    found = next((path for path in candidates if path.is_dir()), None)
    if found is None and not required:
        return None
    if found is None:
        raise UsageError(
            f"{given}: the logs this run kept in {kept} are gone (looked in "
            f"{' and '.join(str(c) for c in candidates)}); pass the folder itself if it moved"
        )
    return found


def cases_of(report: ReportObject) -> dict[str, ReportObject]:
    """The report's cases by the file stem their logs carry; a matrix's by `<agent>/<stem>`, from each
    agent's own run (the folder its logs were kept in)."""
    found = {}
    runs = array_at(report, "runs")
    for run in [report, *(r for r in runs if isinstance(r, dict))]:
        meta = object_at(run, "meta")
        prefix = f"{meta['agent']}/" if run is not report and isinstance(meta.get("agent"), str) else ""
        for case in [*array_at(run, "cases"), canary_case(meta)]:
            if isinstance(case, dict) and isinstance(case.get("id"), str):
                found[prefix + log_path(Path(), case["id"], "").name] = case
    return found


def canary_case(meta: ReportObject) -> ReportObject | None:
    """A routing run's canary as a case of its report, so its kept log is headed like any case's."""
    canary = meta.get("canary")
    if not isinstance(canary, dict) or not isinstance(canary.get("skill"), str):
        return None
    status = canary.get("status")
    return {
        "id": canary["skill"],
        "status": f"canary {status}",
        "prompt": canary.get("prompt"),
        "observed": canary.get("observed"),
        "error": canary.get("sentence"),
    }


def canary_replayed(case: ReportObject) -> bool:
    """The report's canary (see canary_case) was replayed from the result cache: it kept no log now."""
    return case.get("status") == "canary cached"


def belongs(found: LogFile, case: str) -> bool:
    """The file is of `case`: its stem is the case id as the run named files, or that plus a sample number."""
    return case == found.stem or log_path(Path(), case, "").name in case_stems(found)


def case_of(found: LogFile, cases: dict[str, ReportObject]) -> ReportObject | None:
    """The report's case a kept file belongs to (the agent's own, in a matrix), or None."""
    stems = case_stems(found)
    keys = [f"{found.path.parent.name}/{stem}" for stem in stems] + stems
    return next((cases[key] for key in keys if key in cases), None)


def leg_of(label: str, found: LogFile, report: ReportObject | None) -> str:
    """The leg a kept file belongs to in a matrix report (empty otherwise): routing's and behavioral's
    legs keep their logs in a folder named for the leg; compare's hold each side's folder under it."""
    command = report.get("command") if report else None
    if command in ("routing-matrix", "behavioral-matrix"):
        return found.path.parent.name
    return label.split("/", 1)[0] if command == "compare-matrix" else ""


def case_stems(found: LogFile) -> list[str]:
    """The stems a file's case may have: its own, and without a routing sample's `-<n>`."""
    sample = re.fullmatch(r"(.+)-\d+", found.stem)
    return [found.stem, *([sample.group(1)] if sample else [])]
