"""A routing report says what the agent's model was shown of the room (predicted from the measured
listing rule), and a miss whose expected skill was not listed in full reads as a listing-budget miss:
the real claude CLI against the scripted API, over a room past claude's budget."""

from __future__ import annotations

import pytest

from harness.model.listing import listing_rule
from harness.routing import listed
from tests.support.catalogs import make_catalog
from tests.support.routing import CaseRouter, route, routing_env

pytestmark = pytest.mark.usefixtures("clean_runs")


def test_the_report_records_the_listing_and_a_budget_miss_reads_as_one(
    fake_api, claude_bin, tmp_path, kept_probes
):
    repo = tmp_path / "repo"
    make_catalog(repo, 40, 1000)  # 40,559 characters of listing: claude lists skill-029 on by name only
    fake_api.script(CaseRouter({}))  # no skill ever fires: both cases are misses
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    run = route(
        repo, env, "--skills-dir", "*", "--routing-room", "all", "--skip-preflight", "--no-canary",
        "--only", "skill-000-pos-1,skill-039-pos-1",
    )  # fmt: skip
    assert run.code == 1, run.stderr
    shown = run.report["meta"]["listing"]
    assert shown["source"] == "predicted" and shown["runtime"] == "claude" and shown["budget"] == 30_000
    assert shown["skills"]["skill-000"] == "listed" and shown["skills"]["skill-039"] == "name-only"
    assert sum(state == "name-only" for state in shown["skills"].values()) == 11
    assert (
        "> Listing (predicted from claude 2.1.332's measured rule): of 40 room skills, 29 were" in run.stdout
    )
    assert run.report["totals"]["passed"] == 0 and run.report["totals"]["graded"] == 2  # still misses
    text = route(
        repo,
        env,
        "--skills-dir",
        "*",
        "--routing-room",
        "all",
        "--skip-preflight",
        "--no-canary",
        "--only",
        "skill-000-pos-1,skill-039-pos-1",
        "--format",
        "text",
    ).stdout  # fmt: skip  (the same cases again, from the cache)
    missed = {line.split("`")[1]: line for line in text.splitlines() if "routing case `" in line}
    assert (
        "expected skill-039 -> got no skill; skill-039 not listed (listing budget: by name only)"
        in (missed["skill-039-pos-1"])
    )
    assert "did not show its model `skill-039`'s whole description" in missed["skill-039-pos-1"]
    assert "listing budget" not in missed["skill-000-pos-1"]  # listed in full: an ordinary miss
    assert "Listing (predicted from claude 2.1.332" in text  # the line under the summary


def test_the_listing_sentence_is_empty_when_every_skill_is_listed_in_full():
    shown = listed.room_listing(listing_rule("claude"), {"a": "does a", "b": "does b"}, None)
    assert listed.sentence(shown) == "" and listed.why_missed(shown, "a") == ""
    assert listed.to_json(shown)["skills"] == {"a": "listed", "b": "listed"}


def test_a_skill_copilot_names_past_its_budget_and_one_codex_cut_say_which():
    room = {f"s{n:02d}": "w" * 1000 for n in range(20)}
    copilot = listed.room_listing(listing_rule("copilot"), room, None)
    assert listed.why_missed(copilot, "s19") == "s19 not listed (listing budget: by name only)"
    assert listed.to_json(copilot)["skills"]["s19"] == "name-only"
    too_long = listed.room_listing(listing_rule("copilot"), {"big": "w" * 1025, "small": "w"}, None)
    assert listed.why_missed(too_long, "big") == "big not listed (listing budget: left out)"
    codex = listed.room_listing(listing_rule("codex"), {f"s{n:02d}": "w " * 500 for n in range(40)}, None)
    assert listed.why_missed(codex, "s00") == "s00 not listed in full (listing budget: cut short)"
    assert "40 cut short (s00, s01" in listed.sentence(codex)
