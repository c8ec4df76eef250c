"""A behavioral run's reports, from its JSON report: markdown, the text format's headline and statuses,
located findings and JUnit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.model import findings as finding
from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS, Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import columns, quarantined, replays
from harness.report import markdown as md
from harness.report.cases import PLACE, from_cache, show_command, statuses, where
from harness.report.columns import Column, field, fraction
from harness.report.format import dollars, seconds, total

if TYPE_CHECKING:  # JUnit is rendered where --junit asks for it
    from harness.report.junit import JUnitCase

NOT_RUN = "not-run"
# The per-skill table, in the markdown and on the page.
PER_SKILL: list[Column] = [
    ("skill", field("skill")),
    *((head, field(key)) for head, key in (("cases", "cases"), ("passed", "passed"), ("failed", "failed"))),
    ("errored", field("errors")),
    ("blocked", field("blocked")),
    ("expectations met", fraction("checks_passed", "checks")),
]
UNKNOWN_FAMILY = "unknown"
# What a case that was not graded says after its name.
UNGRADED_WORDS = {
    BLOCKED: " is blocked ({blocked}, not graded): {error}",
    NOT_RUN: " did not run: {error}",
    ERROR: " errored (not graded): {error}",
}
UNMET_HEADS = ["case", "where", "kind", "expectation", "detail"]
ERRORED = (
    "The run could not be graded (timeout, API error, hook crash, no valid verdict), or never started "
    "(not-run: the run reached its --max-run-usd): neither a pass nor a fail."
)
BLOCKED_SAID = (
    "What the agent did cannot be trusted as evidence, so these cases are neither a pass nor a fail, and the "
    "run does not pass. `outside-workspace`: it worked outside its workspace in every attempt, each in a "
    "fresh workspace."
)
RETRIED = (
    "The agent CLI failed on its own in the first attempt (not the skill's doing), so the case ran once more "
    "in a fresh workspace and session; the status is the second attempt's."
)
OUTSIDE = (
    "Tool paths, paths named by commands, or Bash working directories in these traces lie outside the "
    "case's workspace"
)
OUTSIDE_BLOCKED = ": the attempt was blocked and run once more in a fresh workspace."
OUTSIDE_GRADED = " (graded anyway: --no-strict-isolation)."


def markdown(report: dict) -> str:
    meta, totals, cases = report["meta"], report["totals"], report["cases"]
    said = [
        same_family(meta),
        *md.halted(meta),
        *md.timed_out(meta),
        *meta["notes"],
        meta["sandbox"].get("said"),
    ]
    lines = [
        "## Skill behavioral",
        "",
        f"**{totals['passed']}/{totals['cases']} cases passed** ({totals['checks_passed']}/"
        f"{totals['checks']} expectations met; {totals['failed']} failed, {totals['errors']} "
        f"errored{_blocked(totals)}) on {md.runs_on(meta)}, "
        f"judged by `{meta['judge_model'] or 'default model'}` ({meta['judge_family']} family) "
        f"on {meta['judge_agent']} {meta['judge_version'] or '(not started)'}, agent {md.agent_words(meta)}.",
        "",
        *md.quoted(filter(None, said)),
        *md.provisional_lines(cases, meta["strict"]),
        *quarantined.markdown_lines(meta["quarantine"], statuses(report)),
        md.table(
            columns.heads(PER_SKILL), columns.rows(PER_SKILL, columns.named(report["per_skill"], "skill"))
        ),
    ]
    unmet = [
        (c["id"], where(c), k["kind"], clip(k["expectation"], 120), clip(k["detail"], 200))
        for c in cases
        if c["status"] == FAIL
        for k in unmet_of(c)
    ]
    # What went wrong after a check had already failed the case: graded nothing more, hid nothing.
    unmet += [
        (c["id"], where(c), "not graded", "-", clip(c["error"], 200))
        for c in cases
        if c["status"] == FAIL and c["error"]
    ]
    lines += md.section(
        "Unmet expectations", UNMET_HEADS, unmet, none="None. Every graded case met every expectation."
    )
    lines += uncited_lines(report) + tripwire_lines(report)
    lines += md.errored_section([c for c in cases if c["status"] in (ERROR, NOT_RUN)], ERRORED)
    blocked = [
        (c["id"], where(c), c["blocked"], clip(attempts_text(c), 300))
        for c in cases
        if c["status"] == BLOCKED
    ]
    lines += md.section(
        "Blocked cases (not graded)", ["case", "where", "reason", "attempts"], blocked, BLOCKED_SAID
    )
    lines += md.retried_section(cases, "status", RETRIED)
    outside = [
        (c["id"], clip(attempts_text(c), 300)) for c in cases if c["isolation"] or left_workspace_before(c)
    ]
    then = OUTSIDE_BLOCKED if meta["strict_isolation"] else OUTSIDE_GRADED
    lines += md.section("Outside the workspace", ["case", "attempts"], outside, OUTSIDE + then)
    lines += md.collapsed("All cases", md.case_table(CASES, cases))
    spent = f"agent {_spend(totals['agent'])}; judge {_spend(totals['judge'])}. Case time "
    spent += seconds(totals["agent_time_s"])
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
    said = (
        f"Honeytokens planted per case ({planted}), each with its own random value; the agent's tools "
        "were pointed at a loopback proxy that records and refuses every outbound attempt."
    )
    if not hits:
        return md.titled("Tripwire", f"It fired on none of the {len(cases)} case(s) it watched.", said)
    fired = f"**It fired on {len({c['id'] for c, _ in hits})} case(s)**: each fails, and so does the run."
    rows = [(c["id"], where(c), hit["kind"], hit["call"] or "-", clip(hit["detail"], 200)) for c, hit in hits]
    table = md.table(["case", "where", "kind", "tool call", "what was seen"], rows)
    return md.titled("Tripwire", f"{fired}\n\n{table}", said)


def tripped(report: dict) -> int:
    return sum(1 for c in report["cases"] if c.get("tripwire") and c["tripwire"]["hits"])


def uncited_lines(report: dict) -> list[str]:
    """The MUST statements the judge passed without citing evidence (met unless --require-evidence)."""
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


def spent(case: dict) -> float | None:
    """What a case (or the run's totals) spent: its agent's and its judge's; None when neither said."""
    return total(case[side]["cost_usd"] for side in ("agent", "judge"))


def _blocked(counts: dict) -> str:
    return f", {counts['blocked']} blocked" if counts["blocked"] else ""


def _fired(case: dict) -> str:
    """The skills a case fired; an errored case that fired none made no decision."""
    fired = case["activated"]
    return "—" if case["status"] == ERROR and not fired else ", ".join(fired) or "no"


def _met(case: dict) -> str:
    checks = case["checks"]
    return f"{sum(1 for k in checks if k['passed'])}/{len(checks)}"


# The case table ("All cases" in the markdown, "Cases" on the page).
CASES: list[Column] = [
    ("case", field("id")),
    ("skill", field("skill")),
    ("status", field("status")),
    ("expectations met", _met),
    ("skill fired", _fired),
    ("stop", lambda case: case["stop_reason"] or "-"),
    ("time", lambda case: seconds(case["elapsed_s"])),
    ("cost", lambda case: dollars(spent(case))),
    *PLACE,
]


def _spend(spend: dict) -> str:
    cost = f", {dollars(spend['cost_usd'])}" if spend["cost_usd"] is not None else ""
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
    bare, fired = len(uncited(report)), tripped(report)
    return (
        f"{counts['passed']}/{counts['cases']} case(s) passed; {counts['failed']} failed, "
        f"{counts['errors']} errored{_blocked(counts)}"
    ) + md.clauses(
        f"{bare} MUST statement(s) passed without evidence" if bare else "",
        f"the tripwire fired on {fired} case(s)" if fired else "",
        md.retried_note(report["cases"]),
        replayed(report),
        f"judged by {judge_words(meta)}",
        meta["sandbox"]["headline"],
        quarantined.headline_note(meta["quarantine"]),
        Halt.of(meta).sentence(),
    )


def findings(report: dict) -> list[Finding]:
    """Each case that did not pass, at its dataset line, with what it did not meet; warnings for what a
    graded case carries (left its workspace under --no-strict-isolation, retried, passed without evidence)."""
    out = []
    meta = report["meta"]
    held, kept = quarantined.by_id(meta["quarantine"]), meta.get("keep_logs")
    for c in report["cases"]:
        said = f"behavioral case `{c['id']}`"
        warned = []
        if c["isolation"] and c["blocked"] is None:
            paths = "; ".join(described(o) for o in c["isolation"][:3])
            warned.append(
                f"{said}: the agent worked outside its workspace ({paths}); graded anyway because "
                "--no-strict-isolation is set"
            )
        if c["retried"]:
            warned.append(f"{said} was run once more in a fresh workspace: {c['retried']}")
        if c["status"] in (PASS, FAIL):  # an error already says why (--require-evidence)
            warned += [
                f"{said}: the judge passed {k['expectation']!r}, which the agent MUST have done, without "
                "citing any evidence; it counts as met (--require-evidence makes it an error): read what the "
                f"agent did ({show_command(kept, c['id'], from_cache(c))})"
                for k in c["checks"]
                if k["no_evidence"]
            ]
        out += [finding.warning("behavioral", c["source"], message, c["line"]) for message in warned]
        if c["status"] != PASS:
            failed = finding.error("behavioral", c["source"], f"{said}{failure_words(c, kept)}", c["line"])
            out.append(quarantined.held(failed, held.get(c["id"])))
    return out


def failure_words(case: dict, kept: str | None) -> str:
    """Why a case did not pass, after its name: blocked, not run, errored, or the expectations it missed."""
    if case["status"] in UNGRADED_WORDS:
        return UNGRADED_WORDS[case["status"]].format(**case)
    unmet = "; ".join(f"{k['kind']} `{k['expectation']}`: {k['detail']}" for k in unmet_of(case))
    if case["error"]:  # a failed check decided the case; what went wrong after it graded nothing more
        unmet += f"; not graded: {case['error']}"
    return (
        f": {_met(case)} expectation(s) met for the prompt {case['prompt']!r}. Unmet: {unmet}; read what the "
        f"agent did ({show_command(kept, case['id'], from_cache(case))}), then the skill's instructions"
    )


def junit(report: dict) -> list[JUnitCase]:
    from harness.report.junit import case_at

    cases = [
        case_at(
            c,
            f"behavioral.{c['skill']}",
            c["id"],
            time_s=c["elapsed_s"],
            error=_junit_error(c),
            failure=f"prompt: {c['prompt']}\n"
            + "\n".join(f"{k['kind']}: {k['expectation']} -- {k['detail']}" for k in unmet_of(c))
            if c["status"] == FAIL
            else None,
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
