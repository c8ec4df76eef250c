"""Why an agent run (or its preflight prompt) failed, in one sentence, worded once for every runtime.

The drive loop sets `Trace.error` from `explain`; a kept log's error is `reported_error`; a failed
preflight raises with `explain_preflight`, which names the runtime's own credential and endpoint
variables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .spec import PROBE_TIMEOUT_S
from .trace import Trace, one_line

API_STATUS_MEANING = {
    400: "bad request",
    401: "authentication failed",
    403: "permission denied",
    404: "not found",
    413: "request too large",
    429: "rate limited",
    500: "internal server error",
    502: "bad gateway",
    503: "unavailable",
    504: "gateway timeout",
    529: "overloaded",
}
# The fix for a run whose tools failed in the agent's own environment (ENVIRONMENT_FAILURES).
ENVIRONMENT_FIX = "fix the agent's sandbox or install the helper it runs, then rerun"
UNREACHABLE = ("connection", "econnrefused", "unable to connect", "fetch failed")
# What a tool's output says when the agent's own environment failed it rather than the task: its shell
# sandbox could not start or refused the call, or a helper the CLI runs is missing. (A missing file the
# model asked for, or a command it guessed, is the model's doing: "No such file" and "command not found"
# alone are not among them.)
ENVIRONMENT_FAILURES = (
    r"\bbwrap: [^\n]*",
    r"\bexecvp\b[^\n]*",
    r"\bsandbox(?:-exec)?\b[^\n]*(?:denied|not permitted|failed|error)[^\n]*",
    r"\b(?:landlock|seccomp)\b[^\n]*",
)


def unreadable_output(runtime: str, detail: str) -> str:
    """The error of a run whose output the harness's reader could not take: our bug, not the skill's."""
    return (
        f"skillscope could not read {runtime}'s output ({detail}); this is a bug in skillscope, "
        "please report it"
    )


def reported_error(runtime: str, trace: Trace) -> str | None:
    """The failure the runtime's own stream reported (the API's status, an error result), or None;
    an error result of another kind (claude's `error_max_turns`) is `Trace.failure`'s to word."""
    detail = "; ".join(trace.result_errors)
    if trace.api_error_status is not None:
        meaning = API_STATUS_MEANING.get(trace.api_error_status, "an error")
        said = f": {one_line(detail)}" if detail else ""
        return f"the API answered {trace.api_error_status} ({meaning}){said}"
    if trace.is_error and trace.result_subtype in (None, "success"):
        return f"{runtime} reported an error: {one_line(detail or trace.final_message or 'no detail')}"
    return None


def explain(runtime: str, trace: Trace, timeout_s: float) -> str | None:
    """One sentence saying why the run failed, or None when it did not (it finished, or a stop
    policy ended it on purpose)."""
    if trace.stop_reason == "cancelled":
        return f"interrupted: skillscope was cancelled before {runtime} finished"
    if trace.stop_reason == "timeout":
        return f"timed out after {timeout_s:g} s before {runtime} finished"
    reported = reported_error(runtime, trace)
    if reported is not None:
        return reported
    if trace.result_seen or trace.stop_reason not in ("completed", "killed"):
        return None
    stderr = one_line(trace.stderr_tail, tail=True)
    if trace.event_count == 0:
        if trace.exit_code:
            return f"{runtime} exited {trace.exit_code} without any JSON output: {stderr or 'no stderr'}"
        shown = one_line(trace.non_json_sample) or stderr
        return f"{runtime} produced no JSON output" + (f": {shown}" if shown else "")
    how = "was killed" if trace.stop_reason == "killed" else f"exited {trace.exit_code}"
    return f"{runtime} {how} before reporting a result" + (f": {stderr}" if stderr else "")


def explain_preflight(
    runtime: str, credentials: Sequence[str], endpoint: str, trace: Trace, timeout_s: float
) -> str:
    """Why the one-word preflight prompt failed, and the fix: `credentials` are the variables the
    runtime takes its key from, `endpoint` the one naming its API."""
    said = " ".join(f"{trace.final_message or ''} {trace.stderr_tail}".split())
    first, *others = credentials
    if "not logged in" in said.lower():
        also = f" (or {' or '.join(others)})" if others else ""
        return f"{runtime} is not logged in: set {first}{also}, or run `{runtime}` once and log in"
    if trace.api_error_status in (401, 403):
        return f"the API rejected the credentials ({trace.error}): check {' or '.join(credentials)}"
    if trace.stop_reason == "cancelled":
        return f"interrupted during the {runtime} preflight prompt"
    if trace.stop_reason == "timeout":
        if timeout_s < PROBE_TIMEOUT_S:
            return f"the command's --timeout ran out during the preflight prompt (after {timeout_s:g} s)"
        return (
            f"{runtime} did not answer a one-word prompt within {PROBE_TIMEOUT_S} s: "
            f"check the network and {endpoint}"
        )
    if trace.api_error_status is not None:
        return f"the API is not usable right now ({trace.error}): try again later"
    if any(word in said.lower() for word in UNREACHABLE):
        return f"{runtime} cannot reach the API ({said[:200]}): check the network and {endpoint}"
    return f"{runtime} failed a one-word preflight prompt ({trace.failure or 'no detail'})"


def environment_failure(text: str, own: Sequence[str] = ()) -> str | None:
    """The line of a failed tool's output saying the agent's environment failed it (ENVIRONMENT_FAILURES,
    and the runtime's `own` patterns), or None when it failed for the task's reasons."""
    for pattern in (*own, *ENVIRONMENT_FAILURES):
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            return one_line(found.group(0)) or one_line(text)
    return None
