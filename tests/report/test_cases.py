"""harness.report.cases.show_command: the command a failure names to show its transcript."""

from __future__ import annotations

from harness.report.cases import show_command


def test_a_failure_names_the_command_that_shows_its_transcript():
    assert show_command("logs", "csv-1") == "skillscope show logs csv-1"
    assert show_command("my logs", "odd id") == "skillscope show 'my logs' 'odd id'"  # pasted as it is
    assert show_command(None, "csv-1") == "run it again with --keep-logs DIR, then skillscope show DIR csv-1"
