"""The in-place reader of addyosmani's case files and `import addyosmani` share one conversion: the
same ids, prompts, top_k and owners, and every line points into the case file."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import json_positions
from harness.authoring import addyosmani
from harness.model import addyosmani_cases
from tests.support.examples import examples

CASE_FILE = Path(__file__).parents[1] / "routing" / "addyosmani" / "csv-tidy.json"


def read(path: Path, tmp_path: Path, skill: str = "csv-tidy") -> addyosmani_cases.Dataset:
    return addyosmani_cases.load(path, "evals/cases/csv-tidy.json", skill, tmp_path)


def test_read_in_place_and_imported_cases_are_the_same_cases(tmp_path: Path) -> None:
    in_place = read(CASE_FILE, tmp_path)
    imported = addyosmani.convert("csv-tidy", json.loads(CASE_FILE.read_text()), tmp_path, stage_files=False)
    assert [c.id for c in in_place.cases] == [c["id"] for c in imported.dataset["evaluations"]]
    for case, item in zip(in_place.cases, imported.dataset["evaluations"], strict=True):
        assert (case.prompt, case.should_trigger) == (item["prompt"], item["skill_should_trigger"])
        assert case.top_k == item.get("top_k", 3)
        assert case.owner == item.get("owner")


def test_fields_not_honoured_are_warnings_on_their_lines(tmp_path: Path) -> None:
    text = CASE_FILE.read_text()
    data = json.loads(text)
    data["trigger"]["negative"][0]["reason"] = "charts"
    data["trigger"]["positive"][1]["top_k"] = 0
    path = tmp_path / "csv-tidy.json"
    path.write_text(json.dumps(data, indent=2))
    found = {(p.rule, p.severity, p.line): p.message for p in read(path, tmp_path).problems}
    lines = json_positions.nested_element_lines(path.read_text(), ("trigger", "negative"))
    assert "`reason`" in found[("dataset-field-unhonoured", "warning", lines[0])]
    evals_line = json_positions.element_lines(path.read_text(), "evals")[0]
    assert "`kind`" in found[("dataset-field-unhonoured", "warning", evals_line)]
    assert any("top_k 0 is not usable" in message for message in found.values())


def test_a_case_file_for_another_skill_or_of_another_shape_is_named(tmp_path: Path) -> None:
    wrong = read(CASE_FILE, tmp_path, skill="csv-lint").problems
    assert [(p.rule, p.line) for p in wrong] == [("dataset-schema", 2)] + [
        ("dataset-field-unhonoured", p.line) for p in wrong[1:]
    ]
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    assert [p.rule for p in read(path, tmp_path).problems] == ["dataset-schema"]


prompts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(prompts, max_size=5), st.lists(prompts, max_size=5), st.integers(0, 2))
def test_each_trigger_case_carries_the_line_its_object_opens_on(pos, neg, indent) -> None:
    data = {
        "skill_name": "s",
        "evals": [],
        "trigger": {"positive": [{"prompt": p} for p in pos], "negative": [{"prompt": n} for n in neg]},
    }
    text = json.dumps(data, indent=indent or None)
    for kind, items in (("positive", pos), ("negative", neg)):
        lines = json_positions.nested_element_lines(text, ("trigger", kind))
        assert len(lines) == len(items)
        opened = [n for n, line in enumerate(text.splitlines(), 1) for _ in range(line.count('{"prompt"'))]
        if indent:  # one object per line opens with `{` alone; the prompt sits on the next line
            opened = [
                n - 1 for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith('"prompt"')
            ]
        expected = opened[: len(pos)] if kind == "positive" else opened[len(pos) :]
        assert lines == expected
