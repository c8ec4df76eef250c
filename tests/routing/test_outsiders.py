"""The catalog skills outside the room, offline: a near miss is pinned on an outside skill only when
that skill ranks first over the whole catalog, an `owner` naming no skill is sent back to the case, and
the notes name the left-out skills and the owners outside."""

from __future__ import annotations

from pathlib import Path

from harness.model import repo as repo_mod
from harness.model.dataset import Case
from harness.routing import outsiders
from harness.routing.lexical import LexicalEngine
from tests.support.select import skill

ROOM = {"pdf": "Merge, split and fill PDF files."}
OUTSIDE = {"pptx": "Build slide decks and presentations from bullet points.", "docx": "Edit Word documents."}


def near_miss(case_id: str, prompt: str) -> Case:
    return Case(case_id, prompt, False, "pdf", "pdf/evals/evals.json", 3)


def test_a_near_miss_is_pinned_only_on_an_outside_skill_that_ranks_first():
    cases = [
        near_miss("deck", "Turn the PDF of these bullet points into a slide deck."),
        near_miss("plain", "Merge the PDF files."),  # nothing outside competes
    ]
    outcomes = LexicalEngine(ROOM).grade_all(cases)
    assert [o.verdict for o in outcomes] == ["false_trigger", "false_trigger"]
    fix = lambda names: f"`--routing-room catalog` puts {names[0]} in"  # noqa: E731
    outsiders.near_misses(outcomes, ROOM, OUTSIDE, fix)
    assert outcomes[0].outside.startswith("`pptx`, outside the room, ranks first over the whole catalog")
    assert outcomes[0].summary.endswith("`--routing-room catalog` puts pptx in")
    assert outcomes[1].outside == ""


def test_an_owner_that_is_no_skill_sends_the_user_to_the_case(tmp_path: Path):
    skill(tmp_path, "skills/pdf")
    repo = repo_mod.discover(tmp_path, ["skills/*"])
    fix = outsiders.fixer(["all"], ["pdf"], repo)
    assert fix(["docx-typo"]) == "docx-typo is no skill under --skills-dir skills/*: fix the case's `owner`"


def test_the_notes_name_the_left_out_skills_and_the_owners_outside(tmp_path: Path):
    skill(tmp_path, "skills/pdf")
    skill(tmp_path, "skills/docx", evals=None)
    repo = repo_mod.discover(tmp_path, ["skills/*"])
    owned = Case("own", "Edit the Word file.", False, "pdf", "pdf/evals/evals.json", 4, owner="docx")
    notes = outsiders.notes(["pdf"], ["pdf"], repo, [owned])
    assert notes[0].startswith("1 of the catalog's 2 skill(s) were left out of the room: docx")
    assert notes[1] == (
        "1 negative case(s) name an `owner` outside the room (docx); `--routing-room pdf,docx` installs it."
    )
    assert outsiders.notes(["catalog"], ["docx", "pdf"], repo, [owned]) == []
