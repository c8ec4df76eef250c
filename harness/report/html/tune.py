"""The tune page: the verdict, split and spend; each candidate's scores, corrected gain and why it stopped;
the final split's estimate; the SKILL.md diff; the rejected candidates; how it decides."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at, objects_at
from harness.printable import clip
from harness.report import tune
from harness.report.format import DASH, dollars
from harness.report.html.common import drawn, fields, indexes
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, cases_table, collapsed, deferred, pre

PARTS = ("train", "validation", "final")  # the split's parts, in the order a candidate meets them


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), candidates(report), final(report), diff(report), rejected(report), how(report)]


def head(report: dict) -> str:
    split, spend = object_at(report, "split"), object_at(report, "spend")
    counts = object_at(split, "counts")
    sizes = " · ".join(
        f"{part} {sum(v for v in object_at(counts, part).values() if isinstance(v, int))}" for part in PARTS
    )
    chosen = report.get("chosen")
    tiles = [
        ("chosen", chosen if isinstance(chosen, str) else "none beat noise"),
        ("candidates tried", str(report.get("tried", 0))),
        ("split seed", str(split.get("seed", "?"))),
        ("cases per part", sizes),
        ("on proposals", dollars(spend.get("proposal_cost_usd"), DASH)),
    ]
    cached = (
        f"{spend.get('cached_samples', 0)} of {spend.get('samples_run', 0)} sample(s) run came from the cache"
    )
    gate = str(report.get("verdict") or "no verdict")
    parts = [header(report, tiles, gate, spend.get("cost_usd"), cached)]
    halted = report.get("halted")
    if isinstance(halted, str):
        parts.append(
            f'<p class="notice">Stopped before its end: {text(halted)}; the rest was not scored.</p>'
        )
    parts += [f'<p class="notice">{text(note)}</p>' for note in array_at(report, "notes")]
    return "".join(parts)


def details(arm: dict) -> str:
    """The description in full, the early stop's looks, and each case the arm was graded on."""
    inner = [f"<h3>Description</h3>{pre([str(arm.get('description', ''))])}"]
    looks = objects_at(arm, "looks")
    if looks:
        rows = [
            [
                *fields(look, ("agent", "cases", "wins", "losses"), ""),
                f"{look.get('p_worse', 0):.3f}",
                f"{look.get('threshold', 0):.3f}",
                "stopped" if look.get("stopped") else "went on",
            ]
            for look in looks
        ]
        headers = ["agent", "cases", "wins", "losses", "p (worse)", "stop below", "then"]
        inner.append("<h3>Early-stop looks on train</h3>" + simple_table(headers, rows, (1, 2, 3, 4, 5)))
    graded = object_at(arm, "cases")
    for part in PARTS:
        cases = objects_at(graded, part)
        if cases:
            inner.append(f"<h3>{text(part)} cases</h3>" + simple_table(*case_rows(cases), numeric=(5,)))
    return deferred("details", "".join(inner))


def case_rows(cases: list[dict]) -> tuple[list[str], list[list[str]]]:
    headers = ["case", "agent", "expected", "observed", "verdict", "samples"]
    rows = []
    for case in cases:
        passed = case.get("passed")
        if case.get("error"):
            verdict = f"error: {case['error']}"
        else:  # null: errored or not run, never a score
            verdict = "pass" if passed is True else "fail" if passed is False else "not graded"
        ident, agent = str(case.get("id", "?")), str(case.get("agent", ""))
        expected, observed = (str(case.get(key) or "none") for key in ("expected", "observed"))
        samples = f"{case.get('samples_run', 0)} ({case.get('cached_samples', 0)} cached)"
        rows.append([ident, agent, expected, observed, verdict, samples])
    return headers, rows


def candidates(report: dict) -> str:
    arms = [a for a in [report.get("current"), *array_at(report, "candidates")] if isinstance(a, dict)]
    if not arms:
        return ""
    heads, cells = drawn(tune.CANDIDATES, arms)
    intro = (
        '<p class="muted">Scores: passed/graded, with the 95 % interval of the rate; an errored sample is '
        "never a score. Gain: paired with the current description on validation, at the confidence "
        "corrected for the candidates tried.</p>"
    )
    rows = [
        Row(shown, {"status": str(arm.get("status", "?"))}, details(arm))
        for arm, shown in zip(arms, cells, strict=True)
    ]
    numeric = indexes(heads, ("train", "validation", "spent"))
    table = cases_table("candidates", heads, rows, [("status", "Status")], numeric)
    return section("Candidates", intro + table, "candidate-list")


def final(report: dict) -> str:
    estimate = report.get("final")
    if not isinstance(estimate, dict):
        return section("Final split", "<p>Not graded: no candidate was chosen, so nothing is estimated.</p>")
    chosen = str(estimate.get("candidate", "chosen"))
    rows = [
        ["current description", tune.score(estimate.get("current"))],
        [chosen, tune.score(estimate.get("chosen"))],
    ]
    intro = (
        '<p class="muted">Graded once, for the chosen candidate and the current description; '
        "it never selects.</p>"
    )
    gains = f"<p>Gain of {text(chosen)} on final (uncorrected): {text(tune.gain(estimate.get('gain')))}</p>"
    return section(
        "Final split: the honest estimate", intro + simple_table(["", "final"], rows, (1,)) + gains
    )


def diff(report: dict) -> str:
    change = report.get("diff")
    if not isinstance(change, str) or not change:
        return ""
    applied = "applied (--apply)" if report.get("applied") else "not applied; pass --apply to write it"
    return section(f"SKILL.md diff ({applied})", pre(change.rstrip("\n").split("\n")), "diff")


def rejected(report: dict) -> str:
    rows = []
    for arm in objects_at(report, "candidates"):
        label, description = str(arm.get("label", "?")), clip(str(arm.get("description", "")), 120)
        for finding in objects_at(arm, "rejected"):
            rule, message = str(finding.get("rule", "?")), str(finding.get("message", ""))
            rows.append([label, rule, message, description])
    if not rows:
        return ""
    intro = '<p class="muted">Structural\'s description rules refused these before a token was spent.</p>'
    listed = simple_table(["candidate", "rule", "why", "description"], rows)
    return section("Rejected candidates", f'{intro}<div class="wrap-cells">{listed}</div>', "rejected")


def how(report: dict) -> str:
    rule = report.get("rule")
    return collapsed("How it decides", pre([rule])) if isinstance(rule, str) else ""
