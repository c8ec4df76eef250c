"""A behavioral run's reports: markdown, the headline and statuses of the text format, located findings
(annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.behavioral.result import BehavioralResult
from harness.envelope import ERROR, FAIL, PASS
from harness.model import findings as finding
from harness.model.findings import Finding
from harness.report.junit import JUnitCase, halt_cases
from harness.report.markdown import clip, provisional_lines, table
from harness.report.text import halt_note
from harness.spend import NOT_RUN


def markdown(result: BehavioralResult) -> str:
    data = result.to_json()
    meta, totals = result.meta, data["totals"]
    lines = ["## Skill behavioral", ""]
    lines.append(
        f"**{totals['passed']}/{totals['cases']} cases passed** ({totals['checks_passed']}/"
        f"{totals['checks']} expectations met; {totals['failed']} failed, {totals['errors']} "
        f"errored) on `{meta.model or 'default model'}` (effort `{meta.effort or 'default'}`), "
        f"judged by `{meta.judge_model or 'default model'}` on {meta.judge_agent} "
        f"{meta.judge_version or '(not started)'}, "
        f"agent {meta.agent} {meta.agent_version or '(not started)'}."
    )
    lines.append("")
    if halted := meta.halt.sentence():
        lines += [f"> **{halted}**", ""]
    if meta.timed_out:
        lines += ["> **The command's --timeout ran out**: cases not finished are reported as errors.", ""]
    for note in meta.notes:
        lines += [f"> {note}", ""]
    lines += provisional_lines([(c.case, c.status == "pass") for c in result.cases], meta.strict)
    lines.append(
        table(
            ["skill", "cases", "passed", "failed", "errored", "expectations met"],
            [
                (
                    name,
                    v["cases"],
                    v["passed"],
                    v["failed"],
                    v["errors"],
                    f"{v['checks_passed']}/{v['checks']}",
                )
                for name, v in data["per_skill"].items()
            ],
        )
    )
    lines += ["", "### Unmet expectations", ""]
    unmet = [(c.case, check) for c in result.cases if c.status == FAIL for check in c.unmet]
    if unmet:
        lines.append(
            table(
                ["case", "where", "kind", "expectation", "detail"],
                [
                    (case.id, where(case), check.kind, clip(check.expectation, 120), clip(check.detail, 200))
                    for case, check in unmet
                ],
            )
        )
    else:
        lines.append("None. Every graded case met every expectation.")
    errored = [c for c in result.cases if c.status in (ERROR, NOT_RUN)]
    if errored:
        lines += [
            "",
            "### Errored cases (not graded)",
            "",
            "The run could not be graded (timeout, API error, hook crash, no valid verdict), or never "
            "started (not-run: the run reached its --max-run-usd): neither a pass nor a fail.",
            "",
        ]
        lines.append(
            table(
                ["case", "where", "error"], [(c.case.id, where(c.case), clip(c.error, 300)) for c in errored]
            )
        )
    outside = [c for c in result.cases if c.isolation]
    if outside:
        lines += [
            "",
            "### Outside the workspace",
            "",
            "File paths or Bash working directories in these traces lie outside the case's workspace"
            + (" (--strict-isolation made them errors)." if meta.strict_isolation else "."),
            "",
        ]
        lines.append(
            table(
                ["case", "where"],
                [(c.case.id, clip("; ".join(o.describe() for o in c.isolation), 300)) for c in outside],
            )
        )
    lines += ["", "<details><summary>All cases</summary>", ""]
    lines.append(
        table(
            ["case", "skill", "status", "met", "skill fired", "stop", "time"],
            [
                (
                    c.case.id,
                    c.case.skill,
                    c.status,
                    _met(c),
                    "—" if c.status == ERROR and not c.activated else ", ".join(c.activated) or "no",
                    c.stop_reason or "-",
                    f"{c.elapsed_s:.1f}s",
                )
                for c in result.cases
            ],
        )
    )
    lines += ["", "</details>", ""]
    lines.append(
        f"Spent now: agent {_spend(totals['agent'])}; judge {_spend(totals['judge'])}. Case time "
        f"{totals['agent_time_s']:.1f}s."
    )
    if totals["cached"]:
        saved = f", saving ${totals['cost_saved_usd']:.4f}" if totals["cost_saved_usd"] is not None else ""
        lines.append(f"Reused from the result cache: {totals['cached']} case(s){saved}.")
    return "\n".join(lines) + "\n"


def _met(case) -> str:
    return f"{sum(1 for k in case.checks if k.passed)}/{len(case.checks)}"


def _spend(spend: dict) -> str:
    cost = f", ${spend['cost_usd']:.4f}" if spend["cost_usd"] is not None else ""
    return f"{spend['calls']} call(s), {spend['input_tokens']} tokens in, {spend['output_tokens']} out{cost}"


def headline(result: BehavioralResult) -> str:
    counts = result.counts()
    return (
        f"{counts['passed']}/{counts['cases']} case(s) passed; {counts['failed']} failed, "
        f"{counts['errors']} errored"
    ) + halt_note(result.meta.halt)


def statuses(result: BehavioralResult) -> dict[str, str]:
    return {c.case.id: c.status for c in result.cases}


def findings(result: BehavioralResult) -> list[Finding]:
    """Each case that did not pass, at its line in the dataset, with what it did not meet."""
    out = []
    for c in result.cases:
        if c.status == PASS:
            continue
        if c.status == NOT_RUN:
            message = f"behavioral case `{c.case.id}` did not run: {c.error}"
        elif c.status == ERROR:
            message = f"behavioral case `{c.case.id}` errored (not graded): {c.error}"
        else:
            unmet = "; ".join(f"{check.kind} `{check.expectation}`: {check.detail}" for check in c.unmet)
            message = (
                f"behavioral case `{c.case.id}`: {c.summary()} for the prompt {c.case.prompt!r}. "
                f"Unmet: {unmet}; read what the agent did (--keep-logs), then the skill's instructions"
            )
        out.append(finding.error("behavioral", c.case.source, message, c.case.line))
    return out


def junit(result: BehavioralResult) -> list[JUnitCase]:
    return [
        JUnitCase(
            classname=f"behavioral.{c.case.skill}",
            name=c.case.id,
            time_s=c.elapsed_s,
            error=c.error if c.status in (ERROR, NOT_RUN) else None,
            failure=f"prompt: {c.case.prompt}\n"
            + "\n".join(f"{k.kind}: {k.expectation} -- {k.detail}" for k in c.unmet)
            if c.status == FAIL
            else None,
            file=c.case.source,
            line=c.case.line,
            output="\n".join(
                f"[{'PASS' if k.passed else 'FAIL'}] {k.kind}: {k.expectation}" for k in c.checks
            )
            or None,
        )
        for c in result.cases
    ] + halt_cases("behavioral", result.meta.halt)


def where(case) -> str:
    return f"{case.source}:{case.line}" if case.line else case.source


def _check_line(check) -> str:
    return f"[{'PASS' if check.passed else 'FAIL'}] {check.kind}: {check.expectation}"
