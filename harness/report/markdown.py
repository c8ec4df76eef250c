"""The markdown pieces every command's report shares: tables (`table` escapes every cell), sections, the
findings table, and what the baseline and --warn changed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from harness.model import baseline
from harness.model.envelope import PASS, Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import columns
from harness.report.cases import where
from harness.report.columns import Column
from harness.report.format import dollars

# A step summary holds 1 MiB: a table stops here, and says how many more rows the JSON report holds.
ROWS_SHOWN = 200
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


def case_table(columns_of: Sequence[Column], cases: Sequence[object]) -> str:
    """A table of every case, cut at ROWS_SHOWN rows with a line saying how many more the report holds."""
    drawn = table(*columns.drawn(columns_of, cases[:ROWS_SHOWN]))
    return drawn + more_in_report(len(cases))


def more_in_report(count: int) -> str:
    return f"\n\n{count - ROWS_SHOWN} more in the JSON report." if count > ROWS_SHOWN else ""


def section(
    heading: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    said: str = "",
    none: str | None = "",
) -> list[str]:
    """`### heading` after a blank line, what it lists (`said`), then its table, cut at ROWS_SHOWN rows.
    Without rows: `none` in the table's place, no section when `none` is empty, the bare table when it
    is None."""
    if not rows and none == "":
        return []
    if not rows and none is not None:
        return titled(heading, none, said)
    return titled(heading, table(headers, rows[:ROWS_SHOWN]) + more_in_report(len(rows)), said)


def titled(heading: str, body: str, said: str = "") -> list[str]:
    """`body` under `### heading`, after a blank line, with what it lists (`said`) above it."""
    return ["", f"### {heading}", "", *([said, ""] if said else []), body]


def verdict_head(heading: str, report: dict, headline: str) -> list[str]:
    """`## heading`, then the verdict in bold before the run's headline."""
    verdict = "passed" if report["passed"] else "failed"
    return [f"## {heading}", "", f"**{verdict}**: {headline}.", ""]


def gate_line(passed: bool, reason: str) -> str:
    return f"Gate: **{'passed' if passed else 'failed'}**: {reason}."


def collapsed(summary: str, body: str) -> list[str]:
    """`body` (a table) behind a closed <details> whose summary is `summary`."""
    return ["", f"<details><summary>{summary}</summary>", "", body, "", "</details>", ""]


def halted(meta: dict) -> list[str]:
    """Why a paid run stopped before its end, in bold, when it did."""
    sentence = Halt.of(meta).sentence()
    return [f"**{sentence}**"] if sentence else []


def quoted(said: Iterable[str]) -> list[str]:
    """Each of `said` as a `> ` quote of its own: the notes above a report's tables."""
    return [line for text in said for line in (f"> {text}", "")]


def timed_out(meta: dict) -> list[str]:
    """The warning of a paid run whose --timeout ran out, when it did."""
    ran_out = "**The command's --timeout ran out**: cases not finished are reported as errors."
    return [ran_out] if meta["timed_out"] else []


def runs_on(meta: dict) -> str:
    """The model and effort a paid run asked its agent for, in words."""
    return f"`{meta['model'] or 'default model'}` (effort `{meta['effort'] or 'default'}`)"


def agent_words(meta: dict) -> str:
    """A paid run's agent CLI and its version, or that it never started."""
    return f"{meta['agent']} {meta['agent_version'] or '(not started)'}"


def errored_section(cases: Sequence[dict], said: str = "") -> list[str]:
    """The cases (of a routing or behavioral run) that could not be graded, with their error."""
    rows = [(c["id"], where(c), clip(c["error"], 300)) for c in cases]
    return section("Errored cases (not graded)", ["case", "where", "error"], rows, said)


def retried_section(cases: Sequence[dict], outcome: str, said: str) -> list[str]:
    """The cases run once more after their agent CLI failed on its own, with the `outcome` they got."""
    rows = [(c["id"], c["retried"], c[outcome]) for c in cases if c["retried"]]
    return section("Retried cases", ["case", "why", outcome], rows, said)


def retried_note(cases: Sequence[dict]) -> str:
    """The headline's count of the cases run once more, when any were."""
    again = sum(1 for c in cases if c["retried"])
    return f"{again} retried after its agent CLI failed on its own" if again else ""


def clauses(*said: str | None) -> str:
    """Each clause of a headline's tail that says something, each after `; `."""
    return "".join(f"; {clause}" for clause in said if clause)


def findings_table(findings: Sequence[Finding], when_none: str) -> str:
    """Every finding as a row, or `when_none` when there are none."""
    return table(columns.heads(FINDINGS), columns.rows(FINDINGS, findings)) if findings else when_none


def severity_label(finding: Finding) -> str:
    """The severity as a reader must take it: a known or demoted finding says so."""
    if finding.baseline:
        return f"{finding.severity} (known)"
    return f"{finding.severity} (demoted)" if finding.demoted else finding.severity


# The findings table (structural, refs, a lexical run's vocabulary gaps, a sweep), in both forms.
FINDINGS: list[Column] = [
    ("severity", severity_label),
    ("where", lambda finding: finding.location),
    ("rule", lambda finding: finding.rule),
    ("what to fix", lambda finding: finding.message),
]


def findings_of(report: dict) -> list[Finding]:
    """The findings a structural or refs report holds."""
    return [Finding.from_dict(f) for f in report["findings"]]


def adoption_counts(report: dict) -> str:
    """The headline's tail: known findings, and recorded ones that no longer occur (never silent)."""
    adopted = report["baseline"]
    tail = f", {adopted['known']} known" if adopted["known"] else ""
    if adopted["fixed"]:
        count = len(adopted["fixed"])
        tail += f"; {count} recorded finding(s) no longer occur: run `skillscope baseline --prune`"
    return tail


def adoption_lines(report: dict) -> list[str]:
    """What the baseline and --warn changed, for the structural and refs reports; empty when nothing."""
    adopted = report["baseline"]
    lines = []
    if adopted["known"]:
        lines.append(
            f"{adopted['known']} known finding(s) recorded in `{adopted['file']}` are shown but do not fail."
        )
    if adopted["fixed"]:
        shown = ", ".join(f"`{e.get('rule')}` in {e.get('path')}" for e in adopted["fixed"][:5])
        lines.append(
            f"{len(adopted['fixed'])} recorded finding(s) no longer occur ({shown}): "
            "run `skillscope baseline --prune` to drop them."
        )
    if adopted["demoted_rules"]:
        demoted = ", ".join(f"`{r}`" for r in adopted["demoted_rules"])
        lines.append(f"Demoted to warnings by --warn: {demoted}.")
    if adopted.get("raised_rules"):
        raised = ", ".join(f"`{r}`" for r in adopted["raised_rules"])
        lines.append(f"Raised to errors by --error: {raised}.")
    return [*lines, ""] if lines else []


def findings_page(
    heading: str, report: dict, headline: str, said: list[str], when_none: str, after: list[str]
) -> str:
    """A structural or refs report: its verdict, `said` (what it checked), what the baseline and --warn
    changed, how to adopt, every finding (`when_none` without any), then `after`."""
    lines = [*verdict_head(heading, report, headline), *said, *adoption_lines(report)]
    hint = adoption_hint(report)
    lines += [hint, ""] if hint else []
    lines += [findings_table(findings_of(report), when_none), *after]
    return "\n".join(lines) + "\n"


def adoption_hint(report: dict) -> str:
    """On a failed structural or refs run without a baseline: the line naming the ways to adopt."""
    if report["passed"] or report["baseline"]["file"]:
        return ""
    return baseline.first_run_hint(f for f in findings_of(report) if f.fails)


def provisional_lines(cases: list[dict], strict: bool) -> list[str]:
    """Provisional cases named apart, saying whether the gate counted them."""
    shown = [
        f"`{case['id']}` ({'pass' if case['status'] == PASS else 'not passing'})"
        for case in cases
        if case.get("trust_level") == "provisional"
    ]
    return provisional_named(shown, len(cases), strict)


def provisional_named(shown: list[str], cases: int, strict: bool, counter: str = "gate") -> list[str]:
    """The line naming the provisional cases `shown` (of `cases`) and whether `counter` counted them."""
    if not shown:
        return []
    if strict:
        how = f"counted by the {counter} (--strict)"
    elif len(shown) == cases:
        how = f"counted by the {counter}, since no stable case ran"
    else:
        how = f"reported apart and not counted by the {counter}; --strict counts them"
    return [f"Provisional case(s), {how}: {', '.join(shown)}.", ""]


def spend_lines(spent: str, replayed: str | None, saved_usd: float | None) -> list[str]:
    """A paid run's footer: what it spent now, and what the result cache gave back and saved."""
    lines = [f"Spent now: {spent}."]
    if replayed:
        saved = f", saving {dollars(saved_usd)}" if saved_usd is not None else ""
        lines.append(f"{replayed}{saved}.")
    return lines
