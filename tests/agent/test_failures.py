"""Which failed tool outputs are the agent's own environment's doing, and which runs a runtime's retry
rule takes: what the routing and behavioral runners act on, checked without a CLI."""

from __future__ import annotations

import pytest

from harness.agent import RetryRule, Trace
from harness.agent.failures import environment_failure
from harness.agent.gemini import GeminiAgent


@pytest.mark.parametrize(
    "output",
    [
        "bwrap: execvp codex-linux-sandbox: No such file or directory",
        "bwrap: No permissions to creating new namespace",
        "sandbox-exec: sandbox_apply: Operation not permitted, denied",
        "error: landlock ruleset could not be applied",
    ],
)
def test_a_sandbox_or_missing_helper_is_the_environment(output):
    assert environment_failure(f"some preamble\n{output}\n") is not None


@pytest.mark.parametrize(
    "output",
    [
        "cat: notes.md: No such file or directory",
        "bash: pdftotext: command not found",
        "grep: exit status 1",
    ],
)
def test_what_the_model_asked_for_failing_is_not(output):
    assert environment_failure(output) is None


def test_a_runtime_adds_its_own_patterns():
    assert environment_failure("helper-x crashed", own=(r"helper-x[^\n]*",)) == "helper-x crashed"


def early_end(**fields) -> Trace:
    trace = Trace(**{"result_seen": True, "is_error": True, "stop_reason": "result", **fields})
    trace.result_errors.append("Model stream ended without a finish reason.")
    return trace


def test_gemini_declares_its_early_stream_end_retryable():
    (rule,) = GeminiAgent.retry_on
    assert rule.matches(early_end())
    assert not rule.matches(early_end(api_error_status=503))  # the API's own answer is no CLI failure
    assert not rule.matches(Trace(result_seen=True, stop_reason="result"))  # a run that did not fail


def test_a_cancelled_run_is_never_retried():
    assert not RetryRule("Model stream", "why").matches(early_end(error="x", stop_reason="cancelled"))
