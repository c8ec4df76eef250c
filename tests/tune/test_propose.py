"""The proposal prompt and the reading of its answer."""

from __future__ import annotations

from harness.tune.propose import Failure, build_prompt, parse_answer


def test_the_prompt_holds_the_description_the_failures_and_the_neighbours():
    prompt = build_prompt(
        "alpha",
        "Files invoices.",
        [Failure("Here is my receipt", "alpha", None), Failure("weather in Oslo", None, "alpha")],
        {"beta": "Answers ledger questions."},
        3,
    )
    assert "> Files invoices." in prompt
    assert "'Here is my receipt': alpha -> no skill" in prompt
    assert "'weather in Oslo': no skill -> alpha" in prompt
    assert "- `beta`: Answers ledger questions." in prompt
    assert "Answer with only a JSON array of 3 strings." in prompt


def test_an_answer_is_the_json_array_in_it_deduplicated_and_cut_to_the_count():
    texts, problem = parse_answer('Here:\n```json\n["a", "b", "a", "c"]\n```', 2)
    assert (texts, problem) == (["a", "b"], None)


def test_an_answer_without_descriptions_says_why():
    assert parse_answer("no idea", 2) == ([], "the proposal answer held no JSON array")
    assert parse_answer("[1, 2]", 2)[1] == "the proposal answer's array held no description string"
    assert parse_answer("[oops]", 2)[1].startswith("the proposal answer's array is not valid JSON")
