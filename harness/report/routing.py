"""A routing run's reports: markdown, the headline and statuses of the text format, located findings
(annotations, text, SARIF) and JUnit.

A run of the lexical engine has its own renderers, in routing_lexical.
"""

from __future__ import annotations

from harness.model import findings as finding
from harness.model.dataset import located, origin_note
from harness.model.findings import Finding
from harness.report import quarantined, replays, routing_lexical
from harness.report.junit import JUnitCase, halt_cases, junit_file
from harness.report.markdown import clip, provisional_lines, spend_lines, table
from harness.report.reading import show_command
from harness.report.text import halt_note
from harness.routing import listed, room
from harness.routing.lexical_result import LexicalResult
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingResult, status

MEANINGS = {
    "correct_trigger": "the expected skill fired",
    "true_negative": "no skill fired, as expected",
    "missed_trigger": "the expected skill did not fire, nor did any other",
    "wrong_skill": "a different skill fired than the one expected",
    "false_trigger": "a skill fired on a prompt that belongs to none",
    "error": "the run gave no decision (crash, timeout, API error): not graded",
    "not-run": "never started: the run reached its --max-run-usd; not graded",
}


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def markdown(result: RoutingResult | LexicalResult) -> str:
    if isinstance(result, LexicalResult):
        return routing_lexical.markdown(result)
    data = result.to_json()
    meta, totals = result.meta, data["totals"]
    lines = ["## Skill routing", ""]
    lines.append(
        f"**{totals['passed']}/{totals['graded']} correct ({_percent(totals['accuracy'])})** across "
        f"{totals['cases']} prompts with {len(meta.room)} skill(s) installed together, on "
        f"`{meta.model or 'default model'}` (effort `{meta.effort or 'default'}`), "
        f"{meta.agent} {meta.agent_version or '(not started)'}."
    )
    lines.append("")
    if halted := meta.halt.sentence():
        lines += [f"> **{halted}**", ""]
    lines += [
        f"Gate: **{'passed' if result.passed else 'failed'}**: {result.gate.reason}.",
        "",
        *([meta.canary.line(), ""] if meta.canary else []),
        f"Installed together: {', '.join(f'`{name}`' for name in meta.room)}.",
        "",
    ]
    lines += _warnings(result, data)
    lines += provisional_lines([(o.case, o.passed) for o in result.outcomes], meta.strict)
    lines += quarantined.markdown_lines(meta.quarantine, {o.case.id: status(o) for o in result.outcomes})
    lines.append(
        table(["verdict", "cases", "meaning"], [(v, n, MEANINGS[v]) for v, n in data["verdicts"].items()])
    )
    lines += [
        "",
        "### By prompt category",
        "",
        "A `true` case is a positive; a `false` case in a skill's dataset is a near miss; the shared "
        "negatives are unrelated.",
        "",
    ]
    lines.append(
        table(
            ["category", "graded", "passed", "accuracy"],
            [(c, v["graded"], v["passed"], _percent(v["accuracy"])) for c, v in data["by_category"].items()],
        )
    )
    lines += ["", "### Per skill", ""]
    lines.append(
        table(
            [
                "skill",
                "expected",
                "correct",
                "missed",
                "lost to another",
                "fired",
                "fired unasked",
                "recall",
                "precision",
            ],
            [
                (
                    name,
                    v["expected"],
                    v["correct"],
                    v["missed"],
                    v["lost_to_other_skill"],
                    v["fired_total"],
                    v["fired_when_not_expected"],
                    _percent(v["recall"]),
                    _percent(v["precision"]),
                )
                for name, v in data["per_skill"].items()
            ],
        )
    )
    failures = [o for o in result.outcomes if o.graded and not o.passed]
    lines += ["", "### Routing failures", ""]
    if failures:
        lines.append(
            table(
                ["case", "where", "expected", "got", "verdict", "prompt", "look at"],
                [
                    (
                        o.case.id,
                        where(o.case),
                        o.expected or "no skill",
                        o.observed or "no skill",
                        o.verdict,
                        clip(o.case.prompt, 110),
                        hint(o),
                    )
                    for o in failures
                ],
            )
        )
    else:
        lines.append("None. Every graded prompt routed as expected.")
    flaky = [c for c in data["cases"] if c["flaky"]]
    if flaky:
        lines += ["", "### Flaky cases", "", "Their samples disagreed; the verdict is the majority.", ""]
        lines.append(table(["case", "verdict", "samples", "trigger rate"], [_flaky_row(c) for c in flaky]))
    unread = [o for o in result.outcomes if o.read_failed]
    if unread:
        lines += ["", "### Decided by a failed SKILL.md read", ""]
        lines.append(
            "The agent asked to read the skill's SKILL.md, which is its decision, but its tools failed to "
            "read it (often the agent's own sandbox): the verdict stands, the skill never reached it."
        )
        lines.append("")
        lines.append(
            table(
                ["case", "decided", "why the read failed"],
                [(o.case.id, o.observed, clip(o.read_failed or "", 300)) for o in unread],
            )
        )
    again = [o for o in result.outcomes if o.retried]
    if again:
        lines += ["", "### Retried cases", ""]
        lines.append(
            "A run failed in a way its agent CLI is known to fail on its own (not a decision), so it ran "
            "once more in a fresh workspace and session; the verdict is the second run's."
        )
        lines.append("")
        lines.append(table(["case", "why", "verdict"], [(o.case.id, o.retried, o.verdict) for o in again]))
    errored = [o for o in result.outcomes if not o.graded]
    if errored:
        lines += ["", "### Errored cases (not graded)", ""]
        lines.append(
            table(
                ["case", "where", "error"], [(o.case.id, where(o.case), clip(o.error, 300)) for o in errored]
            )
        )
    lines += ["", "<details><summary>All cases</summary>", ""]
    lines.append(
        table(
            ["case", "category", "expected", "got", "verdict", "stop", "time", "trigger rate"],
            [
                (
                    c["id"],
                    c["category"],
                    c["expect"] or "no skill",
                    observation(c),
                    c["verdict"],
                    c["stop_reason"],
                    f"{c['elapsed_s']:.1f}s",
                    _rate(c),
                )
                for c in data["cases"]
            ],
        )
    )
    lines += ["", "</details>", ""]
    cost = f", ${totals['cost_usd']:.4f}" if totals["cost_usd"] is not None else ""
    spent = (
        f"{totals['input_tokens']} tokens in, {totals['output_tokens']} out{cost}; agent time "
        f"{totals['agent_time_s']:.1f}s over {totals['samples_run']} run(s)"
    )
    lines += spend_lines(spent, replayed(result), totals["cost_saved_usd"])
    return "\n".join(lines) + "\n"


def replayed(result: RoutingResult) -> str | None:
    """How many samples the result cache gave back, and which runs made them."""
    samples = [s for o in result.outcomes for s in o.samples]
    return replays.summary([s.cached_from for s in samples if s.cached], len(samples), "sample")


def where(case) -> str:
    path, line = located(case.source, case.line)
    return "skillscope's built-in negatives" if path == "." else f"{path}:{line}" if line else path


def observation(sample: dict) -> str:
    """What a case (or one agent's run of it) fired: an errored or unrun case made no decision, which is
    not "no skill"."""
    if sample.get("verdict") in ("error", "not-run"):
        return "—"
    return sample.get("observed") or "no skill"


def _flaky_row(case: dict) -> tuple:
    verdicts = [sample["verdict"] for sample in case["samples"]]
    tally = ", ".join(f"{verdicts.count(v)} {v}" for v in dict.fromkeys(verdicts))
    return (case["id"], case["verdict"], tally, _rate(case))


def _rate(case: dict) -> str:
    if case["trigger_rate"] is None:
        return "n/a"
    if len(case["samples"]) < 2:  # an interval from one run says nothing
        return f"{case['trigger_rate'] * 100:.0f}%"
    low, high = case["trigger_rate_ci95"]
    return f"{case['trigger_rate'] * 100:.0f}% [{low * 100:.0f}–{high * 100:.0f}%]"


def _warnings(result: RoutingResult, data: dict) -> list[str]:
    out = []
    if result.meta.timed_out:
        out.append("> **The command's --timeout ran out**: cases not finished are reported as errors.")
    unexpected = data["unexpected_skills"]
    if unexpected:
        out.append(
            f"> A skill this run did not install activated: {', '.join(unexpected)}. Another copy "
            "of it is installed on this runner (user or plugin skills)."
        )
    session = data["session_skills"]
    if session["extra"]:
        if result.meta.isolation.get("config_dir") == "fresh":
            hint = (
                "The run already used a throwaway config dir, so they come from elsewhere (managed "
                "policy skills, or a .claude/skills above the temp dir)."
            )
        else:
            hint = "Set ANTHROPIC_API_KEY so the run can use a throwaway config dir."
        out.append(f"> The CLI listed skills beyond the room: {', '.join(session['extra'][:12])}. {hint}")
    if session["missing"]:
        out.append(
            f"> The CLI did not list these installed skills at session start: "
            f"{', '.join(session['missing'])}; check their frontmatter."
        )
    if not session["verified"] and result.outcomes:
        out.append("> The room was not verified: no run reached the CLI's init event.")
    for note in result.meta.notes:
        out.append(f"> {note}")
    return [*(line + "\n" for line in out)] if out else []


def headline(result: RoutingResult | LexicalResult) -> str:
    if isinstance(result, LexicalResult):
        return routing_lexical.headline(result)
    totals = result.totals()
    from_cache = replayed(result)
    unread = sum(1 for o in result.outcomes if o.read_failed)
    failed_reads = f"; {unread} decided by a SKILL.md read that failed" if unread else ""
    again = sum(1 for o in result.outcomes if o.retried)
    failed_reads += f"; {again} retried after its agent CLI failed on its own" if again else ""
    return (
        (
            f"{totals['passed']}/{totals['graded']} correct ({_percent(totals['accuracy'])}) of "
            f"{totals['cases']} case(s); {result.gate.reason}"
            + failed_reads
            + (f"; {from_cache}" if from_cache else "")
        )
        + quarantined.headline_note(result.meta.quarantine)
        + halt_note(result.meta.halt)
    )


def next_step(result: RoutingResult | LexicalResult) -> str:
    """The line under the text summary: the room skills the agent's model was not shown in full (in a
    lexical run, the modelled agent's), the catalog skills the room left out, then for a lexical run the
    bars a first run wants (see there); for an agent run, its canary (a canary that failed the run is the
    summary's own reason already)."""
    listing = next((note for note in result.meta.notes if note.startswith(listed.NOTE_START)), "")
    outside = next((note for note in result.meta.notes if room.LEFT_OUT in note), "")
    if isinstance(result, LexicalResult):
        lines = [listing, outside, routing_lexical.next_step(result)]
        return "\n".join(line for line in lines if line)
    checked = result.meta.canary
    lines = [listing, outside, checked.line() if checked and not checked.blocks else ""]
    return "\n".join(line for line in lines if line)


def statuses(result: RoutingResult | LexicalResult) -> dict[str, str]:
    return {o.case.id: status(o) for o in result.outcomes}


def findings(result: RoutingResult | LexicalResult) -> list[Finding]:
    """Each case that did not pass, at its line in the dataset: a miss is an error (a warning when the
    run passed all the same, as below a bar of 0), a run without a decision a warning (it was not
    graded)."""
    if isinstance(result, LexicalResult):
        return routing_lexical.findings(result)
    found = misses(result)
    return found if not result.passed else finding.as_warnings(found)


def misses(result: RoutingResult) -> list[Finding]:
    out = []
    held = quarantined.by_id(result.meta.quarantine)
    for o in result.outcomes:
        if o.read_failed:
            message = (
                f"routing case `{o.case.id}` was decided ({o.observed}) by a request to read its SKILL.md "
                f"that failed: {o.read_failed}; the decision stands, but the skill never reached the agent"
            )
            out.append(finding.warning("routing", *at(o, message)))
        if o.retried:
            message = f"routing case `{o.case.id}` was run once more, fresh: {o.retried}"
            out.append(finding.warning("routing", *at(o, message)))
        if o.passed:
            continue
        kept = result.meta.keep_logs
        read = f"; its transcript: {show_command(kept, o.case.id)}" if kept and o.verdict != "not-run" else ""
        if o.graded:
            failed = finding.error("routing", *at(o, failure_text(o) + read))
            out.append(quarantined.held(failed, held.get(o.case.id)))
        else:
            how = "did not run" if o.verdict == "not-run" else "errored (not graded)"
            message = f"routing case `{o.case.id}` {how}: {(o.error or '').removeprefix('not run: ')}{read}"
            out.append(finding.warning("routing", *at(o, message)))
    return out


def at(o: CaseOutcome, message: str) -> tuple[str, str, int | None]:
    """A finding's path, message and line for a case: a built-in shared negative points at the repo
    and says where it came from and how to leave it out."""
    path, line = located(o.case.source, o.case.line)
    return path, message + origin_note(o.case.source, o.case.id), line


def failure_text(o: CaseOutcome) -> str:
    """One failed case in a sentence a reader can act on: what happened, the prompt, what to look at."""
    return (
        f"routing case `{o.case.id}`: {o.summary} ({o.verdict}) for the prompt {o.case.prompt!r}; {hint(o)}"
    )


def hint(o: CaseOutcome) -> str:
    """Where to look for a routing miss: the descriptions that decided it."""
    expected, observed = o.expected, o.observed
    if o.unlisted:  # the model never read the whole description, so rewording it may not help
        return (
            f"the agent did not show its model `{expected}`'s whole description: shorten the room's "
            "descriptions or split the room (see `skillscope structural`, listing-budget)"
        )
    if expected and observed and observed != expected:
        return (
            f"compare the descriptions of `{expected}` and `{observed}`: the prompt matched the other better"
        )
    if expected:
        return f"read `{expected}`'s description as the agent would: it does not claim this prompt"
    if observed and o.case.skill:
        return f"`{observed}`'s description claims a prompt meant for no skill: narrow it"
    return f"`{observed}`'s description claims a prompt no skill should take; narrow it"


def junit(result: RoutingResult | LexicalResult) -> list[JUnitCase]:
    if isinstance(result, LexicalResult):
        return routing_lexical.junit(result)
    held = quarantined.by_id(result.meta.quarantine)
    cases = [
        JUnitCase(
            classname=f"routing.{o.case.skill or 'shared'}",
            name=o.case.id,
            time_s=sum(s.elapsed_s for s in o.samples),
            error=o.error if not o.graded else None,
            failure=None
            if o.passed or not o.graded
            else failure_text(o) + origin_note(o.case.source, o.case.id),
            file=junit_file(o.case.source),
            line=located(o.case.source, o.case.line)[1],
            output=case_output(o),
        )
        for o in result.outcomes
    ]
    shown = [quarantined.junit_case(c, held.get(c.name)) for c in cases]
    return canary_cases(result) + shown + halt_cases("routing", result.meta.halt)


def canary_cases(result: RoutingResult) -> list[JUnitCase]:
    """The canary as a test of its own, ahead of the cases, when it ran (or was replayed): an error when
    it failed the run, so a CI test table shows why no case was graded."""
    checked = result.meta.canary
    if checked is None or checked.status == "skipped":
        return []
    sample = checked.sample
    return [
        JUnitCase(
            classname="routing.canary",
            name="(canary)",
            time_s=sample.elapsed_s if sample and not sample.cached else 0.0,
            error=checked.sentence if checked.blocks else None,
            output=None if checked.blocks else checked.line(),
        )
    ]


def replayed_samples(o: CaseOutcome) -> str | None:
    """A JUnit case's output: each of its samples the result cache gave back, and the run that made it."""
    several = len(o.samples) > 1
    lines = [
        replays.sample_line(s.cached_from, f"sample {n} replayed" if several else "replayed")
        for n, s in enumerate(o.samples, 1)
        if s.cached
    ]
    return "\n".join(lines) or None


def case_output(o: CaseOutcome) -> str | None:
    """A JUnit case's output: its replayed samples, a retry and a failed read that decided."""
    lines = [replayed_samples(o) or ""]
    lines.append(f"retried once, fresh: {o.retried}" if o.retried else "")
    lines.append(f"decided by a SKILL.md read that failed: {o.read_failed}" if o.read_failed else "")
    return "\n".join(line for line in lines if line) or None
