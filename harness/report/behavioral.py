"""A behavioral run's reports, from its JSON report: markdown, the headline and statuses of the text
format, located findings (annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.model import findings as finding
from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import markdown as md
from harness.report import quarantined, replays
from harness.report.format import seconds
from harness.report.reading import show_command
from harness.report.routing_common import statuses, where
from harness.report.text import halt_note

if TYPE_CHECKING:  # JUnit is rendered where --junit asks for it
    from harness.report.junit import JUnitCase

NOT_RUN = "not-run"
PER_SKILL = ("cases", "passed", "failed", "errors", "blocked")  # the counts of a skill's markdown row
UNKNOWN_FAMILY = "unknown"


def markdown(report: dict) -> str:
    meta, totals, cases = report["meta"], report["totals"], report["cases"]
    lines = ["## Skill behavioral", ""]
    lines.append(
        f"**{totals['passed']}/{totals['cases']} cases passed** ({totals['checks_passed']}/"
        f"{totals['checks']} expectations met; {totals['failed']} failed, {totals['errors']} "
        f"errored{_blocked(totals)}) on {md.runs_on(meta)}, "
        f"judged by `{meta['judge_model'] or 'default model'}` ({meta['judge_family']} family) "
        f"on {meta['judge_agent']} {meta['judge_version'] or '(not started)'}, agent {md.agent_words(meta)}."
    )
    lines.append("")
    said = [*filter(None, [same_family(meta)]), *md.halted(meta), *md.timed_out(meta), *meta["notes"]]
    lines += md.quoted([*said, *filter(None, [meta["sandbox"].get("said")])])
    lines += md.provisional_lines(cases, meta["strict"])
    lines += quarantined.markdown_lines(meta["quarantine"], statuses(report))
    rows = [
        (name, *(v[key] for key in PER_SKILL), f"{v['checks_passed']}/{v['checks']}")
        for name, v in report["per_skill"].items()
    ]
    heads = ["skill", "cases", "passed", "failed", "errored", "blocked", "expectations met"]
    lines.append(md.table(heads, rows))
    lines += md.section(
        "Unmet expectations",
        ["case", "where", "kind", "expectation", "detail"],
        [
            (c["id"], where(c), k["kind"], clip(k["expectation"], 120), clip(k["detail"], 200))
            for c in cases
            if c["status"] == FAIL
            for k in unmet_of(c)
        ],
        none="None. Every graded case met every expectation.",
    )
    lines += uncited_lines(report)
    lines += tripwire_lines(report)
    lines += md.errored_section(
        [c for c in cases if c["status"] in (ERROR, NOT_RUN)],
        "The run could not be graded (timeout, API error, hook crash, no valid verdict), or never "
        "started (not-run: the run reached its --max-run-usd): neither a pass nor a fail.",
    )
    lines += md.section(
        "Blocked cases (not graded)",
        ["case", "where", "reason", "attempts"],
        [
            (c["id"], where(c), c["blocked"], clip(attempts_text(c), 300))
            for c in cases
            if c["status"] == BLOCKED
        ],
        "What the agent did cannot be trusted as evidence, so these cases are neither a pass nor a "
        "fail, and the run does not pass. `outside-workspace`: it worked outside its workspace in "
        "every attempt, each in a fresh workspace.",
    )
    lines += md.retried_section(
        cases,
        "status",
        "The agent CLI failed on its own in the first attempt (not the skill's doing), so the case "
        "ran once more in a fresh workspace and session; the status is the second attempt's.",
    )
    lines += md.section(
        "Outside the workspace",
        ["case", "attempts"],
        [(c["id"], clip(attempts_text(c), 300)) for c in cases if c["isolation"] or left_workspace_before(c)],
        "Tool paths, paths named by commands, or Bash working directories in these traces lie outside "
        "the case's workspace"
        + (
            ": the attempt was blocked and run once more in a fresh workspace."
            if meta["strict_isolation"]
            else " (graded anyway: --no-strict-isolation)."
        ),
    )
    headers = ["case", "skill", "status", "met", "skill fired", "stop", "time"]
    rows = [
        (
            c["id"],
            c["skill"],
            c["status"],
            _met(c),
            _fired(c),
            c["stop_reason"] or "-",
            seconds(c["elapsed_s"]),
        )
        for c in cases
    ]
    lines += md.collapsed("All cases", md.table(headers, rows))
    spent = (
        f"agent {_spend(totals['agent'])}; judge {_spend(totals['judge'])}. Case time "
        f"{seconds(totals['agent_time_s'])}"
    )
    lines += md.spend_lines(spent, replayed(report), totals["cost_saved_usd"])
    return "\n".join(lines) + "\n"


def unmet_of(case: dict) -> list[dict]:
    return [k for k in case["checks"] if not k["passed"]]


def uncited(report: dict) -> list[tuple[dict, dict]]:
    """Each MUST statement the judge passed without citing evidence, with its case."""
    return [(c, k) for c in report["cases"] for k in c["checks"] if k["no_evidence"]]


def tripwire_lines(report: dict) -> list[str]:
    """With --tripwire: every hit, by case, or the one line saying it never fired."""
    if not report["meta"].get("tripwire"):
        return []
    cases = [c for c in report["cases"] if c.get("tripwire")]
    hits = [(c, hit) for c in cases for hit in c["tripwire"]["hits"]]
    planted = ", ".join(dict.fromkeys(p for c in cases for p in c["tripwire"]["planted"])) or "nothing"
    lines = ["", "### Tripwire", ""]
    lines.append(
        f"Honeytokens planted per case ({planted}), each with its own random value; the agent's tools "
        "were pointed at a loopback proxy that records and refuses every outbound attempt."
    )
    lines.append("")
    if not hits:
        lines.append(f"It fired on none of the {len(cases)} case(s) it watched.")
        return lines
    lines.append(
        f"**It fired on {len({c['id'] for c, _ in hits})} case(s)**: each fails, and so does the run."
    )
    lines.append("")
    rows = [(c["id"], where(c), hit["kind"], hit["call"] or "-", clip(hit["detail"], 200)) for c, hit in hits]
    lines.append(md.table(["case", "where", "kind", "tool call", "what was seen"], rows))
    return lines


def tripped(report: dict) -> int:
    return sum(1 for c in report["cases"] if c.get("tripwire") and c["tripwire"]["hits"])


def uncited_lines(report: dict) -> list[str]:
    """The MUST statements the judge passed without citing evidence: counted as met unless
    --require-evidence, and said either way."""
    bare = uncited(report)
    how = (
        "each makes its case an error (--require-evidence)"
        if report["meta"]["require_evidence"]
        else "each counts as met; --require-evidence makes such a case an error"
    )
    return md.section(
        "Passed without evidence",
        ["case", "where", "statement"],
        [(c["id"], where(c), clip(k["expectation"], 160)) for c, k in bare],
        f"The judge passed these statements the agent MUST have done without citing any evidence: {how}.",
    )


def described(outside: dict) -> str:
    """A path the agent left its workspace for, in words: the tool, its call and what it did there."""
    what = {"cwd": "worked in", "command": "named"}.get(outside["kind"], "touched")
    return f"{outside['tool']} (call {outside['call']}) {what} {outside['path']}"


def left_workspace_before(case: dict) -> bool:
    """An earlier attempt was blocked for leaving its workspace, whatever the last one did."""
    return any(a["isolation"] for a in case["attempts"][:-1])


def attempts_text(case: dict) -> str:
    """Each attempt's outcome and the paths it left the workspace for, in order."""
    if not case["attempts"]:
        return "; ".join(described(o) for o in case["isolation"])
    parts = []
    for attempt in case["attempts"]:
        word = f"{attempt['status']} ({attempt['blocked']})" if attempt.get("blocked") else attempt["status"]
        paths = "; ".join(described(o) for o in attempt["isolation"])
        parts.append(f"attempt {attempt['attempt']}: {word}" + (f", {paths}" if paths else ""))
    return " / ".join(parts)


def _blocked(counts: dict) -> str:
    return f", {counts['blocked']} blocked" if counts["blocked"] else ""


def _fired(case: dict) -> str:
    """The skills a case fired; an errored case that fired none made no decision."""
    return "—" if case["status"] == ERROR and not case["activated"] else ", ".join(case["activated"]) or "no"


def _met(case: dict) -> str:
    return f"{sum(1 for k in case['checks'] if k['passed'])}/{len(case['checks'])}"


def _spend(spend: dict) -> str:
    cost = f", ${spend['cost_usd']:.4f}" if spend["cost_usd"] is not None else ""
    return f"{spend['calls']} call(s), {spend['input_tokens']} tokens in, {spend['output_tokens']} out{cost}"


def replayed(report: dict) -> str | None:
    """How many cases the result cache gave back, and which runs made them."""
    cases = report["cases"]
    return replays.summary([c["cached_from"] for c in cases if c["cached"]], len(cases), "case")


def judge_words(meta: dict) -> str:
    """Who judged, in a few words: the model (its family) on which agent CLI."""
    model = meta["judge_model"] or "its default model"
    return f"{model} ({meta['judge_family']} family) on {meta['judge_agent']}"


def same_family(meta: dict) -> str | None:
    """The advice when the judge is of the agent's own family (a known one): judge with another."""
    family = meta["judge_family"]
    if family == UNKNOWN_FAMILY or family != meta["agent_family"]:
        return None
    return (
        f"The judge is of the agent's own model family ({family}): it may share the agent's "
        "blind spots; pass --judge-model (and --judge-agent) of another family to grade independently."
    )


def headline(report: dict) -> str:
    counts, meta = report["totals"], report["meta"]
    from_cache = replayed(report)
    retries = md.retried_note(report["cases"])
    bare = len(uncited(report))
    said_uncited = f"; {bare} MUST statement(s) passed without evidence" if bare else ""
    fired = tripped(report)
    said_uncited += f"; the tripwire fired on {fired} case(s)" if fired else ""
    return (
        (
            f"{counts['passed']}/{counts['cases']} case(s) passed; {counts['failed']} failed, "
            f"{counts['errors']} errored{_blocked(counts)}"
            + said_uncited
            + retries
            + (f"; {from_cache}" if from_cache else "")
        )
        + f"; judged by {judge_words(meta)}"
        + f"; {meta['sandbox']['headline']}"
        + quarantined.headline_note(meta["quarantine"])
        + halt_note(meta)
    )


def findings(report: dict) -> list[Finding]:
    """Each case that did not pass, at its line in the dataset, with what it did not meet; a case
    graded although it left its workspace (--no-strict-isolation) is a warning."""
    out = []
    meta = report["meta"]
    held = quarantined.by_id(meta["quarantine"])
    kept = meta.get("keep_logs")
    for c in report["cases"]:
        if c["isolation"] and c["blocked"] is None:
            paths = "; ".join(described(o) for o in c["isolation"][:3])
            message = (
                f"behavioral case `{c['id']}`: the agent worked outside its workspace ({paths}); graded "
                "anyway because --no-strict-isolation is set"
            )
            out.append(finding.warning("behavioral", c["source"], message, c["line"]))
        if c["retried"]:
            message = f"behavioral case `{c['id']}` was run once more in a fresh workspace: {c['retried']}"
            out.append(finding.warning("behavioral", c["source"], message, c["line"]))
        if c["status"] in (PASS, FAIL):  # an error already says why (--require-evidence)
            read = show_command(kept, c["id"])
            for check in (k for k in c["checks"] if k["no_evidence"]):
                message = (
                    f"behavioral case `{c['id']}`: the judge passed {check['expectation']!r}, which the "
                    "agent MUST have done, without citing any evidence; it counts as met (--require-evidence "
                    f"makes it an error): read what the agent did ({read})"
                )
                out.append(finding.warning("behavioral", c["source"], message, c["line"]))
        if c["status"] == PASS:
            continue
        if c["status"] == BLOCKED:
            message = f"behavioral case `{c['id']}` is blocked ({c['blocked']}, not graded): {c['error']}"
        elif c["status"] == NOT_RUN:
            message = f"behavioral case `{c['id']}` did not run: {c['error']}"
        elif c["status"] == ERROR:
            message = f"behavioral case `{c['id']}` errored (not graded): {c['error']}"
        else:
            unmet = "; ".join(f"{k['kind']} `{k['expectation']}`: {k['detail']}" for k in unmet_of(c))
            message = (
                f"behavioral case `{c['id']}`: {_met(c)} expectation(s) met for the prompt "
                f"{c['prompt']!r}. Unmet: {unmet}; read what the agent did ({show_command(kept, c['id'])}), "
                "then the skill's instructions"
            )
        failed = finding.error("behavioral", c["source"], message, c["line"])
        out.append(quarantined.held(failed, held.get(c["id"])))
    return out


def junit(report: dict) -> list[JUnitCase]:
    from harness.report.junit import JUnitCase

    cases = [
        JUnitCase(
            classname=f"behavioral.{c['skill']}",
            name=c["id"],
            time_s=c["elapsed_s"],
            error=_junit_error(c),
            failure=f"prompt: {c['prompt']}\n"
            + "\n".join(f"{k['kind']}: {k['expectation']} -- {k['detail']}" for k in unmet_of(c))
            if c["status"] == FAIL
            else None,
            file=c["source"],
            line=c["line"],
            output="\n".join(
                [_check_line(k) for k in c["checks"]]
                + ([replays.sample_line(c["cached_from"])] if c["cached"] else [])
                + ([f"retried once, fresh: {c['retried']}"] if c["retried"] else [])
            )
            or None,
        )
        for c in report["cases"]
    ]
    return quarantined.junit_cases("behavioral", cases, report["meta"])


def _junit_error(case: dict) -> str | None:
    """Blocked cases are errors to a CI test table: they must not show as passed nor as skipped."""
    if case["status"] == BLOCKED:
        return f"blocked ({case['blocked']}): {case['error']}\n{attempts_text(case)}"
    return case["error"] if case["status"] in (ERROR, NOT_RUN) else None


def _check_line(check: dict) -> str:
    verdict = ("PASS, no evidence cited" if check["no_evidence"] else "PASS") if check["passed"] else "FAIL"
    return f"[{verdict}] {check['kind']}: {check['expectation']}"
