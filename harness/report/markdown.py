"""Markdown reports: a registry of one renderer per command, plus the table helper they share."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from tabulate import tabulate

from harness.model.findings import Finding

Renderer = Callable[[object], str]
RENDERERS: dict[str, Renderer] = {}


def register(command: str) -> Callable[[Renderer], Renderer]:
    def decorate(function: Renderer) -> Renderer:
        RENDERERS[command] = function
        return function

    return decorate


def render(result) -> str:
    return RENDERERS[result.command](result)


def cell(value: object, limit: int | None = None) -> str:
    """One table cell: single line, pipes escaped, optionally shortened."""
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    if limit and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    return tabulate(
        [[cell(v) for v in row] for row in rows],
        headers=list(headers),
        tablefmt="github",
        disable_numparse=True,
    )


def findings_table(findings: Sequence[Finding], when_none: str) -> str:
    """Every finding as a row, or `when_none` when there are none."""
    if not findings:
        return when_none
    return table(
        ["severity", "where", "rule", "what to fix"],
        [(f.severity, f.location, f.rule, f.message) for f in findings],
    )
