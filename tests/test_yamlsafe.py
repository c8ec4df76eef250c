"""harness.yamlsafe: YAML without anchors or aliases, with key lines, bounded in depth."""

from __future__ import annotations

import pytest

from harness import yamlsafe


def test_top_level_keys_map_to_their_one_based_lines() -> None:
    document = yamlsafe.load("a: 1\n\nb:\n  - x\nc: text\n")
    assert document.data == {"a": 1, "b": ["x"], "c": "text"}
    assert document.key_lines == {"a": 1, "b": 3, "c": 5}


def test_an_empty_text_is_none_with_no_keys() -> None:
    document = yamlsafe.load("")
    assert (document.data, document.key_lines) == (None, {})


@pytest.mark.parametrize(
    "text, line", [("a: &x 1\nb: *x\n", 1), ("a: 1\nb: &x [1]\n", 2), ("a: 1\nb: [1, 2]\nc: *x\n", 3)]
)
def test_anchors_and_aliases_are_refused_with_their_line(text: str, line: int) -> None:
    with pytest.raises(yamlsafe.YamlProblem, match="anchor or alias") as caught:
        yamlsafe.load(text)
    assert caught.value.line == line


@pytest.mark.parametrize(
    "text", ["description: Tom & Jerry\n", "note: 'a *starred* word'\n", "a: 1 * 2 & 3\n"]
)
def test_ampersands_and_stars_in_values_are_not_anchors(text: str) -> None:
    assert list(yamlsafe.load(text).data) == [text.split(":")[0]]


def test_a_billion_laughs_bomb_is_refused_at_its_first_anchor() -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefghi", "bcdefghij", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    with pytest.raises(yamlsafe.YamlProblem) as caught:
        yamlsafe.load("\n".join(lines))
    assert caught.value.line == 1


def test_a_syntax_error_carries_a_line_inside_the_text() -> None:
    with pytest.raises(yamlsafe.YamlProblem) as caught:
        yamlsafe.load("a: 1\nb: [open")
    assert caught.value.line == 2


@pytest.mark.parametrize("depth", [33, 900, 5000])
def test_deep_nesting_is_a_problem_not_a_crash(depth: int) -> None:
    with pytest.raises(yamlsafe.YamlProblem, match="deep|depth"):
        yamlsafe.load("a: " + "[" * depth + "]" * depth)


def test_the_pure_python_parser_refuses_anchors_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlsafe, "_FastLoader", None)
    assert yamlsafe.load("a: 1\n").key_lines == {"a": 1}
    with pytest.raises(yamlsafe.YamlProblem, match="anchor"):
        yamlsafe.load("a: &x 1\nb: *x\n")


@pytest.mark.parametrize(
    "value, kind",
    [
        ("2024-02-30", "timestamp"),
        ("2001-13-45", "timestamp"),
        ("!!timestamp 2020-99-99", "timestamp"),
        ("!!int", "int"),
        ("!!int null", "int"),
        ("!!float abc", "float"),
        ("!!bool maybe", "bool"),
        ("1" * 4301, "int"),
    ],
)
@pytest.mark.parametrize("fast", [True, False])
def test_every_value_a_constructor_refuses_is_a_problem_on_its_line(
    value: str, kind: str, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not fast:
        monkeypatch.setattr(yamlsafe, "_FastLoader", None)
    with pytest.raises(yamlsafe.YamlProblem) as caught:
        yamlsafe.load(f"name: demo\nmeta:\n  when: {value}\n")
    assert caught.value.line == 3
    assert f"YAML {kind}" in caught.value.message and "quote it" in caught.value.message
    assert "sys." not in caught.value.message  # never advice about the interpreter


def test_a_key_written_twice_has_the_line_of_the_value_yaml_keeps() -> None:
    document = yamlsafe.load("a: 1\nb: 2\na: 3\n")
    assert document.data == {"a": 3, "b": 2}
    assert document.key_lines == {"a": 3, "b": 2}


def test_keys_that_are_not_strings_are_listed_as_their_loaded_value_reads() -> None:
    document = yamlsafe.load("1: x\nnull: y\n2024-01-01: z\n'q': w\n")
    assert document.key_lines == {"1": 1, "None": 2, "2024-01-01": 3, "q": 4}
