"""The deterministic checks: `logs_contain` over what the agent did, `files_exist` over what it produced."""

from __future__ import annotations

from dataclasses import dataclass

from harness.behavioral.evidence import Passage, find
from harness.behavioral.snapshot import Changes

LISTED_FILES = 12  # files named in a failure's detail


@dataclass(frozen=True)
class Check:
    kind: str  # logs_contain | files_exist | hook | expected_behavior | unexpected_behavior
    expectation: str
    passed: bool
    detail: str
    # A MUST statement the judge passed without citing any evidence: it counts as met (unless
    # --require-evidence), and every report says so.
    no_evidence: bool = False

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "expectation": self.expectation,
            "passed": self.passed,
            "detail": self.detail,
            "no_evidence": self.no_evidence,
        }


def logs_contain(needles: list[str], did: list[Passage], injected: list[str]) -> list[Check]:
    checks = []
    for needle in needles:
        hit = find(needle, did)
        if hit is not None:
            checks.append(Check("logs_contain", needle, True, f"found in the {hit.where}"))
            continue
        only_in_skill = any(needle.casefold() in text.casefold() for text in injected)
        detail = (
            f"appears only in the skill's own text, which does not count; nothing the agent did "
            f"({_did_summary(did)}) contains it"
            if only_in_skill
            else f"not found in what the agent did ({_did_summary(did)})"
        )
        checks.append(Check("logs_contain", needle, False, detail))
    return checks


def files_exist(patterns: list[str], changes: Changes) -> list[Check]:
    return [_file_check(pattern, changes) for pattern in patterns]


def normalise(pattern: str) -> str:
    text = pattern.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text.strip("/")


def segment_match(path: str, pattern: str) -> bool:
    """`plan.md` matches `plan.md` and `examples/plan.md`, never `analyze_plan.md`."""
    return bool(pattern) and (path == pattern or path.endswith("/" + pattern))


def _file_check(raw: str, changes: Changes) -> Check:
    pattern = normalise(raw)
    produced = [p for p in changes.produced if segment_match(p, pattern)]
    if produced:
        where = ", ".join(f"{p} ({changes.how(p)})" for p in produced[:3])
        return Check("files_exist", raw, True, f"found at {where}")
    untouched = [p for p in changes.untouched if segment_match(p, pattern)]
    if untouched:
        detail = (
            f"{untouched[0]} was already in the workspace and the run left it unchanged; only files "
            "the run created or changed count"
        )
    elif any(segment_match(d, pattern) for d in changes.directories):
        detail = f"only a directory matches {pattern}; files_exist names files"
    elif changes.produced:
        detail = f"not among the files the run created or changed: {_names(changes.produced)}"
    else:
        holds = _names(changes.present) if changes.present else "nothing"
        detail = f"the run created or changed no file; the workspace holds: {holds}"
    return Check("files_exist", raw, False, detail)


def _names(paths: list[str]) -> str:
    shown = ", ".join(paths[:LISTED_FILES])
    return shown if len(paths) <= LISTED_FILES else f"{shown} and {len(paths) - LISTED_FILES} more"


def _did_summary(did: list[Passage]) -> str:
    calls = {p.call for p in did if p.call is not None}
    said = any(p.where == "final message" for p in did)
    return f"{len(calls)} tool call(s)" + (" and the final message" if said else ", no final message")
