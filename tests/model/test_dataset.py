"""harness.model.dataset: evals.json into Cases, every problem a finding with the case's line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import schemas
from harness.memo import Memo
from harness.model import dataset
from harness.model.dataset import Dataset
from tests.support.examples import examples


def parse(text: str, skill: str | None = "demo", extended: bool = False) -> Dataset:
    return dataset.parse(text, Dataset(rel="demo/evals/evals.json", skill=skill, extended=extended))


def one_per_line(*cases: dict, **top: object) -> str:
    head = "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in top.items())
    body = ",\n".join(f"    {json.dumps(c)}" for c in cases)
    return "{\n" + head + '  "evaluations": [\n' + body + "\n  ]\n}\n"


POSITIVE = {
    "id": "p1",
    "prompt": " Fix my CSV. ",
    "skill_should_trigger": True,
    "expected_behavior": ["Detects the delimiter"],
    "workspace": "fixtures",
}
NEGATIVE = {"id": "n1", "prompt": "Write a poem.", "skill_should_trigger": False, "note": "unrelated"}


def test_cases_carry_fields_lines_and_derived_categories() -> None:
    data = parse(one_per_line(POSITIVE, NEGATIVE))
    assert data.problems == []
    first, second = data.cases
    assert (first.id, first.prompt, first.line, first.category, first.expected_skill) == (
        "p1",
        "Fix my CSV.",
        3,
        "positive",
        "demo",
    )
    assert first.has_behavior and first.workspace == "fixtures"
    assert (second.line, second.category, second.expected_skill, second.note) == (
        4,
        "near_miss",
        None,
        "unrelated",
    )


def test_the_shared_pool_is_unrelated_and_all_false() -> None:
    pool = dataset.shared_negatives()
    assert pool.problems == [] and len(pool.cases) >= 5
    assert {c.category for c in pool.cases} == {"unrelated"}
    assert not any(c.should_trigger for c in pool.cases)


def test_invalid_json_is_a_finding_with_its_line() -> None:
    [problem] = parse('{\n  "evaluations": [\n    {"id": "x",}\n  ]\n}').problems
    assert (problem.rule, problem.line) == ("dataset-json", 3)


def test_nan_and_infinity_are_not_json_and_carry_a_line() -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        [problem] = parse(
            one_per_line(
                {"id": "x", "prompt": "NaN in a string is fine", "skill_should_trigger": True}
            ).replace('"x"', constant)
        ).problems
        assert problem.rule == "dataset-json" and constant in problem.message
        assert problem.line == 3


def test_ten_thousand_deep_nesting_is_one_finding() -> None:
    [problem] = parse('{"evaluations": ' + "[" * 10000 + "]" * 10000 + "}").problems
    assert problem.rule == "dataset-json" and "deep" in problem.message


def test_nesting_just_under_the_parser_limit_is_refused_before_validation() -> None:
    [problem] = parse('{"evaluations": [' + "[" * 990 + "]" * 990 + "]}").problems
    assert problem.rule == "dataset-json" and "deep" in problem.message


def test_schema_errors_point_at_the_case_line() -> None:
    bad = {"id": "b", "prompt": "", "skill_should_trigger": "true", "expected": ["x"]}
    problems = parse(one_per_line(POSITIVE, bad)).problems
    assert {p.rule for p in problems} == {"dataset-schema"}
    assert {p.line for p in problems} == {4}
    text = " ".join(p.message for p in problems)
    assert "`expected`" in text and "skill_should_trigger" in text and "non-empty" in text


def test_top_level_schema_errors_point_at_the_key() -> None:
    problems = parse(one_per_line(POSITIVE, NEGATIVE, skillscope_version="bad ref", owner="me")).problems
    lines = {p.message.split()[0]: p.line for p in problems}
    assert lines == {"`skillscope_version`": 2, "the": 3}


def test_a_valid_skillscope_version_is_kept() -> None:
    data = parse(one_per_line(POSITIVE, NEGATIVE, skillscope_version="v1.2.0"))
    assert data.problems == [] and data.skillscope_version == "v1.2.0"


@pytest.mark.parametrize(
    "pin", ["1.2.0", "2.0rc1", "skillscope-harness==1.2.0", "skillscope_harness==0.3.0.post1"]
)
def test_a_release_or_the_explicit_index_form_is_a_valid_pin(pin: str) -> None:
    data = parse(one_per_line(POSITIVE, NEGATIVE, skillscope_version=pin))
    assert data.problems == [] and data.skillscope_version == pin


@pytest.mark.parametrize("pin", ["skillscope==1.2.0", "skillscope-harness==main", "skillscope-harness>=1.0"])
def test_an_index_pin_names_this_distribution_and_one_release(pin: str) -> None:
    [problem] = parse(one_per_line(POSITIVE, NEGATIVE, skillscope_version=pin)).problems
    assert "skillscope-harness==1.2.0" in problem.message


def test_a_non_string_skillscope_version_is_one_finding() -> None:
    [problem] = parse(one_per_line(POSITIVE, skillscope_version=1.2)).problems
    assert "string" in problem.message


def test_invalid_cases_are_left_out_of_the_cases() -> None:
    data = parse(one_per_line(POSITIVE, {"id": "x", "prompt": "p", "skill_should_trigger": "yes"}))
    assert [c.id for c in data.cases] == ["p1"]


def test_load_turns_an_unreadable_file_into_a_finding(tmp_path: Path) -> None:
    path = tmp_path / "evals.json"
    path.write_bytes(b'{"evaluations": []}\x00')
    [problem] = dataset.load(path, "demo/evals/evals.json", "demo").problems
    assert problem.rule == "dataset-unreadable"


def test_the_template_passes_the_schema() -> None:
    template = json.loads(dataset.template_text())
    assert list(schemas.validator("evals").iter_errors(template)) == []


def test_the_inlined_schema_keeps_every_evaluation_property() -> None:
    raw = schemas.load("evals")["$defs"]["evaluation"]["properties"]
    inlined = schemas.inline_refs(schemas.load("evals"))["properties"]["evaluations"]["items"]["properties"]
    assert set(inlined) == set(raw)
    assert inlined["id"]["minLength"] == 1 and "$ref" not in inlined["id"]


@pytest.mark.parametrize(
    "ident",
    ["../../../../tmp/pwned-by-case-id", "/abs/path", "good-\u001b[2Jclear", "a b", "-lead", "caf\u00e9"],
)
def test_a_case_id_outside_the_id_pattern_is_a_schema_finding_on_its_case(ident: str) -> None:
    text = json.dumps(
        {
            "evaluations": [
                {"id": "ok-1", "prompt": "p", "skill_should_trigger": True},
                {"id": ident, "prompt": "p", "skill_should_trigger": True},
            ]
        },
        indent=1,
    )
    parsed = dataset.parse(text, dataset.Dataset(rel="demo/evals/evals.json", skill="demo"))
    assert [(p.rule, p.line) for p in parsed.problems] == [("dataset-schema", 8)]
    assert "letters, digits" in parsed.problems[0].message and "\u001b" not in parsed.problems[0].message


def test_ids_of_letters_digits_dots_colons_dashes_and_underscores_pass() -> None:
    text = json.dumps({"evaluations": [{"id": "Ok.id:1_2-3", "prompt": "p", "skill_should_trigger": True}]})
    assert dataset.parse(text, dataset.Dataset(rel="e.json", skill="demo")).problems == []


MEMO_CORPUS = [
    one_per_line(POSITIVE, NEGATIVE),
    one_per_line(POSITIVE, skillscope_version="0.1.0"),
    '{"evaluations": []}',
    '{"evaluations": [{"id": "p1", "prompt": "x", "skill_should_trigger": "yes"}]}',  # a schema error
    '{"evaluations": [{"id": "bad id!", "prompt": "x", "skill_should_trigger": true}]}',
    '{"evaluations": [1, {"id": "p2", "prompt": "y", "skill_should_trigger": false}], "extra": 1}',
    "[]",
    '{"evaluations": [' * 60 + "]" * 60 + "}",
]


def parse_with(text: str, memo: Memo) -> Dataset:
    return dataset.parse(text, Dataset(rel="demo/evals/evals.json", skill="demo"), memo)


@pytest.mark.parametrize("text", MEMO_CORPUS)
def test_a_memoized_read_is_the_same_as_a_fresh_one(text: str, tmp_path: Path) -> None:
    fresh = parse(text)
    first = Memo(tmp_path / "memo.json", "test")
    assert parse_with(text, first) == fresh
    first.save()
    again = Memo(tmp_path / "memo.json", "test")
    assert parse_with(text, again) == fresh
    # only what the schema accepted is kept: a file with problems is validated on every run
    assert bool(again.entries) == (fresh.problems == [])


def test_a_memoized_text_skips_validation_and_an_edited_one_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = one_per_line(POSITIVE, NEGATIVE)
    memo = Memo(tmp_path / "memo.json", "test")
    parse_with(text, memo)

    def screened(name: str, instance: object) -> bool:
        raise AssertionError("a memoized text was validated again")

    monkeypatch.setattr(schemas, "passes_screen", screened)
    assert [case.line for case in parse_with(text, memo).cases] == [3, 4]
    with pytest.raises(AssertionError, match="validated again"):
        parse_with(text.replace("Write a poem.", "Write a song."), memo)


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cases=st.lists(
        st.fixed_dictionaries(
            {"id": st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True), "prompt": st.text(max_size=20)},
            optional={
                "skill_should_trigger": st.one_of(st.booleans(), st.integers(), st.none()),
                "top_k": st.integers(-2, 5),
                "logs_contain": st.lists(st.text(max_size=5), max_size=2),
            },
        ),
        max_size=5,
    ),
    indent=st.sampled_from([None, 0, 2]),
)
def test_memoized_and_fresh_reads_agree_on_any_dataset(
    cases: list[dict], indent: int | None, tmp_path: Path
) -> None:
    text = json.dumps({"evaluations": cases}, indent=indent)
    fresh = parse(text)
    memo = Memo(tmp_path / "memo.json", text)  # a salt per example: no entry carries over
    assert parse_with(text, memo) == fresh
    assert parse_with(text, memo) == fresh
