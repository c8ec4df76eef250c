"""The compiled screen in front of jsonschema: whatever it passes, jsonschema passes too; whatever it
rejects still gets jsonschema's own errors; and it only runs on schemas it reads the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness import schemas, yamlsafe
from tests.support.examples import examples

ROOT = Path(__file__).resolve().parent.parent
DATASETS = sorted(
    {
        *ROOT.glob("tests/**/evals/*.json"),
        *ROOT.glob("examples/**/evals/*.json"),
        ROOT / "harness" / "data" / "negatives.json",
        ROOT / "harness" / "data" / "TEMPLATE.json",
    }
)
MACHINES = sorted({*ROOT.glob("tests/**/machine.yml"), *ROOT.glob("examples/**/machine.yml")})


def jsonschema_valid(name: str, instance: object) -> bool:
    return schemas.validator(name).is_valid(instance)  # stops at the first error: the verdict is all we need


@pytest.mark.parametrize("path", DATASETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_dataset_fixture_gets_the_same_verdict(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return  # malformed JSON never reaches a schema
    assert schemas.passes_screen("evals", data) == jsonschema_valid("evals", data)


@pytest.mark.parametrize("path", MACHINES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_machine_fixture_gets_the_same_verdict(path: Path):
    try:
        data = yamlsafe.load(path.read_text(encoding="utf-8")).data
    except (yamlsafe.YamlProblem, UnicodeDecodeError, PermissionError):
        return  # unreadable or not YAML (as the harness reads it): never validated
    assert schemas.passes_screen("machine", data) == jsonschema_valid("machine", data)


def test_the_fixtures_hold_both_verdicts():
    verdicts = set()
    for path in DATASETS:
        try:
            verdicts.add(schemas.passes_screen("evals", json.loads(path.read_text(encoding="utf-8"))))
        except (ValueError, RecursionError, UnicodeDecodeError):
            continue
    assert verdicts == {True, False}


# Valid data, then (half the time) one change at one place: a value swapped for an odd one (blank or
# whitespace strings, a final newline, a wrong type), a key dropped or an unknown key added.
ODD = st.one_of(
    st.sampled_from(["", " ", "\n", "\t", "x\n", " x ", "\u00a0"]),
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=2), st.text(max_size=2), max_size=2),
)
WORDS = st.text(alphabet="ab -_.\u00e9", min_size=1, max_size=8).filter(str.strip)
STATEMENTS = st.lists(WORDS, max_size=3)
CASE = st.fixed_dictionaries(
    {"id": WORDS, "prompt": WORDS, "skill_should_trigger": st.booleans()},
    optional={
        "expected_behavior": STATEMENTS,
        "unexpected_behavior": STATEMENTS,
        "logs_contain": STATEMENTS,
        "files_exist": STATEMENTS,
        "workspace": WORDS,
        "note": st.text(max_size=4),
    },
)
DATASET = st.fixed_dictionaries(
    {"evaluations": st.lists(CASE, min_size=1, max_size=3)},
    optional={
        "skillscope_version": st.sampled_from(["v1.2.0", "main", "1.0.post1", "release/2026-11"]),
        "comment": st.one_of(st.text(max_size=4), st.lists(st.text(max_size=4), max_size=2)),
    },
)
MACHINE = st.fixed_dictionaries(
    {},
    optional={
        "os": st.lists(WORDS, min_size=1, max_size=2),
        "labels": st.lists(WORDS, min_size=1, max_size=2),
        "runner_type": WORDS,
    },
)
VERSION = st.text(alphabet="aZ09._/+-@{}\nlock=", min_size=1, max_size=10)
# The index form too: this distribution, `==`, then anything the alphabet makes.
VERSION_PIN = st.one_of(VERSION, VERSION.map(lambda tail: "skillscope-harness==" + tail))


def places(value: object) -> list[tuple[object, object]]:
    """Every (container, key or index) inside `value`, depth first."""
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            found += [(value, key), *places(child)]
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += [(value, index), *places(child)]
    return found


def changed_once(draw, value: object) -> object:
    spots = places(value)
    if not spots or not draw(st.booleans()):
        return value
    container, key = draw(st.sampled_from(spots))
    action = draw(st.sampled_from(["odd", "drop", "extra"]))
    if action == "odd":
        container[key] = draw(ODD)
    elif action == "drop":
        del container[key]
    elif isinstance(container, dict):
        container["unknown_key"] = draw(ODD)
    else:
        container.append(draw(ODD))
    return value


@settings(max_examples=examples(800), deadline=None, derandomize=True)
@given(st.data())
def test_what_the_screen_passes_jsonschema_passes(data):
    dataset = changed_once(data.draw, data.draw(DATASET))
    assert schemas.passes_screen("evals", dataset) == jsonschema_valid("evals", dataset)


@settings(max_examples=examples(500), deadline=None, derandomize=True)
@given(st.data())
def test_a_machine_plan_gets_the_same_verdict(data):
    plan = changed_once(data.draw, data.draw(MACHINE))
    assert schemas.passes_screen("machine", plan) == jsonschema_valid("machine", plan)


@settings(max_examples=examples(1000), deadline=None, derandomize=True)
@given(VERSION_PIN)
def test_the_version_pattern_differs_only_on_a_final_newline(version: str):
    data = {
        "evaluations": [{"id": "a", "prompt": "b", "skill_should_trigger": True}],
        "skillscope_version": version,
    }
    if schemas.passes_screen("evals", data) != jsonschema_valid("evals", data):
        assert version.endswith("\n")  # Python's `$` takes a final newline; the screen is stricter


def test_errors_come_from_jsonschema_when_the_screen_rejects():
    data = {"evaluations": [{"id": "", "prompt": "p", "skill_should_trigger": "yes"}]}
    found = schemas.errors("evals", data)
    assert {error.validator for error in found} >= {"type", "minLength"}
    assert all(hasattr(error, "absolute_path") for error in found)
    assert (
        schemas.errors("evals", {"evaluations": [{"id": "a", "prompt": "p", "skill_should_trigger": True}]})
        == []
    )


@pytest.mark.parametrize(
    ("name", "screened"),
    [
        ("evals", True),
        ("machine", True),
        ("structural-report", True),
        ("refs-report", True),
        ("routing-report", True),
        ("behavioral-report", True),
        ("compare", True),
        ("plan", False),
    ],
)
def test_which_schemas_are_screened(name: str, screened: bool):
    assert (schemas.screen(name) is not None) is screened


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "array", "uniqueItems": True},  # Python equality takes 1 for True
        {"enum": ["a", 1]},
        {"const": True},
        {"prefixItems": [{"type": "string"}]},  # 2020-12 only
        {"type": "array", "items": [{"type": "string"}]},  # tuple form means another thing in 2020-12
        {"not": {"pattern": "x$"}},  # the screen's `$` is stricter, so under `not` it is looser
        {"oneOf": [{"pattern": "^a$"}, {"type": "integer"}]},
        {"if": {"pattern": "a$"}, "then": {"minLength": 3}},
        {"patternProperties": {"^a$": {"type": "string"}}},
        {"properties": {"x": {"$ref": "#/$defs/loop"}}},
    ],
)
def test_schemas_read_differently_are_not_screened(schema: dict):
    assert not schemas.portable(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a$"},  # stricter at the top: fine
        {"enum": ["a", "b"]},
        {"properties": {"x": {"not": {"pattern": "\\.\\."}}}},
        {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    ],
)
def test_schemas_read_alike_are_screened(schema: dict):
    assert schemas.portable(schema)


def test_the_screens_code_is_kept_in_the_users_cache_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    schema = schemas.inline_refs(schemas.load("evals"))
    code = schemas.screen_code(schema)
    (cached,) = (tmp_path / "skillscope").glob("screen-*.py")
    assert cached.read_text() == code
    cached.write_text(code + "\n# read back\n")
    assert schemas.screen_code(schema).endswith("# read back\n")  # not generated again


def test_an_unwritable_cache_costs_time_not_the_screen(tmp_path, monkeypatch):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    code = schemas.screen_code(schemas.inline_refs(schemas.load("evals")))
    assert schemas.SCREEN_FUNCTION.search(code)


def test_the_screens_compiled_code_is_kept_and_a_damaged_copy_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    schema = schemas.inline_refs(schemas.load("evals"))
    function, program = schemas.screen_program(schema, "evals")
    (kept,) = (tmp_path / "skillscope").glob("screen-*.marshal")
    assert schemas.screen_program(schema, "evals")[0] == function  # read back
    kept.write_bytes(b"not marshal data")
    namespace: dict = {}
    again, program = schemas.screen_program(schema, "evals")
    exec(program, namespace)  # noqa: S102 - the test's own compiled screen
    case = {"id": "a", "prompt": "p", "skill_should_trigger": True}
    assert again == function and namespace[function]({"evaluations": [case]}) is not None


def test_a_screen_compiled_on_a_miss_is_kept_once_under_its_sources_key(tmp_path, monkeypatch):
    """It was kept twice, under the sources key and again under the inlined schema's content key."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    check = schemas.screen.__wrapped__("evals")  # past the per-process cache, to the user's cache
    (kept,) = (tmp_path / "skillscope").glob("screen-*.marshal")
    assert kept.name.startswith("screen-evals-")
    assert schemas.screen.__wrapped__("evals") is not None  # read back, nothing written again
    assert list((tmp_path / "skillscope").glob("screen-*.marshal")) == [kept]
    case = {"id": "a", "prompt": "p", "skill_should_trigger": True}
    assert check is not None and check({"evaluations": [case]}) is not None


# The three matrix reports share one definitions file (schema/matrix-defs.schema.json): the smallest
# report of each kind, written as its command writes it, validates through the cross-file `$ref`s (its
# legs' runs left out: each is a whole report of its own command, checked against that command's schema).
ENVELOPE = {
    "harness_version": "0.1.0",
    "repo": "/repo",
    "started_at": "2026-12-06T12:00:00Z",
    "elapsed_s": 1.5,
    "passed": True,
    "status": "pass",
}
LEG = {"model": "m-1", "agent_version": "1.0", "passed": True, "notes": []}
HALT = {"interrupted": None, "unfinished": 0, "agent_error": None}
DIFFERENCE = {
    "agent": "claude",
    "a": "claude@m-1",
    "b": "claude@m-2",
    "model_a": "m-1",
    "model_b": "m-2",
    "rate_a": 1.0,
    "rate_b": 0.5,
    "difference": -0.5,
    "low": -0.9,
    "high": 0.1,
    "beyond_noise": False,
}
LABELS = dict.fromkeys(["regression", "improvement", "changed", "error", "same-fail", "same-pass"], 0)
MATRICES = {
    "routing-matrix-report": {
        "command": "routing-matrix",
        **ENVELOPE,
        "counts": {"total": 1, "pass": 1, "fail": 0, "error": 0},
        "agents": [
            {**LEG, "leg": f"claude@m-{n}", "agent": "claude", "halt": HALT, "gate": {}, "totals": {}}
            for n in (1, 2)
        ],
        "differences": [{**DIFFERENCE, "figure": "accuracy"}],
        "skill_differences": [],
        "matrix": {},
        "cases": [],
        "runs": [],
    },
    "behavioral-matrix-report": {
        "command": "behavioral-matrix",
        **ENVELOPE,
        "counts": {"total": 1, "pass": 1, "fail": 0, "error": 0, "blocked": 0},
        "legs": [
            {
                **LEG,
                "leg": f"claude@m-{n}",
                "agent": "claude",
                "judge_agent": "claude",
                "judge_model": "m-1",
                "halt": HALT,
                "counts": {},
                "pass_rate": 1.0,
            }
            for n in (1, 2)
        ],
        "differences": [{**DIFFERENCE, "figure": "pass_rate"}],
        "cases": [],
        "runs": [],
    },
    "compare-matrix-report": {
        "command": "compare-matrix",
        **ENVELOPE,
        "counts": {"total": 1, "pass": 1, "fail": 0, "error": 0},
        "legs": [
            {**LEG, "leg": f"claude@m-{n}", "agent": "claude", "halt": {}, "labels": LABELS, "by_mode": {}}
            for n in (1, 2)
        ],
        "differences": [{**DIFFERENCE, "figure": "candidate_pass_rate", "mode": "routing"}],
        "cases": [],
        "runs": [],
    },
}


@pytest.fixture
def fresh_schemas():
    """Every schema read again, before and after: a test that changes one leaves no compiled trace."""
    cached = (schemas.load, schemas.validator, schemas.registry, schemas.screen)
    for each in cached:
        each.cache_clear()
    yield
    for each in cached:
        each.cache_clear()


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_every_matrix_report_validates_through_the_shared_definitions(name: str):
    assert '"$ref": "matrix-defs.schema.json#/$defs/' in json.dumps(schemas.load(name))
    report = MATRICES[name]
    assert schemas.errors(name, report) == [] and jsonschema_valid(name, report)
    assert schemas.passes_screen(name, report) == (schemas.screen(name) is not None)


@pytest.mark.parametrize(
    ("name", "change", "rule"),
    [
        (
            "routing-matrix-report",
            {"counts": {"total": 1, "pass": 1, "fail": 0, "error": 0, "blocked": 0}},
            "not",
        ),
        ("behavioral-matrix-report", {"counts": {"total": 1, "pass": 1, "fail": 0, "error": 0}}, "required"),
        ("compare-matrix-report", {"runs": [{"meta": {}, "cases": []}]}, "required"),
        ("routing-matrix-report", {"differences": [{**DIFFERENCE, "figure": "pass_rate"}]}, "const"),
        (
            "compare-matrix-report",
            {"differences": [{**DIFFERENCE, "figure": "candidate_pass_rate"}]},
            "required",
        ),
        (
            "behavioral-matrix-report",
            {"differences": [{**DIFFERENCE, "figure": "pass_rate", "mode": "x"}]},
            "enum",
        ),
        ("routing-matrix-report", {"elapsed_s": -1}, "minimum"),
    ],
)
def test_each_matrix_keeps_its_own_rules_beside_the_shared_ones(name: str, change: dict, rule: str):
    report = {**MATRICES[name], **change}
    assert rule in {error.validator for error in schemas.errors(name, report)}
    assert not schemas.passes_screen(name, report)


def test_a_broken_shared_definition_fails_all_three_matrices(fresh_schemas, monkeypatch: pytest.MonkeyPatch):
    read = schemas.load

    def broken(name: str) -> dict:
        schema = read(name)
        if name == "matrix-defs":  # a difference's first rate as text: no report written so far is
            schema = json.loads(json.dumps(schema))
            schema["$defs"]["difference"]["properties"]["rate_a"] = {"type": "string"}
        return schema

    monkeypatch.setattr(schemas, "load", broken)
    for name, report in MATRICES.items():
        found = schemas.errors(name, report)
        assert [error.message for error in found] == ["1.0 is not of type 'string'"], name
