"""The agent logs a paid run kept (`--keep-logs`), as its report records them: each file the run wrote
under the folder, by its path there, with the digest of its bytes.

Runs given the same folder write their cases' logs under the same names, so a later run writes over an
earlier one's. The record lets `show` lead from a report only to logs its own run wrote, and refuse one
that another run has since written over, instead of showing it as that case's.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import UsageError
from harness.model.digests import file_digest
from harness.paid.result import Result

Signature = tuple[int, int, int]  # (inode, size, mtime in ns): a file written again has another


@dataclass(frozen=True)
class KeptFolder:
    """A --keep-logs folder as it was before the run: what the run writes there is what changed since."""

    folder: Path
    before: dict[str, Signature]

    @classmethod
    def before_run(cls, folder: Path) -> KeptFolder:
        return cls(folder, signatures(folder))

    def written(self) -> dict[str, str]:
        """Each file written under the folder since the run began, by its path there, with its digest."""
        now = signatures(self.folder)
        changed = sorted(rel for rel, signature in now.items() if self.before.get(rel) != signature)
        return {rel: file_digest(self.folder / rel) for rel in changed}

    def overwritten(self, written: dict[str, str]) -> int:
        """How many of the files this run `written` were there before it: an earlier run's, now lost."""
        return sum(rel in self.before for rel in written)


def signatures(folder: Path) -> dict[str, Signature]:
    """Each regular file under `folder` (links are not followed) by its posix path there."""
    found: dict[str, Signature] = {}
    for current, _, files in os.walk(folder):
        for name in files:
            path = Path(current, name)
            try:
                seen = path.lstat()  # one look: a link is never a regular file here
            except OSError:
                continue  # gone between the listing and the look: not a file the report can lead to
            if stat.S_ISREG(seen.st_mode):
                found[path.relative_to(folder).as_posix()] = (seen.st_ino, seen.st_size, seen.st_mtime_ns)
    return found


@dataclass(frozen=True)
class WithKeptLogs:
    """`result` whose JSON report records the logs its run kept (see KeptFolder.written)."""

    result: Result
    kept_logs: dict[str, str]

    @property
    def command(self) -> str:
        return self.result.command

    @property
    def passed(self) -> bool:
        return self.result.passed

    @property
    def schema(self) -> str:  # report.publish checks the JSON against the schema a result names
        return getattr(self.result, "schema", f"{self.result.command}-report")

    def to_json(self) -> dict:
        return {**self.result.to_json(), "kept_logs": self.kept_logs}


def recorded(report: dict[str, Any]) -> dict[str, str] | None:
    """The logs a report's run recorded writing, or None for a report that records none (an older one)."""
    kept = report.get("kept_logs")
    return kept if isinstance(kept, dict) else None


def written_by_run(label: str, path: Path, kept: dict[str, str], report: str) -> bool:
    """Whether the kept file `label` (its path in the folder) is one the run of `report` wrote: False when
    the run wrote no file of that name; a UsageError when it did, and another run has written over it."""
    digest = kept.get(label)
    if digest is None:
        return False
    if file_digest(path) != digest:
        raise UsageError(
            f"{path}: another run has written over this log since the run of {report} kept it, so it is "
            f"not what that run's case did; give each run a --keep-logs folder of its own, and run the "
            "case again to read its transcript"
        )
    return True
