"""The tune page: the verdict, split and spend; each candidate's scores, corrected gain and why it stopped;
the final split's estimate; the SKILL.md diff; the rejected candidates; how it decides."""

from __future__ import annotations

from harness.printable import clip
from harness.report import tune
from harness.report.format import DASH, dollars
from harness.report.html.common import drawn, fields, indexes
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, cases_table, collapsed, deferred, pre

PARTS = tune.PARTS  # the split's parts, in the order a candidate meets them


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), candidates(report), final(report), diff(report), rejected(report), how(report)]


def head(report: dict) -> str:
    split, spend, chosen = report["split"], report["spend"], report["chosen"]
    # The split's counts are untyped in the schema: a count it does not hold as a number adds nothing.
    sized = {part: [n for n in tune.part_counts(split, part) if isinstance(n, int)] for part in PARTS}
    sizes = " · ".join(f"{part} {sum(counts)}" for part, counts in sized.items())
    tiles = [
        ("chosen", "none beat noise" if chosen is None else chosen),
        ("candidates tried", str(report["tried"])),
        ("split seed", str(split["seed"])),
        ("cases per part", sizes),
        ("on proposals", dollars(spend["proposal_cost_usd"], DASH)),
    ]
    cached = f"{spend['cached_samples']} of {spend['samples_run']} sample(s) run came from the cache"
    parts = [header(report, tiles, report["verdict"] or "no verdict", spend["cost_usd"], cached)]
    if (halted := report["halted"]) is not None:
        stopped = f"Stopped before its end: {halted}; the rest was not scored."
        parts.append(f'<p class="notice">{text(stopped)}</p>')
    parts += [f'<p class="notice">{text(note)}</p>' for note in report["notes"]]
    return "".join(parts)


def details(arm: dict) -> str:
    """The description in full, the early stop's looks, and each case the arm was graded on."""
    inner = [f"<h3>Description</h3>{pre([arm['description']])}"]
    looks = arm["looks"]
    if looks:
        rows = [
            [
                *fields(look, ("agent", "cases", "wins", "losses")),
                f"{look['p_worse']:.3f}",
                f"{look['threshold']:.3f}",
                "stopped" if look["stopped"] else "went on",
            ]
            for look in looks
        ]
        headers = ["agent", "cases", "wins", "losses", "p (worse)", "stop below", "then"]
        inner.append("<h3>Early-stop looks on train</h3>" + simple_table(headers, rows, (1, 2, 3, 4, 5)))
    for part in PARTS:
        cases = arm["cases"].get(part, [])  # a part the arm never reached graded no case
        if cases:
            inner.append(f"<h3>{text(part)} cases</h3>" + simple_table(*case_rows(cases), numeric=(5,)))
    return deferred("details", "".join(inner))


def case_rows(cases: list[dict]) -> tuple[list[str], list[list[str]]]:
    headers = ["case", "agent", "expected", "observed", "verdict", "samples"]
    rows = []
    for case in cases:
        passed = case["passed"]
        if case["error"]:
            verdict = f"error: {case['error']}"
        else:  # null: errored or not run, never a score
            verdict = "pass" if passed is True else "fail" if passed is False else "not graded"
        expected, observed = (case[key] or "none" for key in ("expected", "observed"))
        samples = f"{case['samples_run']} ({case['cached_samples']} cached)"
        rows.append([case["id"], case["agent"], expected, observed, verdict, samples])
    return headers, rows


def candidates(report: dict) -> str:
    arms = [report["current"], *report["candidates"]]
    heads, cells = drawn(tune.CANDIDATES, arms)
    intro = (
        '<p class="muted">Scores: passed/graded, with the 95 % interval of the rate; an errored sample is '
        "never a score. Gain: paired with the current description on validation, at the confidence "
        "corrected for the candidates tried.</p>"
    )
    rows = [
        Row(shown, {"status": arm["status"]}, details(arm)) for arm, shown in zip(arms, cells, strict=True)
    ]
    numeric = indexes(heads, ("train", "validation", "spent"))
    table = cases_table("candidates", heads, rows, [("status", "Status")], numeric)
    return section("Candidates", intro + table, "candidate-list")


def final(report: dict) -> str:
    estimate = report["final"]
    if estimate is None:
        return section("Final split", "<p>Not graded: no candidate was chosen, so nothing is estimated.</p>")
    chosen = str(estimate["candidate"])
    rows = [
        ["current description", tune.score(estimate["current"])],
        [chosen, tune.score(estimate["chosen"])],
    ]
    intro = (
        '<p class="muted">Graded once, for the chosen candidate and the current description; '
        "it never selects.</p>"
    )
    gains = f"<p>Gain of {text(chosen)} on final (uncorrected): {text(tune.gain(estimate['gain']))}</p>"
    return section(
        "Final split: the honest estimate", intro + simple_table(["", "final"], rows, (1,)) + gains
    )


def diff(report: dict) -> str:
    change = report["diff"]
    if not change:
        return ""
    applied = "applied (--apply)" if report["applied"] else "not applied; pass --apply to write it"
    return section(f"SKILL.md diff ({applied})", pre(change.rstrip("\n").split("\n")), "diff")


def rejected(report: dict) -> str:
    rows = []
    for arm in report["candidates"]:
        description = clip(arm["description"], 120)
        rows += [[arm["label"], found["rule"], found["message"], description] for found in arm["rejected"]]
    if not rows:
        return ""
    intro = '<p class="muted">Structural\'s description rules refused these before a token was spent.</p>'
    listed = simple_table(["candidate", "rule", "why", "description"], rows)
    return section("Rejected candidates", f'{intro}<div class="wrap-cells">{listed}</div>', "rejected")


def how(report: dict) -> str:
    return collapsed("How it decides", pre([report["rule"]]))
