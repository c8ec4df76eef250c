"""Result models of the offline commands; every report format is rendered from one of these."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness import __version__
from harness.model.findings import ERROR, WARNING, Finding


@dataclass
class RunMeta:
    command: str
    repo: str
    globs: list[str]
    started_at: str
    elapsed_s: float = 0.0
    harness_version: str = __version__

    def to_json(self) -> dict:
        return {
            "command": self.command,
            "harness_version": self.harness_version,
            "repo": self.repo,
            "skills_dir": self.globs,
            "started_at": self.started_at,
            "elapsed_s": round(self.elapsed_s, 3),
        }


class FindingsVerdict:
    """A result graded by its findings: any error fails it, warnings do not."""

    findings: list[Finding]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def passed(self) -> bool:
        return not self.errors


@dataclass
class StructuralResult(FindingsVerdict):
    meta: RunMeta
    skills: list[str]
    findings: list[Finding]
    cases: int = 0
    datasets: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    command = "structural"

    def totals(self) -> dict:
        return {
            "skills": len(self.skills),
            "datasets": self.datasets,
            "cases": self.cases,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            **self.counts,
        }

    def to_json(self) -> dict:
        return {
            "harness_version": self.meta.harness_version,
            "repo": self.meta.repo,
            "meta": self.meta.to_json(),
            "skills": self.skills,
            "passed": self.passed,
            "totals": self.totals(),
            "findings": [f.to_dict() for f in self.findings],
        }
