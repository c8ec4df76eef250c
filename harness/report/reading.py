"""The command that shows a case's transcript, as findings name it: a failure says what to run."""

from __future__ import annotations

import shlex


def show_command(kept: str | None, case_id: str) -> str:
    """`skillscope show <logs> <case>` for the logs a run kept (quoted to paste), else how to keep them."""
    shown = f"{shlex.quote(kept or 'DIR')} {shlex.quote(case_id)}"
    return (
        f"skillscope show {shown}"
        if kept
        else f"run it again with --keep-logs DIR, then skillscope show {shown}"
    )
