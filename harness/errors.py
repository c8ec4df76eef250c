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


class FileProblem(Exception):
    """A file that cannot be loaded as its format: `str()` is one line naming it (`name:line: reason`).
    Not a HarnessError: each caller words the fix, as a finding or as the error that ends its run."""

    def __init__(self, name: str, reason: str, line: int | None = None):
        # One line, whatever the parser said: its messages may span several.
        self.name, self.reason, self.line = name, " ".join(reason.split()), line
        where = f"{name}:{line}" if name and line else name
        super().__init__(f"{where}: {self.reason}" if where else self.reason)
