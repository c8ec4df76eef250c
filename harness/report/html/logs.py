"""The page of kept agent logs read without their run's report: one row a case, its transcripts
collapsed under it, searchable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.report.html.common import kept_logs, word
from harness.report.html.shell import section, text
from harness.report.html.table import Row, cases_table


@dataclass
class Entry:
    """A case's logs: its id, what its run graded it (or None), and (title, lines) per log."""

    id: str
    outcome: str | None = None
    logs: list[tuple[str, Sequence[str]]] = field(default_factory=list)


def sections(title: str, entries: Sequence[Entry]) -> list[str]:
    rows = [
        Row([text(e.id), word(e.outcome), text(str(len(e.logs)))], {}, kept_logs(e.logs)) for e in entries
    ]
    table = cases_table("cases", ["case", "outcome", "logs"], rows, [], numeric=(2,))
    return [f"<header><h1>{text(title)}</h1></header>", section(f"Cases ({len(rows)})", table)]
