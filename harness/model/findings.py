"""A finding: one thing wrong with the repo under test, located and explained."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

ERROR = "error"
WARNING = "warning"
KNOWN = "known"  # recorded in the repo's baseline: shown, never failing
# Numbers standing alone in a message (counts, sizes, line numbers) change with unrelated edits; the
# rest names the offending value or key, which identifies a finding across edits. Digits glued to a
# name (`step1.md`, `v2`, `table-3`) and anything quoted in backticks are part of that name.
QUOTED = re.compile(r"(`[^`]*`)")
NUMBERS = re.compile(r"(?<![\w./\\-])\d+(?:[.,]\d+)*(?![\w/\\-]|\.\w)")


def fingerprint_of(rule: str, path: str, message: str) -> str:
    """Stable across unrelated edits: the rule, the file and the message without its free numbers."""
    parts = QUOTED.split(message)  # odd indexes are the quoted spans, kept whole
    masked = "".join(part if index % 2 else NUMBERS.sub("#", part) for index, part in enumerate(parts))
    key = "\0".join((rule, path, masked))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:20]


@dataclass(frozen=True, order=True)
class Finding:
    """`message` is one sentence: what is wrong and the fix. `path` is root-relative."""

    path: str
    line: int | None
    rule: str
    severity: str
    message: str
    baseline: str | None = None  # KNOWN when the repo's baseline records it
    demoted: bool = False  # an error turned warning by --warn
    lowered: bool = False  # reported below its rule's severity for a reason its message gives
    # The message names the one command that adopts what is there (another tool's eval file): no other
    # remedy (a baseline, --warn) is offered beside it. Said in the message, so never reported apart.
    remedied: bool = field(default=False, compare=False)

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        del data["remedied"]
        for key in ("baseline", "demoted", "lowered"):
            if not data[key]:
                del data[key]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        """A finding as a report holds it (`to_dict`), read back for the renderers."""
        return cls(
            path=data["path"],
            line=data.get("line"),
            rule=data["rule"],
            severity=data["severity"],
            message=data["message"],
            baseline=data.get("baseline"),
            demoted=bool(data.get("demoted")),
        )

    @property
    def fails(self) -> bool:
        """An error that is neither recorded in the baseline nor demoted fails the run."""
        return self.severity == ERROR and self.baseline is None

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.rule, self.path, self.message)

    def known(self) -> Finding:
        return replace(self, baseline=KNOWN)

    def demote(self) -> Finding:
        return replace(self, severity=WARNING, demoted=True) if self.severity == ERROR else self

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


def error(rule: str, path: str, message: str, line: int | None = None) -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=ERROR, message=message)


def warning(rule: str, path: str, message: str, line: int | None = None) -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=WARNING, message=message)


def as_warnings(findings: Iterable[Finding]) -> list[Finding]:
    """The errors reported as warnings: what did not pass in a run whose gate passed all the same
    (`--min-accuracy 0` reports only), so no annotation paints a green run red."""
    return [replace(f, severity=WARNING) if f.severity == ERROR else f for f in findings]


def errors_in(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that fail a run (known and demoted ones do not)."""
    return [f for f in findings if f.fails]


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Stable report order: by file, then line, then rule; duplicates dropped."""
    return sorted(set(findings), key=lambda f: (f.path, f.line or 0, f.rule, f.message))


def lies_in(finding: Finding, where: str) -> bool:
    """True when the finding is about `where` (a root-relative file) or a file inside that folder."""
    return finding.path == where or finding.path.startswith(where.rstrip("/") + "/")
