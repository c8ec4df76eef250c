"""The free graders of a Claude Code plugin eval suite, scored by us on any agent's run: `regex` over the
last message, the trace or the files the run produced; `tool_used` counts and `tool_order`, with the
suite's Claude tool names matched through each runtime's declared tools; `file_exists` as a glob over
the workspace diff. Each grader is one Check; `weighted_score` is the suite's own per-case score."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from harness.agent import Trace
from harness.agent.tools import input_text, matches
from harness.behavioral.evidence import Passage
from harness.behavioral.scorers import Check, normalise
from harness.behavioral.snapshot import Changes
from harness.files import UnreadableFile, read_text
from harness.model.dataset import Grader

KIND = "host_grader"
FILE_LIMIT = 1024 * 1024  # a produced file read for a `files` regex


def score(
    graders: list[Grader], trace: Trace, did: list[Passage], changes: Changes, workspace: Path
) -> list[Check]:
    """A Check per free grader; `llm` graders are judged with the case's other statements."""
    return [_check(g, trace, did, changes, workspace) for g in graders if g.kind != "llm"]


def weighted_score(graders: list[Grader], checks: list[Check]) -> float | None:
    """Σ weight of the passed graders / Σ weight of all, as the suite scores a run; None without graders.
    Our pass/fail stays all-or-nothing; this number is reported beside it."""
    passed = {c.expectation for c in checks if c.kind in (KIND, "expected_behavior") and c.passed}
    total = sum(g.weight for g in graders)
    return None if not graders else sum(g.weight for g in graders if label(g) in passed) / total


def label(grader: Grader) -> str:
    """What the grader's Check names: an llm grader's statement as the judge reports it."""
    if grader.kind == "llm":
        return str(grader.spec["criteria"]).strip()
    return f"{grader.name} ({grader.kind}, weight {grader.weight:g})"


def _check(grader: Grader, trace: Trace, did: list[Passage], changes: Changes, workspace: Path) -> Check:
    spec = grader.spec
    if grader.kind == "regex":
        passed, detail = _regex(spec, trace, did, changes, workspace)
    elif grader.kind == "tool_used":
        passed, detail = _tool_used(spec, trace)
    elif grader.kind == "tool_order":
        passed, detail = _tool_order(spec, trace)
    else:
        passed, detail = _file_exists(spec, changes)
    return Check(KIND, label(grader), passed, detail)


def _regex(
    spec: dict[str, Any], trace: Trace, did: list[Passage], changes: Changes, workspace: Path
) -> tuple[bool, str]:
    from harness.model.pluginsuite import COUNT, python_flags  # a plugin suite's reader, only for its graders

    target = spec.get("target", "last_message")
    flags, _ = python_flags(spec.get("flags"))
    pattern = re.compile(spec["pattern"], flags)
    if target == "trace":
        text = "\n".join(p.text for p in did)
    elif target == "files":
        text = "\n".join(_produced_text(changes, workspace))
    else:
        text = trace.final_message or ""
    found = len(pattern.findall(text))
    match = spec.get("match", "contains")
    count = COUNT.fullmatch(match)
    if count:
        want = int(count.group(1))
        return found == want, f"{found} match(es) in the {target}, expected exactly {want}"
    if match == "not_contains":
        return found == 0, f"{found} match(es) in the {target}, expected none"
    return found > 0, f"{found} match(es) in the {target}, expected at least one"


def _produced_text(changes: Changes, workspace: Path) -> list[str]:
    out = []
    for rel in changes.produced:
        try:
            out.append(read_text(workspace / rel, FILE_LIMIT))
        except UnreadableFile:
            continue  # a binary or oversized file holds no text a pattern is written for
    return out


def _calls(trace: Trace, wanted: object) -> list[int]:
    """Indexes of the calls a `tool` (a name or {tool, input_match}) names."""
    tool, pattern = (
        (wanted.get("tool"), wanted.get("input_match")) if isinstance(wanted, dict) else (wanted, None)
    )
    hits = []
    for index, call in enumerate(trace.tool_calls):
        named = isinstance(tool, str) and matches(tool, call)
        if named and (not isinstance(pattern, str) or re.search(pattern, input_text(call))):
            hits.append(index)
    return hits


def _tool_used(spec: dict[str, Any], trace: Trace) -> tuple[bool, str]:
    found = len(_calls(trace, {"tool": spec["tool"], "input_match": spec.get("input_match")}))
    low, high = spec.get("min", 1), spec.get("max")
    bounds = f"{low}..{'any' if high is None else high}"
    return low <= found and (
        high is None or found <= high
    ), f"{spec['tool']} called {found}x (expected {bounds})"


def _tool_order(spec: dict[str, Any], trace: Trace) -> tuple[bool, str]:
    before, after = _calls(trace, spec["before"]), _calls(trace, spec["after"])
    if not before or not after:
        missing = "before" if not before else "after"
        return False, f"no call matches `{missing}`"
    if before[0] < after[0]:
        return True, f"call {before[0] + 1} comes before call {after[0] + 1}"
    return (
        False,
        f"the first `after` call ({after[0] + 1}) comes before the first `before` call ({before[0] + 1})",
    )


def _file_exists(spec: dict[str, Any], changes: Changes) -> tuple[bool, str]:
    pattern = normalise(str(spec["path"]))
    compiled = glob_regex(pattern)
    hits = [p for p in changes.produced if compiled.fullmatch(p)]
    if hits:
        return True, f"the run produced {', '.join(hits[:3])}"
    return False, f"no file the run created or changed matches {pattern}"


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A workspace-relative glob as a regex: `**/` spans any folders (none too), `*` and `?` stay
    within one name."""
    out, index = "", 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out, index = out + "(?:.*/)?", index + 3
        elif pattern.startswith("**", index):
            out, index = out + ".*", index + 2
        elif pattern[index] == "*":
            out, index = out + "[^/]*", index + 1
        elif pattern[index] == "?":
            out, index = out + "[^/]", index + 1
        else:
            out, index = out + re.escape(pattern[index]), index + 1
    return re.compile(out)
