"""What the reports of cases read alike (both routing engines, behavioral, compare): the listing notes,
where a case is written and its finding points, the command showing its transcript, its status."""

from __future__ import annotations

import re
import shlex

from harness.model import notes
from harness.model.dataset import located, origin_note
from harness.printable import clip
from harness.report.columns import Column

# The count an accuracy gate's reason opens with: `5/8 correct (accuracy 0.625) is ` or `8/8 correct; `.
GATE_COUNT = re.compile(r"(\d+)/(\d+) correct(?: \(accuracy [\d.]+\))?(?: is |; )")


def listing_notes(meta: dict) -> list[str]:
    """The notes on the room skills not shown in full and the catalog skills left out ("" for none)."""
    said = meta.get("notes") or []
    listing = next((note for note in said if note.startswith(notes.LISTING)), "")
    outside = next((note for note in said if notes.LEFT_OUT in note), "")
    return [listing, outside]


def where(case: dict) -> str:
    """`source:line` of a case, its source alone when no line is known, or the built-in set's name for
    one of skillscope's shared negatives (a file of the installed package, not of the repo)."""
    path, line = located(case["source"], case.get("line"))
    return "skillscope's built-in negatives" if path == "." else f"{path}:{line}" if line else path


PROMPT_CHARS = 120  # of a prompt in a case table; the JSON report (and the page's details) hold it whole
# The last columns of every case table: where the case is written, and its prompt on one line.
PLACE: list[Column] = [
    ("where", lambda case: where(case) if isinstance(case.get("source"), str) else ""),
    ("prompt", lambda case: clip(case.get("prompt") or "", PROMPT_CHARS)),
]


def at(case: dict, message: str) -> tuple[str, str, int | None]:
    """A finding's path, message and line for a case (a built-in shared negative's points at the repo)."""
    path, line = located(case["source"], case["line"])
    return path, message + origin_note(case["source"], case["id"]), line


def statuses(report: dict) -> dict[str, str]:
    """Each case's status word, which --verbose lists."""
    return {c["id"]: c["status"] for c in report["cases"]}


def gate_words(report: dict) -> str:
    """The gate's reason without the `N/M correct` the summary beside it gives already."""
    totals, reason = report["totals"], report["gate"]["reason"]
    count = GATE_COUNT.match(reason)
    if count is None or count.groups() != (str(totals["passed"]), str(totals["graded"])):
        return reason
    return reason[count.end() :]


def show_command(kept: str | None, case_id: str, replayed: bool = False) -> str:
    """`skillscope show <logs> <case>` for the logs a run kept (quoted to paste), else how to keep them;
    `replayed`: the case's every run came from the result cache, which keeps no transcript, so the kept
    folder holds none of this run's (at best an older run's, under the same name)."""
    shown = f"{shlex.quote(kept or 'DIR')} {shlex.quote(case_id)}"
    if replayed:
        keep = shlex.quote(kept or "DIR")
        return (
            f"replayed from the result cache, which keeps no transcript: run it again with --no-cache "
            f"--keep-logs {keep}, then skillscope show {shown}"
        )
    again = "" if kept else "run it again with --keep-logs DIR, then "
    return f"{again}skillscope show {shown}"


def from_cache(case: dict) -> bool:
    """Every run of a routing (its samples) or behavioral case came from the result cache."""
    samples = case.get("samples")
    if isinstance(samples, list) and samples:
        return all(s.get("cached") for s in samples)
    return bool(case.get("cached"))
