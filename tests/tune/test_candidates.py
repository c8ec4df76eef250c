"""Candidates: the --candidates file's errors, the description written into a copy of SKILL.md, and the
structural screen that runs before any token is spent."""

from __future__ import annotations

import pytest

from harness.errors import UsageError
from harness.model import skill as skill_model
from harness.tune.candidates import FILE, Candidate, read_file, stage, with_description

FOLDED = """---
name: alpha
description: >
  Files invoices
  for the team.
license: MIT
---
# Alpha

Body stays.
"""


def test_a_file_of_strings_is_read(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('["one", "two"]\n', encoding="utf-8")
    assert read_file(path, "c.json") == ["one", "two"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[\n  "one",\n  "two"\n', "--candidates c.json:4: is not valid JSON"),
        ('[\n  "one",\n  3\n]\n', "--candidates c.json:3: item 2 is int, not a string"),
        (
            '{"a": 1}',
            "--candidates c.json:1: expected a non-empty JSON list of description strings, found dict",
        ),
        ("[]", "found an empty list"),
    ],
)
def test_a_bad_file_is_one_sentence_with_file_and_line(tmp_path, text, said):
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        read_file(path, "c.json")
    assert said in str(raised.value)


def test_a_missing_file_names_it(tmp_path):
    with pytest.raises(UsageError, match="--candidates gone.json: cannot read it"):
        read_file(tmp_path / "gone.json", "gone.json")


def test_the_description_is_replaced_and_every_other_line_kept(tmp_path):
    folder = tmp_path / "alpha"
    folder.mkdir()
    (folder / "SKILL.md").write_text(FOLDED, encoding="utf-8")
    skill = skill_model.load("alpha", folder)
    text = with_description(skill, "Reads a receipt: totals, dates; and 'quotes'.")
    assert text.splitlines()[0:2] == ["---", "name: alpha"]
    assert "license: MIT" in text and text.endswith("Body stays.\n")
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    again = skill_model.load("alpha", folder)
    assert again.description == "Reads a receipt: totals, dates; and 'quotes'."
    assert again.frontmatter["license"] == "MIT"


@pytest.mark.parametrize(
    ("text", "rule"), [("x" * 1100, "description-too-long"), ("   ", "description-missing")]
)
def test_a_candidate_breaking_a_structural_rule_is_rejected_with_the_rule(tmp_path, text, rule):
    folder = tmp_path / "skills" / "alpha"
    (folder / "evals").mkdir(parents=True)
    (folder / "SKILL.md").write_text(FOLDED, encoding="utf-8")
    (folder / "evals" / "evals.json").write_text("{}", encoding="utf-8")
    skill = skill_model.load("alpha", folder)
    staged = stage(skill, Candidate("file-1", text, FILE), tmp_path / "staging")
    assert [r["rule"] for r in staged.rejected] == [rule]
    assert staged.folder is None


def test_a_staged_candidate_is_a_copy_of_the_skill_without_its_answer_key(tmp_path):
    folder = tmp_path / "skills" / "alpha"
    (folder / "evals").mkdir(parents=True)
    (folder / "SKILL.md").write_text(FOLDED, encoding="utf-8")
    (folder / "evals" / "evals.json").write_text("{}", encoding="utf-8")
    (folder / "notes.md").write_text("more", encoding="utf-8")
    staged = stage(
        skill_model.load("alpha", folder), Candidate("file-1", "Reads receipts.", FILE), tmp_path / "s"
    )
    assert staged.rejected == [] and staged.folder is not None
    assert staged.folder.name == "alpha" and (staged.folder / "notes.md").exists()
    assert not (staged.folder / "evals").exists()
    assert skill_model.load("alpha", staged.folder).description == "Reads receipts."
    assert "Files invoices" in (folder / "SKILL.md").read_text(encoding="utf-8")  # the original untouched
