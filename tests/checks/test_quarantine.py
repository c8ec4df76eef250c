"""Structural reports an expired quarantine entry (a warning: its case gates again) and a quarantine
file that is not one (an error), each at its line."""

from __future__ import annotations

from tests.support.helpers import make_skill, structural


def quarantine_file(root, text: str) -> None:
    (root / ".skillscope").mkdir(parents=True, exist_ok=True)
    (root / ".skillscope" / "quarantine.json").write_text(text, encoding="utf-8")


def test_an_expired_entry_is_a_warning_at_its_line_and_one_in_force_is_nothing(tmp_path):
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    quarantine_file(
        root,
        '{"cases": [\n'
        '  {"id": "alpha-pos-1", "reason": "flaky on haiku", "expires": "2000-01-31"},\n'
        '  {"id": "alpha-pos-2", "reason": "still flaky", "expires": "2999-01-01"}\n'
        "]}\n",
    )
    run, report = structural(root)
    assert run.code == 0, run.stdout
    (found,) = [f for f in report["findings"] if f["rule"].startswith("quarantine")]
    assert (found["rule"], found["severity"], found["path"], found["line"]) == (
        "quarantine-expired",
        "warning",
        ".skillscope/quarantine.json",
        2,
    )
    assert "`alpha-pos-1` expired on 2000-01-31 (flaky on haiku); it gates again" in found["message"]


def test_a_broken_quarantine_file_is_an_error_naming_it(tmp_path):
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    quarantine_file(root, '{"cases": [\n  {"id": "alpha-pos-1"}\n]}\n')
    run, report = structural(root)
    assert run.code == 1
    (found,) = [f for f in report["findings"] if f["rule"].startswith("quarantine")]
    assert (found["rule"], found["line"]) == ("quarantine-invalid", 2)
    assert found["message"] == "cases.0: 'reason' is a required property"
