"""A finding: one thing wrong with the repo under test, located and explained."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, order=True)
class Finding:
    """`message` is one sentence: what is wrong and the fix. `path` is root-relative."""

    path: str
    line: int | None
    rule: str
    severity: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


def error(rule: str, path: str, message: str, line: int | None = None) -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=ERROR, message=message)


def warning(rule: str, path: str, message: str, line: int | None = None) -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=WARNING, message=message)


def errors_in(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == ERROR]


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Stable report order: by file, then line, then rule; duplicates dropped."""
    return sorted(set(findings), key=lambda f: (f.path, f.line or 0, f.rule, f.message))


def lies_in(finding: Finding, where: str) -> bool:
    """True when the finding is about `where` (a root-relative file) or a file inside that folder."""
    return finding.path == where or finding.path.startswith(where.rstrip("/") + "/")
