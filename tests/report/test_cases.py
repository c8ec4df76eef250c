"""harness.report.cases.show_command: the command a failure names to show its transcript, or why there is
none to show."""

from __future__ import annotations

import copy

from harness.report import behavioral, routing
from harness.report.cases import show_command
from tests.support.saved_reports import load


def test_a_failure_names_the_command_that_shows_its_transcript():
    assert show_command("logs", "csv-1") == "skillscope show logs csv-1"
    assert show_command("my logs", "odd id") == "skillscope show 'my logs' 'odd id'"  # pasted as it is
    assert show_command(None, "csv-1") == "run it again with --keep-logs DIR, then skillscope show DIR csv-1"


def test_a_case_replayed_from_the_cache_names_no_kept_log_it_never_wrote():
    """A replayed case kept no transcript in this run's folder (an older run's may sit there under the
    same name): the failure says so and how to keep one."""
    assert show_command("logs", "csv-1", replayed=True) == (
        "replayed from the result cache, which keeps no transcript: run it again with --no-cache "
        "--keep-logs logs, then skillscope show logs csv-1"
    )


def test_a_routing_miss_replayed_from_the_cache_says_so_and_one_run_now_names_its_log():
    report = copy.deepcopy(load("routing"))
    report["meta"]["keep_logs"] = "logs"
    for case in report["cases"]:
        for sample in case["samples"]:
            sample["cached"] = case["id"] == "alpha-pos-2"
    said = {f.message.split("`")[1]: f.message for f in routing.findings(report)}
    assert "replayed from the result cache, which keeps no transcript" in said["alpha-pos-2"]
    assert said["alpha-pos-3"].endswith("its transcript: skillscope show logs alpha-pos-3")


def test_a_behavioral_failure_replayed_from_the_cache_says_so():
    report = copy.deepcopy(load("behavioral"))
    report["meta"]["keep_logs"] = "logs"
    failing = next(c for c in report["cases"] if c["status"] == "fail")
    failing["cached"] = True
    assert "replayed from the result cache" in behavioral.failure_words(failing, "logs")
