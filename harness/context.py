"""What a command may touch of the outside world, passed in rather than read from globals."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from harness.printable import escaped


def in_ci(environ: dict[str, str] | os._Environ) -> bool:
    """Whether this runs in a CI job: CI set to anything but empty, 0, false or no."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@dataclass
class Context:
    """What a command reads and writes outside itself: environment, folder and streams."""

    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    cwd: Path = field(default_factory=Path.cwd)
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    # The run's effective settings (flags over the repo's settings file), recorded in its JSON report.
    settings: dict | None = None

    def out(self, text: str = "") -> None:
        print(escaped(text), file=self.stdout, flush=True)

    def err(self, text: str) -> None:
        print(escaped(text), file=self.stderr, flush=True)

    @property
    def columns(self) -> int:
        """The width to wrap text for a reader at: $COLUMNS when it is a positive number, else the width of
        the terminal stdout writes to, else 80 (shutil.get_terminal_size's order, on this context's own
        environment and stream rather than the process's)."""
        value = self.environ.get("COLUMNS", "").strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
        try:
            return os.get_terminal_size(self.stdout.fileno()).columns or 80
        except (AttributeError, OSError, ValueError):  # not a terminal, or no file behind it (a StringIO)
            return 80

    @property
    def in_github_actions(self) -> bool:
        return self.environ.get("GITHUB_ACTIONS", "").lower() in ("1", "true", "yes", "on")
