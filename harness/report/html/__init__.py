"""A JSON report as one self-contained HTML page: its command's sections (SECTIONS) in the one shell."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.report.html import behavioral, compare, cost, findings, legs, logs, routing, shell, sweep, tune
from harness.report.html.common import Transcripts
from harness.report.html.header import status_word

Sections = Callable[[dict, Transcripts], list[str]]
SECTIONS: dict[str, Sections] = {
    "structural": findings.sections,
    "refs": findings.sections,
    "routing": routing.sections,
    "routing-matrix": legs.routing_sections,
    "behavioral": behavioral.sections,
    "behavioral-matrix": legs.behavioral_sections,
    "compare": compare.sections,
    "compare-matrix": legs.compare_sections,
    "cost": cost.sections,
    "tune": tune.sections,
    "sweep": sweep.sections,
}


def render(report: dict, transcripts: Transcripts | None = None, notes: Sequence[str] = ()) -> str:
    """The page of `report`; `transcripts`: its kept logs by case id (`<leg>/<id>` in a matrix report);
    `notes`: sentences shown under the header."""
    command = report["command"]
    parts = SECTIONS[command](report, transcripts or {})
    parts[1:1] = [f'<p class="notice">{shell.text(note)}</p>' for note in notes]  # under the header
    return shell.page(f"skillscope {command}: {status_word(report)}", [part for part in parts if part])


def logs_page(title: str, entries: Sequence[logs.Entry]) -> str:
    """The page of a --keep-logs folder read without its report: each case's transcripts."""
    return shell.page(title, logs.sections(title, entries))
