"""What a sample replayed from the result cache carries: the sample as its entry stored it, and the run
that made it. Light on purpose: the result models and renderers import it, and a free run loads those
without the cache itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness import __version__


@dataclass(frozen=True)
class Origin:
    """The run that made an entry: when it started, and with which harness."""

    started_at: str
    harness_version: str = __version__

    def to_json(self) -> dict[str, str]:
        return {"started_at": self.started_at, "harness_version": self.harness_version}

    @classmethod
    def from_json(cls, data: object) -> Origin | None:
        if not isinstance(data, dict):
            return None
        started, version = data.get("started_at"), data.get("harness_version")
        return cls(started, version) if isinstance(started, str) and isinstance(version, str) else None


@dataclass(frozen=True)
class Replay:
    """A verified entry: the sample as stored, and the run that made it."""

    sample: dict
    origin: Origin
