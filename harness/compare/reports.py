"""Comparing two existing reports: the cases of a routing or behavioral JSON report, read back."""

from __future__ import annotations

from pathlib import Path

from harness import jsonsafe, nesting, schemas
from harness.compare.result import CaseComparison, CompareMeta, CompareResult
from harness.compare.sides import SideRecord, runs_of
from harness.errors import HarnessError, UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text
from harness.model.envelope import RunMeta

MODES = ("routing", "behavioral")


def load(path: Path) -> dict:
    """A routing or behavioral report, or one sentence saying what is wrong with the file."""
    try:
        document = jsonsafe.loads(read_text(path, MAX_REPORT_BYTES), str(path), depth=nesting.REPORT_DEPTH)
    except UnreadableFile as exc:
        raise UsageError(f"--reports: cannot read {path} ({exc.reason}); check the path.") from None
    except jsonsafe.JsonProblem as exc:
        raise HarnessError(f"{exc}; pass a report written by skillscope routing or behavioral.") from None
    command = document.get("command") if isinstance(document, dict) else None
    if command not in MODES or not isinstance(document.get("cases"), list):
        raise HarnessError(
            f"{path}:1: not a routing or behavioral report (command {command!r}); compare reads only the "
            "JSON reports of those two commands."
        )
    problem = misfit(document)
    if problem:
        raise HarnessError(
            f"{path}: {problem}, so it cannot be compared; pass a report this version of skillscope wrote "
            "(run the command again to write one)."
        )
    return document


def misfit(document: dict) -> str | None:
    """Where the report departs from what compare reads (schema/compare-input.schema.json), or None."""
    from jsonschema.exceptions import best_match

    error = best_match(schemas.validator("compare-input").iter_errors(document))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    path = list(error.absolute_path)
    case = document["cases"][path[1]] if len(path) > 1 and path[0] == "cases" else None
    named = f"case `{case['id']}`" if isinstance(case, dict) and isinstance(case.get("id"), str) else "a case"
    return f"{named}: `{where or 'the report'}` {error.message}" if case is not None else f"{error.message}"


def compare(baseline: dict, candidate: dict, names: tuple[str, str]) -> list[CaseComparison]:
    """The candidate's cases, each with the baseline report's runs of the same id (if any)."""
    mode = candidate["command"]
    if baseline["command"] != mode:
        raise UsageError(
            f"--reports: {names[0]} is a {baseline['command']} report but {names[1]} is a {mode} report; "
            "compare two reports of the same command."
        )
    engines = [document.get("engine", "agent") for document in (baseline, candidate)]
    if engines[0] != engines[1]:
        raise UsageError(
            f"--reports: {names[0]} was ranked by the {engines[0]} engine but {names[1]} by the {engines[1]} "
            "engine; compare two reports of the same engine."
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


def result_of(
    old: dict,
    new: dict,
    names: tuple[str, str],
    run: RunMeta,
    *,
    allow_regressions: bool,
    min_pairs: int,
    strict: bool,
) -> CompareResult:
    """The comparison of two reports already written (`names`: as given): the candidate's cases decide
    what is compared, and a baseline case the candidate lacks is a note."""
    cases = compare(old, new, names)
    gone = dropped(old, new)
    notes = [f"{len(gone)} baseline case(s) not in the candidate report: {', '.join(gone)}"] if gone else []
    meta = CompareMeta(
        run=run,
        mode=new["command"],
        baseline=names[0],
        candidate=names[1],
        source="reports",
        repeat=max((len(c.candidate.runs) for c in cases), default=1),
        allow_regressions=allow_regressions,
        min_pairs=min_pairs,
        skills=sorted({c.skill for c in cases if c.skill}),
        notes=notes,
        strict=strict,
    )
    return CompareResult(meta=meta, cases=cases)
