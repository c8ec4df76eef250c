"""An agent routing run's reports, from its JSON report: markdown, the text format's headline and
statuses, located findings and JUnit (a lexical run's are in routing_lexical)."""

from __future__ import annotations

from harness.model import findings as finding
from harness.model import notes
from harness.model.dataset import origin_note
from harness.model.envelope import Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import columns, quarantined, replays
from harness.report import markdown as md
from harness.report.cases import (
    PLACE,
    at,
    from_cache,
    gate_words,
    listing_notes,
    show_command,
    statuses,
    where,
)
from harness.report.columns import Column, field
from harness.report.format import dollars, number, percent, ranged, seconds, share
from harness.report.junit import JUnitCase, case_at

MEANINGS = {
    "correct_trigger": "the expected skill fired (for a near miss naming an `owner`: that owner)",
    "true_negative": "no skill fired, as expected",
    "missed_trigger": "the expected skill did not fire, nor did any other",
    "wrong_skill": "a different skill fired than the one expected",
    "false_trigger": "a skill fired on a prompt that belongs to none, or a near miss's own skill fired",
    "error": "the run gave no decision (crash, timeout, API error): not graded",
    "not-run": "never started: the run reached its --max-run-usd; not graded",
}
# The per-skill table, in the markdown and on the page.
PER_SKILL: list[Column] = [
    ("skill", field("skill")),
    *((head, field(key)) for head, key in (("expected", "expected"), ("correct", "correct"))),
    ("missed", field("missed")),
    ("lost to another", field("lost_to_other_skill")),
    ("fired", field("fired_total")),
    ("fired unasked", field("fired_when_not_expected")),
    ("recall [95%]", lambda row: ranged(row.get("recall"), row.get("recall_ci95"))),
    ("precision [95%]", lambda row: ranged(row.get("precision"), row.get("precision_ci95"))),
]
INTERVALS = "Intervals: Wilson score, 95 %, over the graded cases."
BY_CATEGORY: list[Column] = [
    ("category", field("category")),
    ("graded", field("graded")),
    ("passed", field("passed")),
    ("accuracy", lambda row: percent(row.get("accuracy"))),
]
BLOCKING = ("not-activated", "error")  # canary statuses that keep every case from being graded
UNGRADED = ("error", "not-run")
FAILURE_HEADS = ["case", "where", "expected", "observed", "verdict", "prompt", "look at"]
KINDS = (
    "A `true` case is a positive; a `false` case in a skill's dataset is a near miss; the shared negatives "
    "are unrelated."
)
FLAKY = "Their samples disagreed; the verdict is the majority."
READ_FAILED = (
    "The agent asked to read the skill's SKILL.md, which is its decision, but its tools failed to read it "
    "(often the agent's own sandbox): the verdict stands, the skill never reached it."
)
RETRIED = (
    "A run failed in a way its agent CLI is known to fail on its own (not a decision), so it ran once more "
    "in a fresh workspace and session; the verdict is the second run's."
)


def graded(case: dict) -> bool:
    return case["verdict"] not in UNGRADED


def markdown(report: dict) -> str:
    meta, totals, cases = report["meta"], report["totals"], report["cases"]
    canary = meta.get("canary")
    lines = [
        "## Skill routing",
        "",
        f"**{totals['passed']}/{totals['graded']} correct ({percent(totals['accuracy'])})** across "
        f"{totals['cases']} prompts{notes.ungraded(totals)} with {len(meta['room'])} skill(s) installed "
        f"together, on {md.runs_on(meta)}, {md.agent_words(meta)}.",
        "",
        *md.quoted(md.halted(meta)),
        md.gate_line(report["passed"], gate_words(report)),
        "",
        *([canary["line"], ""] if canary else []),
        f"Installed together: {', '.join(f'`{name}`' for name in meta['room'])}.",
        "",
        *_warnings(report),
        *md.provisional_lines(cases, meta["strict"]),
        *quarantined.markdown_lines(meta["quarantine"], statuses(report)),
        md.table(
            ["verdict", "cases", "meaning"], [(v, n, MEANINGS[v]) for v, n in report["verdicts"].items()]
        ),
    ]
    categories = columns.rows(BY_CATEGORY, columns.named(report["by_category"], "category"))
    lines += md.section("By prompt category", columns.heads(BY_CATEGORY), categories, KINDS, None)
    per_skill = columns.rows(PER_SKILL, columns.named(report["per_skill"], "skill"))
    lines += md.section("Per skill", columns.heads(PER_SKILL), per_skill, INTERVALS, None)
    failures = [
        (c["id"], where(c), c["expect"] or "no skill", c["observed"] or "no skill", c["verdict"])
        + (clip(c["prompt"], 110), hint(c))
        for c in cases
        if graded(c) and not c["passed"]
    ]
    lines += md.section(
        "Routing failures", FAILURE_HEADS, failures, none="None. Every graded prompt routed as expected."
    )
    flaky = [_flaky_row(c) for c in cases if c["flaky"]]
    lines += md.section("Flaky cases", ["case", "verdict", "samples", "trigger rate [95%]"], flaky, FLAKY)
    unread = [(c["id"], c["observed"], clip(c["read_failed"], 300)) for c in cases if c["read_failed"]]
    lines += md.section(
        "Decided by a failed SKILL.md read", ["case", "decided", "why the read failed"], unread, READ_FAILED
    )
    lines += md.retried_section(cases, "verdict", RETRIED)
    lines += md.errored_section([c for c in cases if not graded(c)])
    lines += md.collapsed("All cases", md.case_table(CASES, cases))
    cost = f", {dollars(totals['cost_usd'])}" if totals["cost_usd"] is not None else ""
    spent = (
        f"{number(totals['input_tokens'], '')} tokens in, {number(totals['output_tokens'], '')} out{cost}; "
        f"agent time {seconds(totals['agent_time_s'])} over {totals['samples_run']} run(s)"
    )
    lines += md.spend_lines(spent, replayed(report), totals["cost_saved_usd"])
    return "\n".join(lines) + "\n"


def replayed(report: dict) -> str | None:
    """How many samples the result cache gave back, and which runs made them."""
    samples = [s for c in report["cases"] for s in c["samples"]]
    return replays.summary([s["cached_from"] for s in samples if s["cached"]], len(samples), "sample")


def observation(sample: dict) -> str:
    """What a case (or an agent's run of it) fired; an errored or unrun one made no decision, "—"."""
    if sample.get("verdict") in UNGRADED:
        return "—"
    return sample.get("observed") or "no skill"


def _flaky_row(case: dict) -> tuple:
    verdicts = [sample["verdict"] for sample in case["samples"]]
    tally = ", ".join(f"{verdicts.count(v)} {v}" for v in dict.fromkeys(verdicts))
    return (case["id"], case["verdict"], tally, trigger_rate(case))


def trigger_counts(case: dict) -> tuple[int, int]:
    """The report's own trigger counts (fired, graded samples); a report from before they were written
    has them counted here the same way: the expected skill fired (when none is expected: any skill)."""
    counts = case.get("trigger_counts")  # optional in the schema: a report from before it was written
    if counts is not None:
        return counts["fired"], counts["graded"]
    graded = [s for s in case["samples"] if not s["error"] and s["verdict"] != "not-run"]
    expect = case["expect"]
    fired = sum(1 for s in graded if (s["observed"] == expect if expect else s["observed"]))
    return fired, len(graded)


def trigger_rate(case: dict) -> str:
    """How often the case's skill fired over its samples, with its interval; '' for one sample, whose
    rate says nothing the verdict does not."""
    if len(case["samples"]) < 2:
        return ""
    fired, graded = trigger_counts(case)
    return share(fired, graded, case["trigger_rate_ci95"]) if graded else "n/a"


# The case table's first columns, for both engines: the case, what was expected and decided.
DECIDED: list[Column] = [
    ("case", field("id")),
    ("category", field("category")),
    ("expected", lambda case: case["expect"] or "no skill"),
    ("observed", lambda case: observation(case)),
    ("verdict", field("verdict")),
]
# The case table ("All cases" in the markdown, "Cases" on the page).
CASES: list[Column] = [
    *DECIDED,
    ("stop", lambda case: case["stop_reason"] or "-"),
    ("time", lambda case: seconds(case["elapsed_s"])),
    ("trigger rate [95%]", trigger_rate),
    ("cost", lambda case: dollars(case["cost_usd"])),
    *PLACE,
]


def _warnings(report: dict) -> list[str]:
    meta, unexpected, session = (report["meta"], report["unexpected_skills"], report["session_skills"])
    out = md.timed_out(meta)
    if unexpected:
        out.append(
            f"A skill this run did not install activated: {', '.join(unexpected)}. Another copy "
            "of it is installed on this runner (user or plugin skills)."
        )
    if session["extra"]:
        if meta["isolation"].get("config_dir") == "fresh":
            hint = (
                "The run already used a throwaway config dir, so they come from elsewhere (managed "
                "policy skills, or a .claude/skills above the temp dir)."
            )
        else:
            hint = "Set ANTHROPIC_API_KEY so the run can use a throwaway config dir."
        out.append(f"The CLI listed skills beyond the room: {', '.join(session['extra'][:12])}. {hint}")
    if session["missing"]:
        out.append(
            f"The CLI did not list these installed skills at session start: "
            f"{', '.join(session['missing'])}; check their frontmatter."
        )
    if not session["verified"] and report["cases"]:
        out.append("The room was not verified: no run reached the CLI's init event.")
    return md.quoted([*out, *meta["notes"]])


def headline(report: dict) -> str:
    totals, meta, cases = report["totals"], report["meta"], report["cases"]
    unread = sum(1 for c in cases if c["read_failed"])
    return (
        f"{totals['passed']}/{totals['graded']} correct ({percent(totals['accuracy'])}) of "
        f"{totals['cases']} case(s){notes.ungraded(totals)}"
    ) + md.clauses(
        gate_words(report),
        f"{unread} decided by a SKILL.md read that failed" if unread else "",
        md.retried_note(cases),
        replayed(report),
        quarantined.headline_note(meta["quarantine"]),
        Halt.of(meta).sentence(),
    )


def next_step(report: dict) -> str:
    """The lines under the text summary: the listing notes, then the canary unless it failed the run (the
    summary's own reason then)."""
    canary = report["meta"].get("canary")
    shown = canary["line"] if canary and canary["status"] not in BLOCKING else ""
    lines = [*listing_notes(report["meta"]), shown]
    return "\n".join(line for line in lines if line)


def findings(report: dict) -> list[Finding]:
    """Each case that did not pass, at its dataset line: a miss an error (a warning when the run passed
    all the same), a run without a decision a warning."""
    out = []
    meta = report["meta"]
    held = quarantined.by_id(meta["quarantine"])
    kept = meta.get("keep_logs")
    for c in report["cases"]:
        if c["read_failed"]:
            message = (
                f"routing case `{c['id']}` was decided ({c['observed']}) by a request to read its SKILL.md "
                f"that failed: {c['read_failed']}; the decision stands, but the skill never reached the agent"
            )
            out.append(finding.warning("routing", *at(c, message)))
        if c["retried"]:
            message = f"routing case `{c['id']}` was run once more, fresh: {c['retried']}"
            out.append(finding.warning("routing", *at(c, message)))
        if c["passed"]:
            continue
        read = (
            f"; its transcript: {show_command(kept, c['id'], from_cache(c))}"
            if kept and c["verdict"] != "not-run"
            else ""
        )
        if graded(c):
            failed = finding.error("routing", *at(c, failure_text(c) + read))
            out.append(quarantined.held(failed, held.get(c["id"])))
        else:
            how = "did not run" if c["verdict"] == "not-run" else "errored (not graded)"
            message = f"routing case `{c['id']}` {how}: {(c['error'] or '').removeprefix('not run: ')}{read}"
            out.append(finding.warning("routing", *at(c, message)))
    return out if not report["passed"] else finding.as_warnings(out)


def failure_text(case: dict) -> str:
    """One failed case in a sentence a reader can act on: what happened, the prompt, what to look at."""
    return (
        f"routing case `{case['id']}`: {case['summary']} ({case['verdict']}) for the prompt "
        f"{case['prompt']!r}; {hint(case)}"
    )


def hint(case: dict) -> str:
    """Where to look for a routing miss: the descriptions that decided it."""
    expected, observed = case["expect"], case["observed"]
    if case["unlisted"]:  # the model never read the whole description, so rewording it may not help
        return (
            f"the agent did not show its model `{expected}`'s whole description: shorten the room's "
            "descriptions or split the room (see `skillscope structural`, listing-budget)"
        )
    if expected and observed and observed == case["skill"] != expected:  # own skill took its owner's prompt
        return (
            f"`{observed}`'s description claims a prompt that belongs to `{expected}`: narrow `{observed}`'s "
            f"description, or widen `{expected}`'s"
        )
    if expected and observed and observed != expected:
        return (
            f"compare the descriptions of `{expected}` and `{observed}`: the prompt matched the other better"
        )
    if expected:
        return f"read `{expected}`'s description as the agent would: it does not claim this prompt"
    if observed and case["skill"]:
        return f"`{observed}`'s description claims a prompt meant for no skill: narrow it"
    return f"`{observed}`'s description claims a prompt no skill should take; narrow it"


def junit(report: dict) -> list[JUnitCase]:
    cases = [
        case_at(
            c,
            f"routing.{c['skill'] or 'shared'}",
            c["id"],
            time_s=c["elapsed_s"],
            error=None if graded(c) else c["error"],
            failure=None
            if c["passed"] or not graded(c)
            else failure_text(c) + origin_note(c["source"], c["id"]),
            output=case_output(c),
        )
        for c in report["cases"]
    ]
    return canary_cases(report) + quarantined.junit_cases("routing", cases, report["meta"])


def canary_cases(report: dict) -> list[JUnitCase]:
    """The canary as a test of its own, ahead of the cases, when it ran (or was replayed): an error when
    it failed the run, so a CI test table shows why no case was graded."""
    checked = report["meta"].get("canary")
    if checked is None or checked["status"] == "skipped":
        return []
    blocks = checked["status"] in BLOCKING
    return [
        JUnitCase(
            classname="routing.canary",
            name="(canary)",
            time_s=0.0 if checked["status"] == "cached" else checked["elapsed_s"],  # a replay took no time
            error=checked["sentence"] if blocks else None,
            output=None if blocks else checked["line"],
        )
    ]


def case_output(case: dict) -> str | None:
    """A JUnit case's output: its replayed samples and their runs, a retry, a failed read that decided."""
    several = len(case["samples"]) > 1
    lines = [
        replays.sample_line(s["cached_from"], f"sample {n} replayed" if several else "replayed")
        for n, s in enumerate(case["samples"], 1)
        if s["cached"]
    ]
    lines.append(f"retried once, fresh: {case['retried']}" if case["retried"] else "")
    lines.append(
        f"decided by a SKILL.md read that failed: {case['read_failed']}" if case["read_failed"] else ""
    )
    return "\n".join(line for line in lines if line) or None
