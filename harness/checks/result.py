"""Result models of the offline commands, structural and refs: data and JSON only; the reports render them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.checks.packaging import HostVerdict
from harness.checks.url_outcomes import BROKEN, CACHED, EXCLUDED, OK, UNCHECKED
from harness.model.envelope import FAIL, PASS, RunMeta, counts, envelope
from harness.model.findings import WARNING, Finding, lies_in

if TYPE_CHECKING:  # the HTTP checker is loaded only by a run that fetches
    from harness.checks.external import UrlCheck


class FindingsVerdict:
    """A result graded by its findings: any error fails it, warnings do not, nor do errors the
    repo's baseline records (`known`) or rules demoted with --warn."""

    meta: RunMeta
    skills: list[str]
    findings: list[Finding]
    baseline_file: str | None  # root-relative, when a baseline is in force
    fixed: list[dict]  # recorded findings that no longer occur
    demoted_rules: tuple[str, ...]
    raised_rules: tuple[str, ...]

    def adoption_json(self) -> dict:
        """What the baseline and --warn changed, so an adopted rule never reads as a passing one."""
        return {
            "file": self.baseline_file,
            "known": len(self.known),
            "fixed": self.fixed,
            "demoted_rules": list(self.demoted_rules),
            "demoted": sum(1 for f in self.findings if f.demoted),
            "raised_rules": list(self.raised_rules),
        }

    @property
    def errors(self) -> list[Finding]:
        """The errors that fail the run: not recorded in the baseline."""
        return [f for f in self.findings if f.fails]

    @property
    def known(self) -> list[Finding]:
        return [f for f in self.findings if f.baseline]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def passed(self) -> bool:
        return not self.errors

    def finding_totals(self) -> dict[str, int]:
        return {"errors": len(self.errors), "warnings": len(self.warnings), "known": len(self.known)}

    def opening_json(self, statuses: list[str]) -> dict:
        """The envelope, run metadata and skills every findings-graded report opens with."""
        return {
            **envelope(self.meta, self.passed, counts(statuses)),
            "meta": self.meta.to_json(),
            "skills": self.skills,
        }


def failing(units: list[str], found: list[Finding]) -> list[str]:
    """Each unit (a folder or a file, root-relative) `pass` or `fail`: it fails when an error finding
    lies in it."""
    broken = [f for f in found if f.fails]
    return [FAIL if any(lies_in(f, unit) for f in broken) else PASS for unit in units]


@dataclass
class StructuralResult(FindingsVerdict):
    """A structural run's outcome, as its JSON report holds it."""

    meta: RunMeta
    skills: list[str]
    findings: list[Finding]
    cases: int = 0
    datasets: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    folders: dict[str, str] = field(default_factory=dict)  # skill name -> root-relative folder
    baseline_file: str | None = None
    fixed: list[dict] = field(default_factory=list)
    demoted_rules: tuple[str, ...] = ()
    # host -> its packaging verdict; empty when the repo has no plugin or marketplace manifest
    packaging: dict[str, HostVerdict] = field(default_factory=dict)
    raised_rules: tuple[str, ...] = ()
    headroom: dict | None = None  # each skill's description headroom per agent (checks/headroom.py)

    command = "structural"

    def units(self) -> dict[str, str]:
        """Each skill's root-relative folder, which its findings lie in."""
        return {name: self.folders.get(name, name) for name in self.skills}

    def statuses(self) -> dict[str, str]:
        """Each skill's status word: `fail` when an error finding lies in its folder."""
        units = self.units()
        return dict(zip(units, failing(list(units.values()), self.findings), strict=True))

    def totals(self) -> dict:
        return {
            "skills": len(self.skills),
            "datasets": self.datasets,
            "cases": self.cases,
            **self.finding_totals(),
            **self.counts,
        }

    def to_json(self) -> dict:
        return {
            **self.opening_json(list(self.statuses().values())),
            "folders": self.units(),
            "totals": self.totals(),
            "findings": [f.to_dict() for f in self.findings],
            "baseline": self.adoption_json(),
            **(
                {"packaging": {host: v.to_json() for host, v in self.packaging.items()}}
                if self.packaging
                else {}
            ),
            **({"headroom": self.headroom} if self.headroom is not None else {}),
        }


@dataclass
class RefsResult(FindingsVerdict):
    """A refs run's outcome, as its JSON report holds it."""

    meta: RunMeta
    skills: list[str]
    docs: list[str]
    findings: list[Finding]
    files: int = 0
    internal: int = 0
    external_checked: bool = False
    # Uses of external URLs the scan found but --no-external left unfetched: said, so 0 never reads as none.
    external_skipped: int = 0
    urls: list[UrlCheck] = field(default_factory=list)
    baseline_file: str | None = None
    fixed: list[dict] = field(default_factory=list)
    demoted_rules: tuple[str, ...] = ()
    raised_rules: tuple[str, ...] = ()

    command = "refs"

    @property
    def broken(self) -> list[UrlCheck]:
        return [u for u in self.urls if u.outcome in (BROKEN, UNCHECKED)]

    def statuses(self) -> list[str]:
        """One status word per markdown file checked: the files holding an error finding fail; the
        scan counts files without naming them, so the rest pass."""
        broken = {f.path for f in self.errors if f.path != "."}
        broken.update(use.path for url in self.broken for use in url.uses)
        failed = min(len(broken), self.files)
        return [FAIL] * failed + [PASS] * (self.files - failed)

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
            "not_checked": self.external_skipped,
            "urls": len(self.urls),
            "reachable": count[OK],
            "cached": count[CACHED],
            "excluded": count[EXCLUDED],
            "broken": count[BROKEN],
            "unchecked": count[UNCHECKED],
            **self.finding_totals(),
        }

    def to_json(self) -> dict:
        return {
            **self.opening_json(self.statuses()),
            "docs": self.docs,
            "external_checked": self.external_checked,
            "totals": self.totals(),
            "findings": [f.to_dict() for f in self.findings],
            "urls": [u.to_json() for u in self.urls],
            "baseline": self.adoption_json(),
        }
