"""Markdown for the reference check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.report.markdown import findings_table, register, table

if TYPE_CHECKING:  # the result module imports the report package, so only type checkers import it
    from harness.refs_result import RefsResult

USES_SHOWN = 5


@register("refs")
def render(result: RefsResult) -> str:
    totals = result.totals()
    verdict = "passed" if result.passed else "failed"
    lines = [
        "## Reference check",
        "",
        f"**{verdict}**: {totals['files']} markdown file(s), {totals['internal']} internal and "
        f"{totals['external']} external reference(s); {totals['errors']} error(s), "
        f"{totals['warnings']} warning(s).",
        "",
    ]
    if result.external_checked:
        lines += [
            f"External: {totals['urls']} distinct URL(s): {totals['reachable']} reachable, "
            f"{totals['cached']} from the cache, {totals['excluded']} excluded, "
            f"{totals['broken'] + totals['unchecked']} failing.",
            "",
        ]
    else:
        lines += ["External URLs were not checked (`--no-external`).", ""]
    lines.append(findings_table(result.findings, "Every reference resolves."))
    if result.broken:
        lines += [
            "",
            "### Failing URLs",
            "",
            table(["URL", "why", "used at"], [(u.url, u.detail, used_at(u.uses)) for u in result.broken]),
        ]
    return "\n".join(lines) + "\n"


def used_at(uses) -> str:
    shown = ", ".join(str(u) for u in uses[:USES_SHOWN])
    return shown + (f" and {len(uses) - USES_SHOWN} more" if len(uses) > USES_SHOWN else "")
