"""A behavioral run's reports: markdown, the headline and statuses of the text format, located findings
(annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.agent.families import UNKNOWN, family_of
from harness.behavioral.result import BehavioralResult
from harness.model import findings as finding
from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS
from harness.model.findings import Finding
from harness.paid.sandbox import TURNED_OFF
from harness.paid.spend import NOT_RUN
from harness.report import quarantined, replays
from harness.report.junit import JUnitCase, halt_cases
from harness.report.markdown import clip, provisional_lines, spend_lines, table
from harness.report.reading import show_command
from harness.report.text import halt_note


def markdown(result: BehavioralResult) -> str:
    data = result.to_json()
    meta, totals = result.meta, data["totals"]
    lines = ["## Skill behavioral", ""]
    lines.append(
        f"**{totals['passed']}/{totals['cases']} cases passed** ({totals['checks_passed']}/"
        f"{totals['checks']} expectations met; {totals['failed']} failed, {totals['errors']} "
        f"errored{_blocked(totals)}) on `{meta.model or 'default model'}` "
        f"(effort `{meta.effort or 'default'}`), "
        f"judged by `{meta.judge_model or 'default model'}` ({meta.judge_family} family) "
        f"on {meta.judge_agent} "
        f"{meta.judge_version or '(not started)'}, "
        f"agent {meta.agent} {meta.agent_version or '(not started)'}."
    )
    lines.append("")
    if same := same_family(meta):
        lines += [f"> {same}", ""]
    if halted := meta.halt.sentence():
        lines += [f"> **{halted}**", ""]
    if meta.timed_out:
        lines += ["> **The command's --timeout ran out**: cases not finished are reported as errors.", ""]
    for note in meta.notes:
        lines += [f"> {note}", ""]
    sandboxed = meta.sandbox.sentence() or (None if meta.sandbox.requested else TURNED_OFF)
    if sandboxed:
        lines += [f"> {sandboxed}", ""]
    lines += provisional_lines([(c.case, c.status == "pass") for c in result.cases], meta.strict)
    lines += quarantined.markdown_lines(meta.quarantine, {c.case.id: c.status for c in result.cases})
    lines.append(
        table(
            ["skill", "cases", "passed", "failed", "errored", "blocked", "expectations met"],
            [
                (
                    name,
                    v["cases"],
                    v["passed"],
                    v["failed"],
                    v["errors"],
                    v["blocked"],
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
    lines += uncited_lines(result)
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
    blocked = [c for c in result.cases if c.status == BLOCKED]
    if blocked:
        lines += [
            "",
            "### Blocked cases (not graded)",
            "",
            "What the agent did cannot be trusted as evidence, so these cases are neither a pass nor a "
            "fail, and the run does not pass. `outside-workspace`: it worked outside its workspace in "
            "every attempt, each in a fresh workspace.",
            "",
        ]
        lines.append(
            table(
                ["case", "where", "reason", "attempts"],
                [(c.case.id, where(c.case), c.blocked, clip(attempts_text(c), 300)) for c in blocked],
            )
        )
    again = [c for c in result.cases if c.retried]
    if again:
        lines += [
            "",
            "### Retried cases",
            "",
            "The agent CLI failed on its own in the first attempt (not the skill's doing), so the case "
            "ran once more in a fresh workspace and session; the status is the second attempt's.",
            "",
        ]
        lines.append(table(["case", "why", "status"], [(c.case.id, c.retried, c.status) for c in again]))
    outside = [c for c in result.cases if c.isolation or c.left_workspace_before]
    if outside:
        lines += [
            "",
            "### Outside the workspace",
            "",
            "Tool paths, paths named by commands, or Bash working directories in these traces lie outside "
            "the case's workspace"
            + (
                ": the attempt was blocked and run once more in a fresh workspace."
                if meta.strict_isolation
                else " (graded anyway: --no-strict-isolation)."
            ),
            "",
        ]
        lines.append(table(["case", "attempts"], [(c.case.id, clip(attempts_text(c), 300)) for c in outside]))
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
    spent = (
        f"agent {_spend(totals['agent'])}; judge {_spend(totals['judge'])}. Case time "
        f"{totals['agent_time_s']:.1f}s"
    )
    lines += spend_lines(spent, replayed(result), totals["cost_saved_usd"])
    return "\n".join(lines) + "\n"


def uncited_lines(result: BehavioralResult) -> list[str]:
    """The MUST statements the judge passed without citing evidence: counted as met unless
    --require-evidence, and said either way."""
    uncited = result.uncited()
    if not uncited:
        return []
    how = (
        "each makes its case an error (--require-evidence)"
        if result.meta.require_evidence
        else "each counts as met; --require-evidence makes such a case an error"
    )
    lines = ["", "### Passed without evidence", ""]
    lines.append(
        f"The judge passed these statements the agent MUST have done without citing any evidence: {how}."
    )
    lines.append("")
    lines.append(
        table(
            ["case", "where", "statement"],
            [(c.case.id, where(c.case), clip(k.expectation, 160)) for c, k in uncited],
        )
    )
    return lines


def attempts_text(case) -> str:
    """Each attempt's outcome and the paths it left the workspace for, in order."""
    if not case.attempts:
        return "; ".join(o.describe() for o in case.isolation)
    parts = []
    for attempt in case.attempts:
        word = f"{attempt.status} ({attempt.blocked})" if attempt.blocked else attempt.status
        paths = "; ".join(o.describe() for o in attempt.isolation)
        parts.append(f"attempt {attempt.number}: {word}" + (f", {paths}" if paths else ""))
    return " / ".join(parts)


def _blocked(counts: dict) -> str:
    return f", {counts['blocked']} blocked" if counts["blocked"] else ""


def _met(case) -> str:
    return f"{sum(1 for k in case.checks if k.passed)}/{len(case.checks)}"


def _spend(spend: dict) -> str:
    cost = f", ${spend['cost_usd']:.4f}" if spend["cost_usd"] is not None else ""
    return f"{spend['calls']} call(s), {spend['input_tokens']} tokens in, {spend['output_tokens']} out{cost}"


def replayed(result: BehavioralResult) -> str | None:
    """How many cases the result cache gave back, and which runs made them."""
    return replays.summary([c.cached_from for c in result.cases if c.cached], len(result.cases), "case")


def judge_words(agent: str, model: str | None) -> str:
    """Who judged, in a few words: the model (its family) on which agent CLI."""
    return f"{model or 'its default model'} ({family_of(agent, model)} family) on {agent}"


def same_family(meta) -> str | None:
    """The advice when the judge is of the agent's own family (a known one): judge with another."""
    if meta.judge_family == UNKNOWN or meta.judge_family != meta.agent_family:
        return None
    return (
        f"The judge is of the agent's own model family ({meta.judge_family}): it may share the agent's "
        "blind spots; pass --judge-model (and --judge-agent) of another family to grade independently."
    )


def headline(result: BehavioralResult) -> str:
    counts = result.counts()
    from_cache = replayed(result)
    again = sum(1 for c in result.cases if c.retried)
    retries = f"; {again} retried after its agent CLI failed on its own" if again else ""
    bare = len(result.uncited())
    uncited = f"; {bare} MUST statement(s) passed without evidence" if bare else ""
    return (
        (
            f"{counts['passed']}/{counts['cases']} case(s) passed; {counts['failed']} failed, "
            f"{counts['errors']} errored{_blocked(counts)}"
            + uncited
            + retries
            + (f"; {from_cache}" if from_cache else "")
        )
        + f"; judged by {judge_words(result.meta.judge_agent, result.meta.judge_model)}"
        + f"; {result.meta.sandbox.headline()}"
        + quarantined.headline_note(result.meta.quarantine)
        + halt_note(result.meta.halt)
    )


def statuses(result: BehavioralResult) -> dict[str, str]:
    return {c.case.id: c.status for c in result.cases}


def findings(result: BehavioralResult) -> list[Finding]:
    """Each case that did not pass, at its line in the dataset, with what it did not meet; a case
    graded although it left its workspace (--no-strict-isolation) is a warning."""
    out = []
    held = quarantined.by_id(result.meta.quarantine)
    for c in result.cases:
        if c.isolation and c.blocked is None:
            paths = "; ".join(o.describe() for o in c.isolation[:3])
            message = (
                f"behavioral case `{c.case.id}`: the agent worked outside its workspace ({paths}); graded "
                "anyway because --no-strict-isolation is set"
            )
            out.append(finding.warning("behavioral", c.case.source, message, c.case.line))
        if c.retried:
            message = f"behavioral case `{c.case.id}` was run once more in a fresh workspace: {c.retried}"
            out.append(finding.warning("behavioral", c.case.source, message, c.case.line))
        if c.status in (PASS, FAIL):  # an error already says why (--require-evidence)
            read = show_command(result.meta.keep_logs, c.case.id)
            for check in (k for k in c.checks if k.no_evidence):
                message = (
                    f"behavioral case `{c.case.id}`: the judge passed {check.expectation!r}, which the agent "
                    "MUST have done, without citing any evidence; it counts as met (--require-evidence "
                    f"makes it an error): read what the agent did ({read})"
                )
                out.append(finding.warning("behavioral", c.case.source, message, c.case.line))
        if c.status == PASS:
            continue
        if c.status == BLOCKED:
            message = f"behavioral case `{c.case.id}` is blocked ({c.blocked}, not graded): {c.error}"
        elif c.status == NOT_RUN:
            message = f"behavioral case `{c.case.id}` did not run: {c.error}"
        elif c.status == ERROR:
            message = f"behavioral case `{c.case.id}` errored (not graded): {c.error}"
        else:
            unmet = "; ".join(f"{check.kind} `{check.expectation}`: {check.detail}" for check in c.unmet)
            read = show_command(result.meta.keep_logs, c.case.id)
            message = (
                f"behavioral case `{c.case.id}`: {c.summary()} for the prompt {c.case.prompt!r}. "
                f"Unmet: {unmet}; read what the agent did ({read}), then the skill's instructions"
            )
        failed = finding.error("behavioral", c.case.source, message, c.case.line)
        out.append(quarantined.held(failed, held.get(c.case.id)))
    return out


def junit(result: BehavioralResult) -> list[JUnitCase]:
    held = quarantined.by_id(result.meta.quarantine)
    cases = [
        JUnitCase(
            classname=f"behavioral.{c.case.skill}",
            name=c.case.id,
            time_s=c.elapsed_s,
            error=_junit_error(c),
            failure=f"prompt: {c.case.prompt}\n"
            + "\n".join(f"{k.kind}: {k.expectation} -- {k.detail}" for k in c.unmet)
            if c.status == FAIL
            else None,
            file=c.case.source,
            line=c.case.line,
            output="\n".join(
                [_check_line(k) for k in c.checks]
                + ([replays.sample_line(c.cached_from)] if c.cached else [])
                + ([f"retried once, fresh: {c.retried}"] if c.retried else [])
            )
            or None,
        )
        for c in result.cases
    ]
    shown = [quarantined.junit_case(c, held.get(c.name)) for c in cases]
    return shown + halt_cases("behavioral", result.meta.halt)


def _junit_error(case) -> str | None:
    """Blocked cases are errors to a CI test table: they must not show as passed nor as skipped."""
    if case.status == BLOCKED:
        return f"blocked ({case.blocked}): {case.error}\n{attempts_text(case)}"
    return case.error if case.status in (ERROR, NOT_RUN) else None


def where(case) -> str:
    return f"{case.source}:{case.line}" if case.line else case.source


def _check_line(check) -> str:
    verdict = ("PASS, no evidence cited" if check.no_evidence else "PASS") if check.passed else "FAIL"
    return f"[{verdict}] {check.kind}: {check.expectation}"
