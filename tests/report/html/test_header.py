"""harness.report.html.header: status (interrupted over the status word), gate, figures, and what
ran, when, how long, at what cost, how much from the cache."""

from __future__ import annotations

from harness.report.html.header import agent_facts, duration, header, status_word
from tests.report.html.pagetext import Parsed
from tests.support.saved_reports import load


def report(**meta) -> dict:
    return {
        "command": "routing",
        "status": "fail",
        "harness_version": "0.1.0",
        "elapsed_s": 75.2,
        "started_at": "2026-01-02T03:04:05+00:00",
        "repo": "/repo",
        "meta": meta,
    }


def test_an_interrupted_run_says_so_first_and_how_much_is_missing():
    head = report(interrupted="SIGINT", unfinished=55, agent="claude", agent_version="2.1.332", model=None)
    assert status_word(head) == "interrupted"
    text = Parsed(header(head, [("accuracy", "0.714")], "10/14 correct", 0.5, "3 of 14 samples")).text
    assert "interrupted" in text and "55 selected case(s) did not" in text
    assert "agent: claude 2.1.332" in text and "model: the CLI's default" in text
    assert "took: 1 min 15 s" in text and "cost: $0.5000" in text
    assert "from the result cache: 3 of 14 samples" in text and "10/14 correct" in text


def test_the_start_time_is_one_token_that_never_wraps_mid_date():
    html = header(report(agent="claude", agent_version="2.1.332"), [], "ok")
    assert '<time datetime="2026-01-02T03:04:05+00:00">2026-01-02T03:04:05+00:00</time>' in html


def test_the_routing_accuracy_tile_names_its_bar():
    from harness.report.html.routing import head

    saved = load("routing")
    totals = {**saved["totals"], "accuracy": 0.615, "passed": 8, "graded": 13}
    shown = Parsed(head({**saved, "meta": {**saved["meta"], "min_accuracy": 1.0}, "totals": totals})).text
    assert "61.5%, bar 100.0%" in shown and "(1)" not in shown


def test_agent_facts_read_both_meta_shapes():
    assert agent_facts({"agent": "codex", "agent_version": "1", "model": "m"}) == ("codex", "1", "m")
    nested = {"agent": {"runtime": "claude", "version": "2", "model": None}}
    assert agent_facts(nested) == ("claude", "2", None)
    assert duration(3 * 3600 + 120) == "3 h 2 min"


def test_the_routing_canary_is_a_fact_of_the_head_when_one_ran():
    blocked = report(agent="codex", agent_version="0.1", model="m", canary={"status": "not-activated"})
    text = Parsed(header(blocked, [], "the harness cannot see skill activations on codex 0.1")).text
    assert "canary: not-activated" in text and "the harness cannot see skill activations" in text
    never = Parsed(header(report(agent="claude", canary=None), [], None)).text
    assert "canary:" not in never
    matrix = {**report(), "command": "routing-matrix", "agents": []}  # no meta: the legs' rows say what ran
    del matrix["meta"]
    several = Parsed(header(matrix, [], None, canary="claude activated; codex cached")).text
    assert "canary: claude activated; codex cached" in several
