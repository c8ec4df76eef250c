"""The harness's own failures, each mapped to an exit code by the CLI's one handler."""

from __future__ import annotations


class HarnessError(Exception):
    """A run cannot go on; the message is one sentence naming the fix. Exit 1."""

    exit_code = 1


class Interrupted(HarnessError):
    """A signal ended the run: exit 130 after SIGINT (Ctrl-C), 143 after SIGTERM, as a shell reports
    a process they ended."""

    def __init__(self, message: str, exit_code: int = 130) -> None:
        super().__init__(message)
        self.exit_code = exit_code


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
