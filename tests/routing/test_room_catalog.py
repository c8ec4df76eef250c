"""A room of the whole catalog on the agent engine: a skill without a dataset is installed and listed
beside the others and adds no case; a room that leaves catalog skills out says which, and a negative
whose `owner` is outside it names the one flag that installs it, which then works. The real claude
CLI against the scripted API."""

from __future__ import annotations

import pytest

from tests.fakeapi import replies as R
from tests.support.helpers import make_skill
from tests.support.routing import CaseRouter, route, routing_env, valid

pytestmark = pytest.mark.usefixtures("clean_runs")


@pytest.fixture
def partial(tmp_path):
    """Three skills, one with a dataset: `pdf`, whose second negative names `docx` as its owner."""
    repo = tmp_path / "repo"
    dataset = {
        "evaluations": [
            {"id": "pdf-pos-1", "prompt": "Merge these two pdf files.", "skill_should_trigger": True},
            {"id": "pdf-pos-2", "prompt": "Split this pdf by page.", "skill_should_trigger": True},
            {
                "id": "pdf-pos-3",
                "prompt": "Fill in the pdf form.",
                "skill_should_trigger": True,
                "expected_behavior": ["fills the form"],
            },
            {"id": "pdf-neg-1", "prompt": "Build a slide deck.", "skill_should_trigger": False},
            {
                "id": "pdf-neg-2",
                "prompt": "Write a word document with tracked changes.",
                "skill_should_trigger": False,
                "owner": "docx",
            },
        ]
    }
    make_skill(repo, "pdf", evals=dataset)
    make_skill(repo, "docx", evals=None)
    make_skill(repo, "pptx", evals=None)
    return repo


def test_a_catalog_room_installs_and_lists_skills_without_a_dataset(
    fake_api, claude_bin, partial, tmp_path, kept_probes
):
    fake_api.script(CaseRouter({"Merge these two pdf": R.skill("pdf"), "tracked changes": R.skill("docx")}))
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    run = route(
        partial, env, "--routing-room", "catalog", "--skip-preflight", "--no-canary",
        "--only", "pdf-pos-1,pdf-neg-2",
    )  # fmt: skip
    report = run.report
    assert valid(report) == []
    assert report["meta"]["room"] == ["docx", "pdf", "pptx"]
    assert report["session_skills"]["verified"] and report["session_skills"]["missing"] == []
    assert run.verdicts()["pdf-pos-1"] == "correct_trigger"
    assert run.case("pdf-neg-2")["observed"] == "docx"  # installed, so the agent could choose it
    listings = [request.skill_listing for request in fake_api.requests if request.skill_listing]
    assert listings and all({"docx", "pdf", "pptx"} <= set(listing) for listing in listings)
    assert {case["skill"] for case in report["cases"]} == {"pdf"}  # docx and pptx add no case
    assert not any("left out of the room" in note for note in report["meta"]["notes"])


def test_a_room_of_the_dataset_skills_says_what_it_left_out_and_how_to_put_it_in(
    fake_api, claude_bin, partial, tmp_path, kept_probes
):
    fake_api.script(CaseRouter({"tracked changes": R.skill("docx")}))
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    run = route(
        partial, env, "--routing-room", "all", "--skip-preflight", "--no-canary",
        "--only", "pdf-neg-1,pdf-neg-2",
    )  # fmt: skip
    notes = run.report["meta"]["notes"]
    assert (
        "2 of the catalog's 3 skill(s) were left out of the room: docx, pptx; `--routing-room catalog` "
        "installs every skill under --skills-dir." in notes
    )
    owner_note = next(note for note in notes if "`owner` outside the room" in note)
    assert "(docx)" in owner_note and "`--routing-room catalog` installs it" in owner_note
    assert "left out of the room: docx, pptx" in run.stdout  # the summary under the headline
    listings = [request.skill_listing for request in fake_api.requests if request.skill_listing]
    assert listings and all("docx" not in listing for listing in listings)
    # The negative whose owner is outside is never run, and is not graded: it names the same flag.
    assert not any("tracked changes" in request.prompt for request in fake_api.requests)
    outside = run.case("pdf-neg-2")
    assert outside["verdict"] == "error" and outside["samples"] == []
    assert outside["error"].endswith("`--routing-room catalog` puts it in")
    # The flag the note names works: the room grows to the catalog, the note goes and the owner fires.
    fixed = route(
        partial, env, "--routing-room", "catalog", "--skip-preflight", "--no-canary", "--only", "pdf-neg-2"
    )
    assert fixed.report["meta"]["room"] == ["docx", "pdf", "pptx"]
    assert fixed.case("pdf-neg-2")["verdict"] == "correct_trigger"
    assert not any("outside the room" in note for note in fixed.report["meta"]["notes"])
