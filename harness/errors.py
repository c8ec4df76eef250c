"""The harness's own failures, each mapped to an exit code by the CLI's one handler."""

from __future__ import annotations


class HarnessError(Exception):
    """A run cannot go on; the message is one sentence naming the fix. Exit 1."""

    exit_code = 1


class Interrupted(HarnessError):
    """Ctrl-C ended the run after its report was written. Exit 130, as a shell reports it."""

    exit_code = 130


class UsageError(HarnessError):
    """The command line itself is wrong (a bad flag value). Exit 2."""

    exit_code = 2
