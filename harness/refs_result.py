"""Result model of `skillscope refs`; the markdown, JSON and annotation reports are rendered from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.checks.external import BROKEN, CACHED, EXCLUDED, OK, UNCHECKED, UrlCheck, failure
from harness.model.findings import Finding
from harness.report.github import annotation, finding_annotations
from harness.results import FindingsVerdict, RunMeta

URL_RULES = ("ref-unreachable", "ref-unchecked")


@dataclass
class RefsResult(FindingsVerdict):
    meta: RunMeta
    skills: list[str]
    docs: list[str]
    findings: list[Finding]
    files: int = 0
    internal: int = 0
    external_checked: bool = False
    urls: list[UrlCheck] = field(default_factory=list)

    command = "refs"

    @property
    def broken(self) -> list[UrlCheck]:
        return [u for u in self.urls if u.outcome in (BROKEN, UNCHECKED)]

    def totals(self) -> dict:
        count = {
            outcome: sum(1 for u in self.urls if u.outcome == outcome)
            for outcome in (OK, CACHED, EXCLUDED, BROKEN, UNCHECKED)
        }
        return {
            "skills": len(self.skills),
            "files": self.files,
            "internal": self.internal,
            "external": sum(len(u.uses) for u in self.urls),
            "urls": len(self.urls),
            "reachable": count[OK],
            "cached": count[CACHED],
            "excluded": count[EXCLUDED],
            "broken": count[BROKEN],
            "unchecked": count[UNCHECKED],
            "errors": len(self.errors),
            "warnings": len(self.warnings),
        }

    def annotations(self) -> list[str]:
        """An unreachable URL is annotated at every line that uses it, not only the first."""
        lines = finding_annotations(f for f in self.findings if f.rule not in URL_RULES)
        for item in self.broken:
            finding = failure(item)
            lines.extend(
                annotation(
                    "error", finding.message, file=use.path, line=use.line, title=f"skillscope {finding.rule}"
                )
                for use in item.uses
            )
        return lines

    def to_json(self) -> dict:
        return {
            "harness_version": self.meta.harness_version,
            "repo": self.meta.repo,
            "meta": self.meta.to_json(),
            "skills": self.skills,
            "docs": self.docs,
            "passed": self.passed,
            "external_checked": self.external_checked,
            "totals": self.totals(),
            "findings": [f.to_dict() for f in self.findings],
            "urls": [u.to_json() for u in self.urls],
        }
