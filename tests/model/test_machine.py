"""harness.model.machine: evals/machine.yml into a MachinePlan, problems as findings."""

from __future__ import annotations

from pathlib import Path

from harness.model import machine


def plan(tmp_path: Path, text: str | bytes) -> machine.MachinePlan:
    path = tmp_path / "machine.yml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return machine.load(path, "demo/evals/machine.yml")


def test_a_missing_file_means_the_defaults(tmp_path: Path) -> None:
    loaded = machine.load(tmp_path / "machine.yml", "demo/evals/machine.yml")
    assert (loaded.os, loaded.labels, loaded.runner_type, loaded.problems) == (None, [], None, [])
    assert not loaded.scoped


def test_a_valid_file_sets_os_labels_and_runner_type(tmp_path: Path) -> None:
    loaded = plan(tmp_path, "os: [Linux]\nlabels:\n  - gpu\nrunner_type: big-box\n")
    assert loaded.problems == []
    assert (loaded.os, loaded.labels, loaded.runner_type) == (["Linux"], ["gpu"], "big-box")
    assert loaded.scoped


def rules_and_lines(loaded: machine.MachinePlan) -> list[tuple[str, int | None]]:
    return [(p.rule, p.line) for p in loaded.problems]


def test_a_non_mapping_is_a_schema_finding(tmp_path: Path) -> None:
    assert rules_and_lines(plan(tmp_path, "- Linux\n")) == [("machine-schema", 1)]
    assert rules_and_lines(plan(tmp_path, "")) == [("machine-schema", 1)]


def test_an_unknown_key_is_named_with_its_line(tmp_path: Path) -> None:
    loaded = plan(tmp_path, "os: [Linux]\ngate: manual\n")
    assert rules_and_lines(loaded) == [("machine-schema", 2)]
    assert "gate" in loaded.problems[0].message


def test_empty_lists_and_non_strings_are_refused_at_their_key(tmp_path: Path) -> None:
    assert rules_and_lines(plan(tmp_path, "os: []\n")) == [("machine-schema", 1)]
    assert rules_and_lines(plan(tmp_path, "os: [Linux]\nlabels: [gpu, 3]\n")) == [("machine-schema", 2)]
    assert rules_and_lines(plan(tmp_path, "labels: ['  ']\n")) == [("machine-schema", 1)]
    # minLength and pattern both fail on '', and the report drops the repeat
    assert set(rules_and_lines(plan(tmp_path, "runner_type: ''\n"))) == {("machine-schema", 1)}


def test_invalid_yaml_aliases_and_bad_bytes_are_findings(tmp_path: Path) -> None:
    assert rules_and_lines(plan(tmp_path, "os: [Linux\n")) == [("machine-yaml", 1)]
    assert rules_and_lines(plan(tmp_path, "os: &x [Linux]\nlabels: *x\n")) == [("machine-yaml", 1)]
    assert rules_and_lines(plan(tmp_path, b"os: [Linux\xff]\n")) == [("machine-unreadable", None)]


def test_a_broken_file_leaves_the_defaults_in_place(tmp_path: Path) -> None:
    loaded = plan(tmp_path, "os: Linux\nlabels: [gpu]\n")
    assert loaded.problems and (loaded.os, loaded.labels) == (None, [])


def test_a_bad_date_is_a_yaml_finding_on_its_line(tmp_path: Path) -> None:
    loaded = plan(tmp_path, "os: [Linux]\nsince: 2024-13-01\n")
    assert rules_and_lines(loaded) == [("machine-yaml", 2)]
    assert "2024-13-01" in loaded.problems[0].message


def test_keys_that_are_numbers_or_null_are_unknown_keys_with_their_line(tmp_path: Path) -> None:
    assert rules_and_lines(plan(tmp_path, "os: [Linux]\n1: x\n")) == [("machine-schema", 2)]
    assert rules_and_lines(plan(tmp_path, "? \n")) == [("machine-schema", 1)]
    mixed = plan(tmp_path, "os: [Linux]\nnull: 1\n1: 2\n2024-01-01: 3\n")
    assert "1, 2024-01-01, None" in mixed.problems[0].message
