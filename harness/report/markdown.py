"""The markdown pieces every command's report shares: tables, their cells, and the one clip helper."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from harness.model import baseline
from harness.model.findings import Finding


def clip(value: object, limit: int) -> str:
    """Text shortened to one line of at most `limit` characters, not escaped: `table` escapes every
    cell itself, so a clipped value goes into a row as it is (escaping here too would double it)."""
    text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# What a markdown page would read as HTML: a prompt, an expectation or a judge's reason quoting a tag
# must show as text (GitHub sanitises step summaries, other readers of --summary may not).
HTML_SPECIALS = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def cell(value: object) -> str:
    """One table cell: single line, HTML and pipes escaped; only `table` calls it, once per value."""
    text = "" if value is None else " ".join(str(value).split())
    return text.translate(HTML_SPECIALS).replace("|", "\\|")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    # On first use: tabulate pulls in importlib.metadata, a third of a clean run's start-up.
    from tabulate import tabulate

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
        [(severity_label(f), f.location, f.rule, f.message) for f in findings],
    )


def severity_label(finding: Finding) -> str:
    """The severity as a reader must take it: a known or demoted finding says so."""
    if finding.baseline:
        return f"{finding.severity} (known)"
    return f"{finding.severity} (demoted)" if finding.demoted else finding.severity


def adoption_counts(result) -> str:
    """The headline's tail: known findings, and recorded ones that no longer occur (said on every
    format, the terminal's included, so a stale baseline entry is never silent)."""
    tail = f", {len(result.known)} known" if result.known else ""
    if result.fixed:
        count = len(result.fixed)
        tail += f"; {count} recorded finding(s) no longer occur: run `skillscope baseline --prune`"
    return tail


def adoption_lines(result) -> list[str]:
    """What the baseline and --warn changed, for the structural and refs reports; empty when nothing."""
    lines = []
    if result.known:
        lines.append(
            f"{len(result.known)} known finding(s) recorded in `{result.baseline_file}` are shown "
            "but do not fail."
        )
    if result.fixed:
        shown = ", ".join(f"`{e.get('rule')}` in {e.get('path')}" for e in result.fixed[:5])
        lines.append(
            f"{len(result.fixed)} recorded finding(s) no longer occur ({shown}): "
            "run `skillscope baseline --prune` to drop them."
        )
    if result.demoted_rules:
        lines.append(f"Demoted to warnings by --warn: {', '.join(f'`{r}`' for r in result.demoted_rules)}.")
    if getattr(result, "raised_rules", ()):
        lines.append(f"Raised to errors by --error: {', '.join(f'`{r}`' for r in result.raised_rules)}.")
    return [*lines, ""] if lines else []


def adoption_hint(result) -> str:
    """For a structural or refs run that failed with no baseline in force: the one line naming the way
    to adopt (`skillscope baseline`, `--warn RULES`); empty otherwise."""
    if result.passed or result.baseline_file:
        return ""
    return baseline.first_run_hint(result.errors)


def provisional_lines(graded: list[tuple], strict: bool) -> list[str]:
    """Provisional cases (trust_level: provisional) named apart, saying whether the gate counted them.
    `graded` holds (case, passed) pairs."""
    shown = [f"`{case.id}` ({'pass' if ok else 'not passing'})" for case, ok in graded if case.provisional]
    if not shown:
        return []
    if strict:
        how = "counted by the gate (--strict)"
    elif len(shown) == len(graded):
        how = "counted by the gate, since no stable case ran"
    else:
        how = "reported apart and not counted by the gate; --strict counts them"
    return [f"Provisional case(s), {how}: {', '.join(shown)}.", ""]


def spend_lines(spent: str, replayed: str | None, saved_usd: float | None) -> list[str]:
    """The footer of a paid run's report: what it spent now (`spent`, in words), and what the result
    cache gave back (`replayed`, a replays.summary), with what it would have cost again."""
    lines = [f"Spent now: {spent}."]
    if replayed:
        saved = f", saving ${saved_usd:.4f}" if saved_usd is not None else ""
        lines.append(f"{replayed}{saved}.")
    return lines
