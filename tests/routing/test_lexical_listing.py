"""The lexical engine ranks what the modelled agent's model is shown of the room: a skill its listing
leaves out is never chosen, a name-only one is matched on its name, a cut one on what survives."""

from __future__ import annotations

import json
from pathlib import Path

from harness.model.dataset import Case
from harness.model.listing import listing_rule
from harness.routing import listed, verdicts
from harness.routing.lexical import LexicalEngine
from tests.support.catalogs import make_catalog
from tests.support.helpers import run_cli


def positive(skill: str, prompt: str) -> Case:
    return Case(id=f"{skill}-words", prompt=prompt, should_trigger=True, skill=skill, source="evals.json")


def words_of(description: str, first: int = 6) -> str:
    return " ".join(description.split()[:first])


def lexical_run(repo: Path, *extra: str):
    output = repo.parent / "lexical.json"
    args = ["routing", "--engine", "lexical", "--repo", str(repo), "--skills-dir", "*"]
    run = run_cli([*args, "--routing-room", "all", "--output", str(output), *extra], cwd=repo, environ={})
    return run, json.loads(output.read_text(encoding="utf-8")) if output.exists() else None


def test_a_prompt_in_a_name_only_skills_words_is_no_longer_routed_to_it(tmp_path: Path):
    repo = tmp_path / "repo"
    made = make_catalog(repo, 40, 1000)  # past claude's budget: skill-029 on are listed by name only
    cases = {
        "skill-039-words": words_of(made["skill-039"]),  # name-only: its description's words are unseen
        "skill-000-words": words_of(made["skill-000"]),  # listed in full
    }
    for case_id, prompt in cases.items():
        dataset = repo / case_id.removesuffix("-words") / "evals" / "evals.json"
        data = json.loads(dataset.read_text(encoding="utf-8"))
        data["evaluations"].append({"id": case_id, "skill_should_trigger": True, "prompt": prompt})
        dataset.write_text(json.dumps(data), encoding="utf-8")
    # Without the listing (as before), the description's words route the prompt to skill-039.
    before = LexicalEngine(made).grade(positive("skill-039", cases["skill-039-words"]))
    assert before.verdict == verdicts.CORRECT_TRIGGER and before.observed == "skill-039"

    run, report = lexical_run(repo, "--only", "skill-039-words,skill-000-words", "--min-accuracy", "0")
    assert run.code == 0 and report, run.stderr
    graded = {case["id"]: case for case in report["cases"]}
    assert graded["skill-000-words"]["verdict"] == "correct_trigger"
    assert graded["skill-039-words"]["verdict"] == "missed_trigger"
    assert graded["skill-039-words"]["observed"] is None and not graded["skill-039-words"]["vocabulary_gap"]
    shown = report["meta"]["listing"]
    assert shown["runtime"] == "claude" and shown["source"] == "predicted" and shown["budget"] == 30_000
    assert shown["skills"]["skill-000"] == "listed" and shown["skills"]["skill-039"] == "name-only"
    [note] = report["meta"]["notes"]
    assert note.startswith("Listing (predicted from claude 2.1.332's measured rule): of 40 room skills, 29")
    assert report["findings"] == []  # not a vocabulary gap: the description was never shown

    text = lexical_run(repo, "--only", "skill-039-words", "--min-accuracy", "0", "--format", "text")[0]
    assert "Listing (predicted from claude 2.1.332" in text.stdout
    assert "skill-039 not listed (listing budget: by name only)" in text.stdout


def test_a_name_only_skill_still_matches_on_its_name():
    made = {f"skill-{n:03d}": "w " * 500 for n in range(40)}
    made["zebra-stripes"] = "painting " * 110  # sorted last: listed by name only
    shown = listed.room_listing(listing_rule("claude"), made, None)
    assert shown.state_of("zebra-stripes") == "name-only"
    engine = LexicalEngine(listed.surviving(shown), shown)
    assert engine.grade(positive("zebra-stripes", "draw zebra stripes")).observed == "zebra-stripes"
    missed = engine.grade(positive("zebra-stripes", "painting the fence"))
    assert missed.verdict == verdicts.MISSED_TRIGGER
    assert missed.summary.endswith("; zebra-stripes not listed (listing budget: by name only)")


def test_a_skill_the_listing_leaves_out_is_never_chosen_and_a_cut_one_keeps_its_first_words():
    room = {f"s{n:02d}": f"alpha{n} " + "filler " * 140 + f"omega{n}" for n in range(20)}
    room["s20"] = "alpha20 " + "x" * 1030  # over copilot's limit for one description: not loaded
    copilot = listed.room_listing(listing_rule("copilot"), room, None)
    assert copilot.state_of("s19") == "name-only" and copilot.state_of("s20") == "dropped"
    engine = LexicalEngine(listed.surviving(copilot), copilot)
    assert engine.grade(positive("s20", "s20 alpha20")).observed is None  # not even its name
    codex_room = {f"s{n:02d}": f"alpha{n} " + "filler " * 140 + f"omega{n}" for n in range(40)}
    codex = listed.room_listing(listing_rule("codex"), codex_room, None)
    assert codex.state_of("s00") == "truncated"
    engine = LexicalEngine(listed.surviving(codex), codex)
    assert engine.grade(positive("s00", "alpha0")).verdict == verdicts.CORRECT_TRIGGER
    assert engine.grade(positive("s00", "omega0")).verdict == verdicts.MISSED_TRIGGER  # cut off


def test_under_budget_the_listing_changes_nothing():
    room = {"pdf-merge": "Merge PDF files into one.", "csv-profile": "Profile a CSV file's columns."}
    shown = listed.room_listing(listing_rule("claude"), room, None)
    assert listed.surviving(shown) == room and listed.sentence(shown) == ""


def test_the_agent_flag_picks_the_modelled_listing_and_takes_one_agent(tmp_path: Path):
    repo = tmp_path / "repo"
    made = make_catalog(repo, 40, 1000)
    dataset = repo / "skill-039" / "evals" / "evals.json"
    data = json.loads(dataset.read_text(encoding="utf-8"))
    prompt = words_of(made["skill-039"])
    data["evaluations"].append({"id": "skill-039-words", "skill_should_trigger": True, "prompt": prompt})
    dataset.write_text(json.dumps(data), encoding="utf-8")
    run, report = lexical_run(repo, "--agent", "gemini", "--only", "skill-039-words")
    assert run.code == 0 and report, run.stderr  # gemini lists every description in full
    assert report["meta"]["listing"]["runtime"] == "gemini" and report["meta"]["notes"] == []
    assert report["cases"][0]["verdict"] == "correct_trigger"
    run, _ = lexical_run(repo, "--agent", "claude,codex", "--only", "skill-039-words")
    assert run.code == 2 and "the lexical engine models one agent's listing" in run.stderr
