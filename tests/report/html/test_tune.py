"""The tune page from reports real runs wrote (the claude CLI against the scripted API, and the lexical
engine offline): the verdict, split and spend up top, every candidate's scores with intervals and why
it stopped, the final estimate, the diff, the rejected candidates; and hostile text kept inert."""

from __future__ import annotations

import copy

import pytest

from harness import schemas
from harness.report import html
from tests.report.html.pagetext import Parsed
from tests.support.reports import HOSTILE

# One worker builds the real reports (session fixtures) for every page test: see conftest.py.
pytestmark = pytest.mark.xdist_group("report-pages")


def test_the_tune_page_heads_with_the_choice_and_lists_every_candidate(tune_reports):
    report = tune_reports["tune"]
    assert schemas.errors("tune-report", report) == []
    page = html.render(report)
    text = Parsed(page).text
    assert "<title>skillscope tune: pass</title>" in page
    assert f"{report['verdict']}" in text and "proposed-1.1chosen" in text
    counts = report["split"]["counts"]
    sizes = " · ".join(f"{p} {sum(counts[p].values())}" for p in ("train", "validation", "final"))
    assert f"{report['split']['seed']}split seed" in text and f"{sizes}cases per part" in text
    assert f"cost: ${report['spend']['cost_usd']:.4f}" in text
    # Every arm, the current description first, with its status and why its scoring ended there.
    labels = ["current"] + [c["label"] for c in report["candidates"]]
    assert page.count('<tbody class="case"') == len(labels)
    for arm in [report["current"], *report["candidates"]]:
        assert html.shell.text(arm["reason"] or "") in page
    stopped = next(c for c in report["candidates"] if c["status"] == "stopped-early")
    train = stopped["scores"]["train"]
    low, high = train["ci95"]
    rate = f"{train['accuracy'] * 100:.1f}% [{low * 100:.0f}–{high * 100:.0f}%]"
    assert f"{train['passed']}/{train['graded']} ({rate})" in text and "Early-stop looks on train" in text
    stealer = next(c for c in report["candidates"] if c["status"] == "scored")
    gain = stealer["validation"]["claude"]
    assert f"{gain['gain']:+.3f} [{gain['interval'][0]:+.3f}, {gain['interval'][1]:+.3f}]" in text
    assert "a neighbour's case regressed: beta-ledger-" in text
    # The final split, graded once: current against chosen.
    final = report["final"]
    assert "Final split: the honest estimate" in text
    assert f"current description{final['current']['passed']}/{final['current']['graded']} (" in text
    assert f"proposed-1.1{final['chosen']['passed']}/{final['chosen']['graded']} (" in text
    # Rejected before a token was spent, with the rule.
    assert "Rejected candidates" in text and "file-3description-too-long" in text


def test_the_diff_is_shown_escaped_in_a_pre(tune_reports):
    page = html.render(tune_reports["tune"])
    start = page.index('<section id="diff">')
    diff = page[start : page.index("</section>", start)]
    assert "SKILL.md diff (not applied; pass --apply to write it)" in diff
    assert "<pre>--- a/alpha/SKILL.md\n+++ b/alpha/SKILL.md\n" in diff
    assert "&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;" in diff
    parsed = Parsed(page)
    assert parsed.tags.count("script") == 1 and "<script>alert" not in page
    assert "\u202e" not in page and "\x1b" not in page


def test_when_none_beats_noise_the_page_says_so_and_estimates_nothing(tune_reports):
    report = tune_reports["tune-lexical"]
    assert schemas.errors("tune-report", report) == [] and report["chosen"] is None
    text = Parsed(html.render(report)).text
    assert (
        "none beat noisechosen" in text and "no candidate beat the current description beyond noise" in text
    )
    assert "Not graded: no candidate was chosen, so nothing is estimated." in text
    assert "SKILL.md diff" not in text and "$0.0000" in text


def test_hostile_text_in_every_field_stays_text(tune_reports):
    report = copy.deepcopy(tune_reports["tune"])
    arm = report["candidates"][0]
    arm["label"] = arm["reason"] = arm["description"] = HOSTILE
    arm["looks"][0]["agent"] = HOSTILE
    arm["cases"]["train"][0]["id"] = arm["cases"]["train"][0]["observed"] = HOSTILE
    report["candidates"][2]["rejected"][0]["message"] = HOSTILE
    report["verdict"], report["rule"], report["halted"] = HOSTILE, HOSTILE, HOSTILE
    report["notes"] = [HOSTILE]
    report["final"]["candidate"] = report["chosen"] = HOSTILE
    page = html.render(report)
    parsed = Parsed(page)
    assert parsed.tags.count("script") == 1 and "<script>alert" not in page
    assert "\u202e" not in page and "\x1b" not in page
    assert page.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") >= 10
    assert "Stopped before its end: " in parsed.text
