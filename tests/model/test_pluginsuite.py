"""Claude Code plugin eval suites read in place: discovery, the CLI's schema rules with lines, the
mapping to our cases, and everything not honoured reported as NOT RUN."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from harness.model import pluginsuite
from harness.model.pluginsuite import NOT_RUN_RULE, SCHEMA_RULE

HERE = Path(__file__).parent / "pluginsuite"


def _rel(path: Path) -> str:
    return path.relative_to(HERE).as_posix()


def _load(name: str, skill: str = "pdf-tools"):
    suite = pluginsuite.load_suite(HERE / name / "evals", _rel, skill)
    assert suite is not None
    return suite, {case.id: case for case in suite.cases}


def test_a_folder_without_cases_is_no_suite(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "evals.json").write_text("{}")
    assert pluginsuite.load_suite(tmp_path / "evals", str, "s") is None


def test_cases_are_found_in_place_and_reserved_folders_skipped() -> None:
    folders = [p.name for p in pluginsuite.case_folders(HERE / "good" / "evals")]
    assert folders == ["behaves", "prose", "quiet", "routes"]


def test_a_skill_grader_is_a_routing_case() -> None:
    _, cases = _load("good")
    assert cases["routes-pdf"].should_trigger is True
    assert cases["routes-pdf"].skill == "pdf-tools"
    assert cases["stays-quiet"].should_trigger is False
    assert not cases["routes-pdf"].has_behavior  # routing only: no behavioral run


def test_an_input_match_naming_another_skill_is_said(tmp_path: Path) -> None:
    suite, _ = _load("good", skill="other-skill")
    said = [f for f in suite.problems if "matches skill" in f.message]
    assert said and said[0].path == "good/evals/routes/case.yaml" and said[0].line == 6


def test_free_and_judged_graders_map_to_our_scorers() -> None:
    _, cases = _load("good")
    case = cases["writes-report"]
    assert case.files_exist == []  # a glob over the diff: scored as a host grader
    assert case.expected_behavior == ["The summary names every section of the input."]
    assert [(g.name, g.kind, g.weight) for g in case.graders] == [
        ("says-done", "regex", 2.0),
        ("no-apology", "regex", 1.0),
        ("report-file", "file_exists", 1.0),
        ("useful", "llm", 1.0),
        ("ran-shell", "tool_used", 1.0),
        ("read-first", "tool_order", 1.0),
    ]
    assert case.runs == 5 and case.source == "good/evals/behaves/case.yaml" and case.line == 2
    assert case.graders[0].line == 11  # the list item's own line, from PyYAML's marks


def test_what_cannot_be_honoured_is_reported_not_run_with_its_line() -> None:
    suite, _ = _load("good")
    not_run = {
        (f.path, f.line, f.message.split(" is NOT RUN")[0]) for f in suite.problems if f.rule == NOT_RUN_RULE
    }
    assert ("good/evals/behaves/case.yaml", 6, "`context.history_file`") in not_run
    assert ("good/evals/behaves/case.yaml", 9, "`execution.timeout_seconds`") in not_run
    assert ("good/evals/behaves/case.yaml", 35, "grader `as-good` (baseline)") in not_run
    assert any(f.path == "good/evals/mocks" for f in suite.problems)
    assert any(f.path == "good/evals/prose/graders/notes.md" for f in suite.problems)
    assert all(f.severity == "warning" for f in suite.problems if f.rule == NOT_RUN_RULE)


def test_prose_cases_take_the_body_as_prompt_and_grader_files_as_graders() -> None:
    suite, cases = _load("good")
    case = cases["prose-case"]
    assert case.prompt == "Summarise the attached notes."
    assert case.expected_behavior == ["The answer is a bulleted summary."]
    assert case.runs == 2
    max_turns = [f for f in suite.problems if "max_turns" in f.message]
    assert max_turns[0].path == "good/evals/prose/prompt.md" and max_turns[0].line == 4


def test_schema_errors_name_their_file_and_line() -> None:
    suite, cases = _load("bad")
    errors = {(f.path, f.line): f.message for f in suite.problems if f.rule == SCHEMA_RULE}
    assert "newer than 1.x" in errors[("bad/evals/newer/case.yaml", 1)]
    assert "execution.prompt" in errors[("bad/evals/noprompt/case.yaml", 3)]
    assert "second grader named `g`" in errors[("bad/evals/dupe/case.yaml", 7)]
    assert "unknown key(s) `pattern`" in errors[("bad/evals/strict/case.yaml", 9)]
    assert "not valid YAML" in errors[("bad/evals/badyaml/case.yaml", 2)]
    assert set(cases) == {"sticky"}  # a case with a schema error is not run; errors are never graded
    flag = [f for f in suite.problems if f.rule == NOT_RUN_RULE and "`y`" in f.message]
    assert flag and flag[0].line == 6 and not cases["sticky"].graders


@given(st.text(alphabet="dgimsuvyxz", max_size=6))
def test_js_flags_map_to_python_or_are_named(flags: str) -> None:
    value, unsupported = pluginsuite.python_flags(flags)
    assert (unsupported or "") == "".join(f for f in flags if f not in "dgimsu")
    assert bool(value & re.IGNORECASE) == ("i" in flags)
    assert bool(value & re.DOTALL) == ("s" in flags)
    assert bool(value & re.MULTILINE) == ("m" in flags)


@given(st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=5) | st.none(), max_size=6))
def test_any_grader_mapping_is_judged_without_raising(grader: dict) -> None:
    for message in pluginsuite.grader_problems(grader):
        assert message.endswith(".")


def test_a_pattern_python_cannot_read_is_a_schema_error_not_a_crash_mid_run() -> None:
    grader = {"name": "g", "type": "regex", "pattern": "(?<year>\\d{4})"}
    (message,) = pluginsuite.grader_problems(grader)
    assert "`pattern`" in message and "Python's re cannot read" in message
    order = {
        "name": "o",
        "type": "tool_order",
        "before": {"tool": "Read", "input_match": "["},
        "after": "Write",
    }
    assert "`before.input_match`" in pluginsuite.grader_problems(order)[0]
