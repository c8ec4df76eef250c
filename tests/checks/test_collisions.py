"""Description collisions: thresholds, severities and which skills take part."""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.checks import CheckOptions, collisions
from harness.model import catalog, repo
from tests.support.helpers import frontmatter_text, make_skill

COPY = "Cleans messy CSV files: fixes encodings, delimiters and headers."
ONE_WORD_APART = "Extracts totals and vendor names from scanned PDF {} into a spreadsheet row."


def skill(root: Path, name: str, description: str) -> None:
    make_skill(root, name, skill_md=frontmatter_text({"name": name, "description": description}) + "# Body\n")


def check(root: Path, **thresholds: float) -> list[tuple[str, str, str, int | None]]:
    found = collisions.check(catalog.load(repo.discover(root, ["*"])), CheckOptions(**thresholds))
    return [(f.severity, f.rule, f.path, f.line) for f in found]


def test_a_copied_description_is_an_error_and_one_word_apart_a_warning(tmp_path: Path):
    skill(tmp_path, "csv-cleaner", COPY)
    skill(tmp_path, "csv-fixer", COPY)
    skill(tmp_path, "invoice-reader", ONE_WORD_APART.format("invoices"))
    skill(tmp_path, "receipt-reader", ONE_WORD_APART.format("receipts"))
    skill(tmp_path, "slide-deck", "Builds presentation slides from an outline, with speaker notes.")
    assert check(tmp_path) == [
        ("error", "description-collision", "csv-cleaner/SKILL.md", 3),
        ("warning", "description-collision", "invoice-reader/SKILL.md", 3),
    ]


def test_the_message_names_both_skills_the_score_the_shared_words_and_the_flag(tmp_path: Path):
    skill(tmp_path, "csv-cleaner", COPY)
    skill(tmp_path, "csv-fixer", COPY)
    [finding] = collisions.check(catalog.load(repo.discover(tmp_path, ["*"])), CheckOptions())
    assert "`csv-cleaner` and `csv-fixer` (csv-fixer/SKILL.md)" in finding.message
    assert re.search(r"are 0\.[89]\d alike \(at or above --collision-error 0\.75\)", finding.message)
    assert "sharing csv, cleans, delimiters" in finding.message


def test_thresholds_move_with_the_flags(tmp_path: Path):
    skill(tmp_path, "invoice-reader", ONE_WORD_APART.format("invoices"))
    skill(tmp_path, "receipt-reader", ONE_WORD_APART.format("receipts"))
    assert check(tmp_path, collision_warn=0.6) == []
    assert check(tmp_path, collision_error=0.5) == [
        ("error", "description-collision", "invoice-reader/SKILL.md", 3)
    ]


def test_skills_without_a_readable_description_take_no_part(tmp_path: Path):
    skill(tmp_path, "csv-cleaner", COPY)
    make_skill(tmp_path, "csv-fixer", skill_md="no frontmatter here\n")
    skill(tmp_path, "csv-mender", "")
    assert check(tmp_path) == []


def test_a_memo_entry_of_another_shape_is_scored_again_not_trusted(tmp_path: Path):
    # A damaged memo behaves as an empty one (harness/memo.py): it costs the scoring, never a crash.
    skill(tmp_path, "csv-cleaner", COPY)
    skill(tmp_path, "csv-fixer", COPY)
    first = check(tmp_path)
    [memo_file] = (Path.home() / ".cache" / "skillscope" / "memo").glob("collisions-*.json")
    written = json.loads(memo_file.read_text(encoding="utf-8"))
    written["entries"] = dict.fromkeys(written["entries"], "damaged")
    memo_file.write_text(json.dumps(written), encoding="utf-8")
    assert check(tmp_path) == first == [("error", "description-collision", "csv-cleaner/SKILL.md", 3)]
