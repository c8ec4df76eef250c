"""The repo's quarantine: flaky cases that are run and reported but do not gate, each until a date.

`.skillscope/quarantine.json`, committed beside the baseline: `{"cases": [{"id", "reason", "expires"}]}`.
An entry holds through its `expires` day (UTC); from the day after, its case gates again and structural
reports the entry (rule quarantine-expired), so a quarantine cannot quietly outlive its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from harness import json_positions, jsonsafe, schemas
from harness.errors import UsageError
from harness.files import UnreadableFile, present, read_text

DEFAULT = Path(".skillscope") / "quarantine.json"
FIX = "fix it, or delete it to quarantine nothing (see docs/commands/history.md#quarantine)"


class QuarantineError(UsageError):
    """The quarantine file is not one: `detail` says why, at `line` when known."""

    def __init__(self, rel: str, line: int | None, detail: str):
        super().__init__(f"{rel}:{line}: {detail}; {FIX}." if line else f"{rel}: {detail}; {FIX}.")
        self.rel, self.line, self.detail = rel, line, detail


@dataclass(frozen=True)
class Entry:
    """One quarantined case, until its `expires` day."""

    id: str
    reason: str
    expires: date
    line: int | None = None  # where the entry starts in the file

    def holds_on(self, day: date) -> bool:
        return day <= self.expires

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "reason": self.reason, "expires": self.expires.isoformat()}


@dataclass(frozen=True)
class Quarantine:
    """The repo's quarantine file, read."""

    rel: str | None = None  # root-relative path of the file; None when the repo has none
    entries: tuple[Entry, ...] = field(default_factory=tuple)

    def in_force(self, day: date) -> dict[str, Entry]:
        """The entries holding on `day`, by case id."""
        return {e.id: e for e in self.entries if e.holds_on(day)}

    def expired(self, day: date) -> list[Entry]:
        return [e for e in self.entries if not e.holds_on(day)]


def load(root: Path) -> Quarantine:
    """The repo's quarantine file, or an empty quarantine when there is none; a file that is not one is
    a usage error in one sentence naming it (and the line, where known)."""
    path = root / DEFAULT
    rel = DEFAULT.as_posix()
    if not present(path):
        return Quarantine()
    try:
        text = read_text(path)
        data = jsonsafe.loads(text, rel)
    except UnreadableFile as exc:
        raise QuarantineError(rel, None, f"cannot be read: {exc.reason}") from None
    except jsonsafe.JsonProblem as exc:
        raise QuarantineError(rel, exc.line, exc.reason) from None
    lines = json_positions.element_lines(text, "cases")
    problems = sorted(schemas.errors("quarantine", data), key=lambda e: list(e.absolute_path))
    if problems:
        error = problems[0]
        where = list(error.absolute_path)
        index = where[1] if len(where) > 1 and where[0] == "cases" else None
        line = lines[index] if isinstance(index, int) and index < len(lines) else None
        field_name = ".".join(str(p) for p in where) or "the file"
        raise QuarantineError(rel, line, f"{field_name}: {error.message}")
    entries = []
    for index, item in enumerate(data["cases"]):
        line = lines[index] if index < len(lines) else None
        try:
            expires = date.fromisoformat(item["expires"])
        except ValueError:
            raise QuarantineError(
                rel, line, f"cases.{index}.expires: {item['expires']!r} is no calendar date"
            ) from None
        entries.append(Entry(item["id"], item["reason"], expires, line))
    return Quarantine(rel, tuple(entries))


def today() -> date:
    """The day in UTC, which expiry dates are read in."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).date()
