"""Report files for `skillscope compare --reports`: the case JSON of routing and behavioral reports,
written by the tests (only the fields compare reads, inside the reports' own shape)."""

from __future__ import annotations

import json
from pathlib import Path

PASSING = ("correct_trigger", "true_negative")


def routing_sample(expect: str | None, observed: str | None, error: str | None = None) -> dict:
    if error:
        verdict = "error"
    elif observed is None:
        verdict = "true_negative" if expect is None else "missed_trigger"
    elif expect is None:
        verdict = "false_trigger"
    else:
        verdict = "correct_trigger" if observed == expect else "wrong_skill"
    return {
        "observed": observed,
        "verdict": verdict,
        "error": error,
        "stop_reason": "error" if error else "skill",
        "elapsed_s": 1.0,
        "tool_calls": 1,
        "inspection_calls": 0,
        "turns": 1,
        "tokens": {"input": 100, "output": 10},
        "cost_usd": 0.001,
    }


def routing_case(case_id: str, expect: str | None, *observed: str | None, line: int = 3) -> dict:
    """A case whose samples observed these skills (None: no skill; "!error": an errored sample)."""
    samples = [
        routing_sample(expect, None, "API error 529") if o == "!error" else routing_sample(expect, o)
        for o in observed
    ]
    return {
        "id": case_id,
        "skill": "alpha",
        "category": "positive" if expect else "near_miss",
        "prompt": f"prompt of {case_id}",
        "source": "alpha/evals/evals.json",
        "line": line,
        "expect": expect,
        "samples": samples,
    }


def behavioral_case(case_id: str, status: str, met: list[str], line: int = 5) -> dict:
    return {
        "id": case_id,
        "skill": "alpha",
        "source": "alpha/evals/evals.json",
        "line": line,
        "prompt": f"prompt of {case_id}",
        "status": status,
        "elapsed_s": 2.0,
        "tool_calls": 3,
        "turns": 4,
        "agent": {"tokens": {"input": 200, "output": 20}, "cost_usd": 0.002},
        "checks": [{"expectation": e, "passed": True} for e in met],
        "error": "the API answered 529" if status == "error" else None,
    }


def write_report(path: Path, command: str, cases: list[dict]) -> Path:
    path.write_text(json.dumps({"command": command, "cases": cases}), encoding="utf-8")
    return path


def lexical_case(case_id: str, expect: str | None, observed: str | None, line: int = 3) -> dict:
    """A case as `routing --engine lexical` reports it: one ranking, no samples."""
    passed = observed == expect
    return {
        "id": case_id,
        "skill": "alpha",
        "category": "positive" if expect else "near_miss",
        "prompt": f"prompt of {case_id}",
        "source": "alpha/evals/evals.json",
        "line": line,
        "expect": expect,
        "observed": observed,
        "verdict": "correct_trigger"
        if passed and expect
        else "true_negative"
        if passed
        else "missed_trigger",
        "passed": passed,
        "status": "pass" if passed else "fail",
        "error": None,
        "rank": 1,
    }


def write_lexical_report(path: Path, cases: list[dict]) -> Path:
    path.write_text(json.dumps({"command": "routing", "engine": "lexical", "cases": cases}), encoding="utf-8")
    return path
