"""claude_sockets: which TMPDIR claude's sandbox sockets fit in, the short one a run gets instead,
and the sentence of a sandbox that broke after it started."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from harness.agent import claude_sockets as sockets
from harness.agent.trace import ToolCall, Trace

BROKEN = (
    "Sandbox is enabled but failed to initialize: Failed to create bridge sockets after 5 attempts. "
    "Sandboxing is disabled for the rest of this session; restart to retry."
)


def test_the_temp_folder_is_read_as_node_reads_it():
    assert sockets.temp_dir_of({}) == "/tmp"
    assert sockets.temp_dir_of({"TMP": "/a", "TEMP": "/b"}) == "/a"
    assert sockets.temp_dir_of({"TMPDIR": "/c/", "TMP": "/a"}) == "/c"
    assert sockets.temp_dir_of({"TMPDIR": "", "TEMP": "/b"}) == "/b"


@given(st.integers(min_value=1, max_value=200))
def test_a_folder_fits_exactly_when_its_longest_socket_path_is_within_the_limit(length):
    folder = "/" + "x" * (length - 1)
    assert sockets.fits(folder) is (length + len(sockets.LONGEST_SOCKET_NAME) <= sockets.SOCKET_PATH_MAX)


def test_a_temp_folder_that_fits_is_kept(tmp_path):
    with sockets.short_temp_dir({"TMPDIR": "/tmp"}) as short:
        assert short is None


def test_a_long_temp_folder_is_replaced_by_a_short_private_one_removed_after(tmp_path):
    long = tmp_path / ("x" * 90)
    with sockets.short_temp_dir({"TMPDIR": str(long)}) as short:
        assert short is not None and sockets.fits(short) and os.path.isdir(short)
        assert oct(os.stat(short).st_mode & 0o777) == "0o700"
    assert not os.path.exists(short)


def test_with_no_short_parent_the_run_keeps_its_own_and_says_why_later(tmp_path, monkeypatch):
    monkeypatch.setattr(sockets, "SHORT_PARENTS", (str(tmp_path / "missing"),))
    with sockets.short_temp_dir({"TMPDIR": str(tmp_path / ("x" * 90))}) as short:
        assert short is None


def trace_saying(text: str | None) -> Trace:
    trace = Trace()
    trace.tool_calls.append(ToolCall("t1", "Bash", {"command": "ls"}, result_text=text, is_error=True))
    return trace


def test_a_broken_sandbox_under_a_long_temp_folder_names_it_and_the_fix():
    folder = "/" + "y" * 80
    said = sockets.broken_sandbox(trace_saying(BROKEN), {"TMPDIR": folder})
    assert said is not None and folder in said and "81 characters" in said
    assert said.endswith("set TMPDIR to a shorter folder")


def test_a_broken_sandbox_for_another_reason_is_given_in_claudes_words():
    said = sockets.broken_sandbox(trace_saying(BROKEN), {"TMPDIR": "/tmp"})
    assert said == f"claude's sandbox failed after it started ({BROKEN.split(': ', 1)[1]})"


def test_a_run_whose_sandbox_held_has_nothing_to_say():
    assert sockets.broken_sandbox(trace_saying("total 0"), {}) is None
    assert sockets.broken_sandbox(trace_saying(None), {}) is None
    assert sockets.broken_sandbox(Trace(), {}) is None
