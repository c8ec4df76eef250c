"""The quarantine file: read when present, nothing when absent, and a file that is not one refused in one
sentence naming it and the line."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from harness.model import quarantine

GOOD = """{
  "cases": [
    {"id": "pdf-pos-2", "reason": "picks docx half the time (#12)", "expires": "2026-12-31"},
    {"id": "pdf-neg-1", "reason": "model update", "expires": "2026-11-30"}
  ]
}
"""


def written(root: Path, text: str) -> Path:
    (root / ".skillscope").mkdir(parents=True, exist_ok=True)
    (root / quarantine.DEFAULT).write_text(text, encoding="utf-8")
    return root


def test_no_file_quarantines_nothing(tmp_path):
    assert quarantine.load(tmp_path).entries == ()


def test_an_entry_holds_through_its_expiry_day_and_not_after(tmp_path):
    held = quarantine.load(written(tmp_path, GOOD))
    assert [(e.id, e.line) for e in held.entries] == [("pdf-pos-2", 3), ("pdf-neg-1", 4)]
    assert set(held.in_force(date(2026, 11, 30))) == {"pdf-pos-2", "pdf-neg-1"}
    assert set(held.in_force(date(2026, 12, 1))) == {"pdf-pos-2"}
    assert [e.id for e in held.expired(date(2026, 12, 1))] == ["pdf-neg-1"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{\n  cases: []\n}\n", ".skillscope/quarantine.json:2: is not valid JSON (Expecting property name"),
        (
            '{"cases": [\n  {"id": "a", "reason": "r"}\n]}\n',
            ".skillscope/quarantine.json:2: cases.0: 'expires' is a required property",
        ),
        (
            '{"cases": [\n  {"id": "a", "reason": "r", "expires": "soon"}\n]}\n',
            ".skillscope/quarantine.json:2: cases.0.expires: 'soon' does not match",
        ),
        (
            '{"cases": [\n\n  {"id": "a", "reason": "r", "expires": "2026-02-30"}\n]}\n',
            ".skillscope/quarantine.json:3: cases.0.expires: '2026-02-30' is no calendar date",
        ),
        ('["a"]\n', ".skillscope/quarantine.json: the file: ['a'] is not of type 'object'"),
    ],
)
def test_a_file_that_is_not_a_quarantine_is_one_sentence_with_file_and_line(tmp_path, text, said):
    with pytest.raises(quarantine.QuarantineError) as caught:
        quarantine.load(written(tmp_path, text))
    message = str(caught.value)
    assert message.startswith(said), message
    fix = "; fix it, or delete it to quarantine nothing (see docs/commands/history.md#quarantine)."
    assert message.endswith(fix)
    assert "\n" not in message
