"""A lexical routing run's reports, from its JSON report. Long tables stop at a cap (a step summary holds
1 MiB); every case is in the JSON report."""

from __future__ import annotations

from harness.model import findings as finding
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import columns, routing
from harness.report.cases import PLACE, gate_words, listing_notes
from harness.report.cases import statuses as statuses  # the renderer the text format calls
from harness.report.columns import Column, field
from harness.report.format import number, percent, share
from harness.report.junit import JUnitCase
from harness.report.markdown import case_table, collapsed, findings_table, gate_line, section, table, titled

MEANINGS = {
    "correct_trigger": "the case's skill ranked within its top_k; on a false case naming an owner, the owner "
    "alone ranked first",
    "true_negative": "the skill of a false case without an owner did not rank first",
    "missed_trigger": "no skill shares a word with the prompt",
    "wrong_skill": "other skills ranked above the case's skill; on a false case, a skill other than its "
    "owner ranked first",
    "false_trigger": "the skill ranked first (ties included) for a prompt it should not answer",
    "error": "the case could not be ranked (its skill or owner is not in the room): not graded",
}


def markdown(report: dict) -> str:
    totals, meta = report["totals"], report["meta"]
    rank1 = totals["rank1"]
    lines = ["## Skill routing: lexical engine", "", f"> {report['approximation']}", ""]
    lines.append(
        f"**{share(totals['passed'], totals['graded'])} correct** across {totals['cases']} prompts"
        f"{_unranked(totals)} "
        f"ranked against {len(meta['room'])} skill(s) by name and description. "
        f"Rank-1 rate: **{share(rank1['rank1'], rank1['positives'])}** of positives rank their skill "
        f"first; top-k rate {share(rank1['top_k'], rank1['positives'])}."
    )
    lines += ["", gate_line(report["passed"], gate_words(report)), ""]
    lines += [*(f"> {note}" for note in meta["notes"]), ""] if meta["notes"] else []
    hint = bars_hint(report)
    lines += [hint, ""] if hint else []
    counted = {verdict: report["verdicts"][verdict] for verdict in MEANINGS}
    lines.append(table(["verdict", "cases", "meaning"], [(v, n, MEANINGS[v]) for v, n in counted.items()]))
    per_skill = columns.rows(PER_SKILL, columns.named(report["per_skill"], "skill"))
    lines += section("Per skill", columns.heads(PER_SKILL), per_skill, none=None)
    gaps = [Finding.from_dict(f) for f in report["findings"]]
    none = "None. Every positive shares a word with its skill's description."
    lines += titled("Vocabulary gaps", findings_table(gaps, none))
    failures = [
        (c["id"], c["verdict"], c["summary"], _top(c), clip(c["prompt"], 110))
        for c in report["cases"]
        if c["status"] == "fail"
    ]
    lines += section(
        "Routing failures", FAILURE_HEADS, failures, none="None. Every graded prompt ranked as expected."
    )
    lines += section(
        "Cases that could not be ranked (not graded)",
        ["case", "error"],
        [(c["id"], clip(c["error"], 300)) for c in report["cases"] if c["status"] == "error"],
    )
    lines += collapsed("All cases", case_table(CASES, report["cases"]))
    return "\n".join(lines) + "\n"


def headline(report: dict) -> str:
    totals = report["totals"]
    rank1 = totals["rank1"]
    return (
        f"lexical engine, an approximation of the agent that never replaces it: "
        f"{totals['passed']}/{totals['graded']} correct, rank-1 "
        f"{rank1['rank1']}/{rank1['positives']} of {totals['cases']} case(s){_unranked(totals)}; "
        f"{gate_words(report)}"
    )


def _unranked(totals: dict) -> str:
    """The cases that could not be ranked, so the fractions beside them add up; "" when none."""
    return f", {totals['errors']} could not be ranked: not graded" if totals["errors"] else ""


def next_step(report: dict) -> str:
    """The listing notes, then the bars a first run wants (see bars_hint)."""
    lines = [*listing_notes(report["meta"]), bars_hint(report)]
    return "\n".join(line for line in lines if line)


def bars_hint(report: dict) -> str:
    """When the accuracy bar failed on near misses their own skill took: the bars a first run wants."""
    if report["passed"] or not report["meta"]["min_accuracy"]:
        return ""
    near = sum(1 for c in report["cases"] if c["status"] == "fail" and near_miss_taken(c))
    if not near:
        return ""
    return (
        f"{near} of the misses are near misses their own skill ranked first: they share its words by "
        "design, so a lexical run rarely meets --min-accuracy 1; `--min-accuracy 0 --min-rank1 0.8` "
        "reports them and gates on the rank-1 rate instead."
    )


def near_miss_taken(case: dict) -> bool:
    return case["category"] == "near_miss" and not case["owner"] and case["rank"] == 1


def findings(report: dict) -> list[Finding]:
    """Each case that did not pass, at its dataset line (a vocabulary gap says so); warnings if it passed."""
    gaps = {(f["path"], f.get("line")): Finding.from_dict(f) for f in report["findings"]}
    out = []
    for c in report["cases"]:
        if c["passed"]:
            continue
        if c["status"] == "error":
            message = f"lexical routing case `{c['id']}` could not be ranked: {c['error']}"
            out.append(finding.warning("routing", c["source"], message, c["line"]))
        elif c["vocabulary_gap"] and (c["source"], c["line"]) in gaps:
            out.append(gaps[(c["source"], c["line"])])
        else:
            message = f"lexical routing case `{c['id']}`: {c['summary']} ({c['verdict']})"
            out.append(finding.error("routing", c["source"], message, c["line"]))
    return out if not report["passed"] else finding.as_warnings(out)


def junit(report: dict) -> list[JUnitCase]:
    return [
        JUnitCase(
            classname=f"routing.lexical.{c['skill'] or 'shared'}",
            name=c["id"],
            error=c["error"] if c["status"] == "error" else None,
            failure=None if c["passed"] or c["status"] == "error" else f"{c['summary']} ({c['verdict']})",
            output=_top(c),
        )
        for c in report["cases"]
    ]


def _rank(case: dict) -> str:
    """The case skill's rank; a skill sharing no word with the prompt has none worth a number."""
    return str(case["rank"]) if case["score"] > 0 else "-"


def _top(case: dict) -> str:
    """`skill 0.42: word, word; ...` for the best three, or why there are none."""
    if not case["top"]:
        return "no skill shares a word" if case["status"] != "error" else "not ranked"
    return "; ".join(
        f"{m['skill']} {number(m['score'], '.2f')}: {', '.join(m['shared'])}" for m in case["top"]
    )


TOP = "top three (score: shared words)"
FAILURE_HEADS = ["case", "verdict", "what happened", TOP, "prompt"]
# The per-skill table and the case table ("All cases" in the markdown, "Cases" on the page).
PER_SKILL: list[Column] = [
    ("skill", field("skill")),
    *((head, field(key)) for head, key in (("positives", "positives"), ("rank 1", "rank1"))),
    ("in top k", field("top_k")),
    ("rank-1 rate", lambda row: percent(row["rank1_rate"])),
    ("top-k rate", lambda row: percent(row["top_k_rate"])),
    ("first when not expected", field("fired_when_not_expected")),
]
# A case that could not be ranked has the verdict error: it observed nothing ("—"), as an errored agent run.
CASES: list[Column] = [*routing.DECIDED, ("rank", _rank), (TOP, _top), *PLACE]
