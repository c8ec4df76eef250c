"""A command's clock: when it started, how long it has run, and its --timeout, as a value passed around
(never a global watchdog)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone


def now() -> str:
    """A report's start stamp: UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Deadline:
    """A run's clock: when it started, and how long it may take."""

    seconds: float  # 0 or less: no limit
    started: float = field(default_factory=time.monotonic)
    started_at: str = field(default_factory=now)

    def remaining(self) -> float:
        if self.seconds <= 0:
            return float("inf")
        return self.seconds - (time.monotonic() - self.started)

    def instant(self) -> float | None:
        """The `monotonic()` instant the limit falls at, for code that compares clocks itself."""
        return self.started + self.seconds if self.seconds > 0 else None

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def cap(self, seconds: float) -> float:
        """`seconds`, shortened to what the command has left."""
        return max(0.0, min(seconds, self.remaining()))
