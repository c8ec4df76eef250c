"""The whole command's --timeout, as a value passed around (never a global watchdog)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Deadline:
    seconds: float  # 0 or less: no limit
    started: float = field(default_factory=time.monotonic)

    def remaining(self) -> float:
        if self.seconds <= 0:
            return float("inf")
        return self.seconds - (time.monotonic() - self.started)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def cap(self, seconds: float) -> float:
        """`seconds`, shortened to what the command has left."""
        return max(0.0, min(seconds, self.remaining()))
