"""A run's kept logs as one self-contained HTML page: a table of the cases, then each case with what
the run graded and its transcripts. No script, no external asset: it opens from a CI artifact."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from harness.printable import escaped
from harness.report.markdown import clip

PROMPT_WIDTH = 140  # of a prompt in the table of cases; the case's own section holds it whole
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .3em .6em; text-align: left; vertical-align: top; }
pre { background: #f6f8fa; padding: .8em; overflow-x: auto; white-space: pre-wrap; }
details { margin: 1em 0; } summary { cursor: pointer; font-weight: 600; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .error, .blocked { color: #9a6700; }
"""


@dataclass
class CaseView:
    """One case on the page: its id, the outcome its run gave it (or None), and titled blocks of text."""

    id: str
    outcome: str | None
    prompt: str | None = None
    head: list[str] = field(default_factory=list)
    sections: list[tuple[str, list[str]]] = field(default_factory=list)


def page(title: str, summary: Sequence[str], cases: Sequence[CaseView]) -> str:
    rows = "\n".join(
        f'<tr><td><a href="#{anchor(i)}">{text(case.id)}</a></td>'
        f'<td class="{text(case.outcome or "")}">{text(case.outcome or "not graded")}</td>'
        f"<td>{text(clip(case.prompt, PROMPT_WIDTH))}</td><td>{len(case.sections)}</td></tr>"
        for i, case in enumerate(cases)
    )
    blocks = "\n".join(case_block(i, case) for i, case in enumerate(cases))
    facts = "".join(f"<li>{text(line)}</li>" for line in summary)
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{text(title)}</title>'
        f"<style>{STYLE}</style></head>\n<body>\n<h1>{text(title)}</h1>\n<ul>{facts}</ul>\n"
        "<table><thead><tr><th>case</th><th>outcome</th><th>prompt</th><th>logs</th></tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody></table>\n{blocks}\n</body></html>\n"
    )


def case_block(index: int, case: CaseView) -> str:
    parts = [f'<details id="{anchor(index)}" open><summary>{text(case.id)}']
    if case.outcome:
        parts.append(f' <span class="{text(case.outcome)}">{text(case.outcome)}</span>')
    parts.append("</summary>")
    if case.head:
        parts.append(f"<pre>{text(chr(10).join(case.head))}</pre>")
    for title, lines in case.sections:
        parts.append(f"<h3>{text(title)}</h3><pre>{text(chr(10).join(lines))}</pre>")
    parts.append("</details>")
    return "".join(parts)


def anchor(index: int) -> str:
    return f"case-{index + 1}"  # ids are free text: an index is always a valid fragment


def text(value: str) -> str:
    """Markup-safe and terminal-safe: what an agent wrote can neither open a tag nor hide a character."""
    return escape(escaped(value), quote=True)
