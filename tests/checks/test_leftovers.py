"""Template leftovers: each placeholder field of the dataset template, one finding per field left as
written, and the scaffold's instructions lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.checks import CheckOptions, leftovers
from harness.files import packaged_text
from harness.model import catalog, repo
from tests.support.helpers import make_skill

TEMPLATE_CASE = json.loads(packaged_text("data", "TEMPLATE.json"))["evaluations"][0]
WRITTEN = {
    "id": "csv-fix",
    "skill_should_trigger": True,
    "prompt": "Fix the delimiters of sales.csv.",
    "note": "Written for this skill.",
    "expected_behavior": ["Detects the semicolon"],
    "unexpected_behavior": ["Rewrites the header"],
    "logs_contain": ["delimiter: ;"],
}


def rules(root: Path) -> list[tuple[str, str, int | None]]:
    found = leftovers.check(catalog.load(repo.discover(root, ["*"])), CheckOptions())
    return [(f.rule, f.message.split(" still has the template's ")[-1].split(";")[0], f.line) for f in found]


def test_a_written_case_has_no_leftover(tmp_path: Path):
    make_skill(tmp_path, "csv", evals={"evaluations": [WRITTEN]})
    assert rules(tmp_path) == []


@pytest.mark.parametrize("field", leftovers.PLACEHOLDER_FIELDS)
def test_each_placeholder_field_left_as_the_template_wrote_it_is_one_finding(tmp_path: Path, field: str):
    placeholder = TEMPLATE_CASE[field]
    value = [" padded ", f"  {placeholder[0]}  "] if isinstance(placeholder, list) else f" {placeholder} "
    make_skill(tmp_path, "csv", evals={"evaluations": [{**WRITTEN, field: value}]})
    assert [(rule, what) for rule, what, _ in rules(tmp_path)] == [("template-leftover", field)]


def test_a_scaffold_line_in_the_instructions_is_found_on_its_line(tmp_path: Path):
    scaffold = packaged_text("data", "SKILL.template.md").split("---\n", 2)[2]
    line = next(text for text in scaffold.splitlines() if text.strip() and not text.startswith("#"))
    make_skill(
        tmp_path, "csv", body=f"# CSV\n\nFix delimiters.\n  {line}\n", evals={"evaluations": [WRITTEN]}
    )
    [(rule, _, number)] = rules(tmp_path)
    skill_md = (tmp_path / "csv" / "SKILL.md").read_text(encoding="utf-8").splitlines()
    assert rule == "template-leftover" and skill_md[number - 1].strip() == line.strip()


def test_a_policy_file_still_holding_the_scaffolds_placeholder_is_a_leftover(tmp_path: Path):
    placeholder = packaged_text("data", "POLICY.template.txt").strip()
    make_skill(tmp_path, "csv", evals={"evaluations": [WRITTEN]})
    (tmp_path / "csv" / "card.md").write_text(f"## Owner\n\n  {placeholder}\n")
    options = CheckOptions(skill_files=("card.md",))
    found = leftovers.check(catalog.load(repo.discover(tmp_path, ["*"])), options)
    assert [(f.rule, f.path, f.line) for f in found] == [("template-leftover", "csv/card.md", 3)]
    (tmp_path / "csv" / "card.md").write_text("## Owner\n\nThe data team.\n")
    assert leftovers.check(catalog.load(repo.discover(tmp_path, ["*"])), options) == []


def echoes(
    tmp_path: Path, needle: str, body: str = "# CSV\n\nFix the delimiters of the file.\n"
) -> list[str]:
    make_skill(
        tmp_path, "csv-summary", body=body, evals={"evaluations": [{**WRITTEN, "logs_contain": [needle]}]}
    )
    loaded = catalog.load(repo.discover(tmp_path, ["*"]))
    return [f.message for f in leftovers.check(loaded, CheckOptions()) if f.rule == "logs-contain-own-name"]


@pytest.mark.parametrize(
    ("needle", "where"),
    [
        ("csv-summary", "the skill's own name"),
        ("CSV-Summary", "the skill's own name"),
        ("summary", "the skill's own name"),
        ("Launching skill: csv-summary", "the activation line"),
    ],
)
def test_a_needle_the_activation_itself_prints_is_flagged(tmp_path: Path, needle: str, where: str):
    [message] = echoes(tmp_path, needle)
    assert where in message and f"`{needle}`" in message


@pytest.mark.parametrize("needle", ["csv-summary.py", "delimiter: ;", "wrote summary.csv with 3 rows"])
def test_a_needle_that_merely_contains_the_name_is_not(tmp_path: Path, needle: str):
    """`csv-summary.py` is what the agent runs; the activation prints the name, never the script's."""
    assert echoes(tmp_path, needle) == []


def test_a_script_the_instructions_name_is_a_fair_needle(tmp_path: Path):
    """The SKILL.md text the activation injects is kept out of the evidence: only running it shows it."""
    body = "# CSV\n\nRun the script:\n\n    python scripts/csv-summary.py data.csv\n"
    assert echoes(tmp_path, "csv-summary.py", body=body) == []
    assert echoes(tmp_path, "Run the script", body=body) == []
