"""The `skillscope` command and `python -m harness`.

A run goes to this install's daemon when one listens (harness.daemon), else it runs here
(harness.cli); with `--daemon auto` a run here first starts a daemon for the next. Nothing but the
command names is imported before that choice: a hook that a daemon serves pays only Python's start
and the relay.
"""

from __future__ import annotations

import os
import sys

from harness.commands import COMMANDS


def program() -> None:
    words = sys.argv[1:]
    chosen = next((word for word in words if word in COMMANDS), None)
    admit = None
    if chosen not in (None, "daemon"):  # --version, --help and the daemon's own command run here
        from harness.daemon import autostart, client

        wanted = autostart.mode(words, os.environ)
        if wanted != autostart.OFF:
            code = client.relay(words)
            if code is not None:
                raise SystemExit(code)
        if wanted == autostart.AUTO:
            admit = autostart.admitter(os.environ)
    from harness import cli

    raise SystemExit(cli.main(leave=True, admit=admit))
