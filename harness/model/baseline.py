"""The repo's baseline: findings it has agreed to fix later, so that only new ones fail.

A finding is recorded by its fingerprint (rule, file and message without numbers), with a count so
that a second copy of the same problem is still new. Rules can also be demoted to warnings as a
whole with --warn. Both are recorded in every report, so nobody mistakes an adopted rule for a
passing one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from harness import jsonsafe
from harness.errors import UsageError
from harness.files import UnreadableFile, read_text
from harness.model import quarantine
from harness.model import rules as rule_table
from harness.model.findings import ERROR, WARNING, Finding, fingerprint_of
from harness.model.repo import Repo

TYPE_CHECKING = False  # typing's flag without importing typing, which these need only for annotations
if TYPE_CHECKING:
    from typing import Any

DEFAULT = Path(".skillscope") / "baseline.json"
FORMAT = 1
# The security rules: a baseline entry holds one of their findings only with a reason and an expiry date,
# as a quarantine entry does, so an accepted risk is looked at again (tests keep it in step with the pack).
NEEDS_REASON = frozenset(
    {
        "hidden-unicode",
        "hidden-directive",
        "instruction-override",
        "fetch-and-execute",
        "exfiltration-sink",
        "secret",
        "encoded-payload",
        "padding",
        "opaque-file",
        "not-scanned",
        "wide-permission",
        "undeclared-capability",
    }
)
# About this run, not the repo (offline, out of time, a cache file): their own message says the fix.
ABOUT_THE_RUN = frozenset({"ref-unchecked", "cache-unreadable", "cache-unwritable"})
# About other people's servers: `skillscope baseline` fetches no URL, so never records them.
NEVER_RECORDED = frozenset({"ref-unreachable", *ABOUT_THE_RUN})
# A run that found no skill graded nothing: recorded or demoted, it would turn that run green.
NEVER_ADOPTED = frozenset({"no-skill"})
# A file the harness cannot read or parse: demoted, the run goes on without what the file says (a
# skill with no name or description, a dataset with no case), so the hint offers no --warn for these.
UNREADABLE = frozenset(
    {
        "skill-md-unreadable",
        "frontmatter-missing",
        "frontmatter-unclosed",
        "frontmatter-yaml",
        "frontmatter-not-mapping",
        "skill-file-unreadable",
        "dataset-unreadable",
        "dataset-json",
        "machine-unreadable",
        "machine-yaml",
        "packaging-manifest-json",
    }
)


def first_run_hint(failing: Iterable[Finding]) -> str:
    """One line for a repo without a baseline whose run these findings fail: the two ways to adopt
    the rules an existing catalog breaks (a baseline of today's findings, or demoted rules)."""
    # A finding whose message gives the one command that adopts it needs no second remedy.
    fired = sorted({f.rule for f in failing if not f.remedied} - ABOUT_THE_RUN - NEVER_ADOPTED)
    if not fired:
        return ""
    demotable = [rule for rule in fired if rule not in UNREADABLE]
    them = "that rule to a warning" if len(demotable) == 1 else "those rules to warnings"
    warn = f"`--warn {','.join(demotable)}` demotes {them}"
    if all(rule in NEVER_RECORDED for rule in fired):
        return f"To accept these for now, {warn}."
    baseline = (
        "Adopting an existing catalog? `skillscope baseline` (with the same skills and policy flags) "
        f"records today's findings so only new ones fail (commit {DEFAULT.as_posix()})"
    )
    return f"{baseline}, or {warn}." if demotable else f"{baseline}."


@dataclass
class Baseline:
    """The findings a repo adopted (.skillscope/baseline.json), by fingerprint."""

    path: Path | None = None  # None: no baseline in force
    # fingerprint -> rule, path, message, count
    recorded: dict[str, dict[str, Any]] = field(default_factory=dict)

    def counts(self) -> Counter[str]:
        return Counter({key: entry.get("count", 1) for key, entry in self.recorded.items()})


@dataclass
class Adopted:
    """Findings with the baseline and demotions applied, and the recorded ones that no longer occur."""

    findings: list[Finding]
    fixed: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Adoption:
    """The baseline and the demoted rules in force for one run."""

    baseline: Baseline
    demoted: tuple[str, ...] = ()
    raised: tuple[str, ...] = ()  # warning rules made errors by --error

    def apply(
        self,
        found: Iterable[Finding],
        checked: Callable[[str], bool] | None = None,
        looked_at: Callable[[str], bool] | None = None,
    ) -> Adopted:
        return apply(raise_rules(found, self.raised), self.baseline, self.demoted, checked, looked_at)

    def record(self, adopted: Adopted, repo: Repo) -> dict[str, Any]:
        """The result fields saying what the baseline and --warn changed."""
        path = self.baseline.path
        return {
            "baseline_file": repo.rel(path) if path else None,
            "fixed": adopted.fixed,
            "demoted_rules": self.demoted,
            "raised_rules": self.raised,
        }


def load(explicit: str | None, root: Path, cwd: Path) -> Baseline:
    """--baseline FILE (relative to where the command ran), else .skillscope/baseline.json when present."""
    path = (cwd / explicit) if explicit else root / DEFAULT
    if not explicit and not path.is_file():
        return Baseline()
    try:
        data = jsonsafe.loads(read_text(path), str(path))
    except UnreadableFile as exc:
        raise UsageError(
            f"--baseline {path} cannot be read: {exc.reason}; write one with `skillscope baseline`."
        ) from None
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{exc}; write the baseline again with `skillscope baseline`.") from None
    entries = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "fingerprint" in e for e in entries):
        raise UsageError(
            f"{path} is not a skillscope baseline (a `findings` list of fingerprints); "
            "write it again with `skillscope baseline`."
        )
    return Baseline(path, {keyed(e): e for e in entries})


def keyed(entry: dict[str, Any]) -> str:
    """An entry's fingerprint, derived again from its rule, file and message where it records them, so
    a baseline written by an older harness is read by today's rule for what a finding's name is."""
    rule, path, message = (entry.get(k) for k in ("rule", "path", "message"))
    if isinstance(rule, str) and isinstance(path, str) and isinstance(message, str):
        return fingerprint_of(rule, path, message)
    return str(entry["fingerprint"])


def apply(
    found: Iterable[Finding],
    baseline: Baseline,
    demoted: Iterable[str] = (),
    checked: Callable[[str], bool] | None = None,
    looked_at: Callable[[str], bool] | None = None,
) -> Adopted:
    """Mark recorded errors known (up to their recorded count) and demote the named rules. `checked`
    says which rules this run looked for, `looked_at` which paths (default: all): a recorded finding
    of a rule it did not check, or in a skill a narrowed run left out, is not reported fixed, since
    the run could not have seen it. A NEVER_ADOPTED finding stays an error whatever is recorded."""
    rules = known_rules(demoted)
    left = baseline.counts()
    out = []
    for finding in found:
        if finding.rule in NEVER_ADOPTED:
            out.append(finding)
            continue
        if finding.rule in rules:
            finding = finding.demote()
        key = finding.fingerprint
        if finding.severity == ERROR and left[key] > 0:
            left[key] -= 1
            why = unjustified(baseline.recorded[key], finding.rule)
            finding = replace(finding, message=finding.message + why) if why else finding.known()
        out.append(finding)
    fixed = [
        {**baseline.recorded[key], "count": count}
        for key, count in sorted(left.items())
        if count > 0
        and looked_for(baseline.recorded[key], checked)
        and baseline.recorded[key].get("rule") not in NEVER_ADOPTED
        and (looked_at is None or looked_at(str(baseline.recorded[key].get("path", ""))))
    ]
    return Adopted(out, fixed)


def looked_for(entry: dict[str, Any], checked: Callable[[str], bool] | None) -> bool:
    """Whether a run that checked these rules could have seen the recorded finding (an entry that
    names no rule is taken as seen, as before rules were recorded)."""
    rule = entry.get("rule")
    return checked is None or not isinstance(rule, str) or checked(rule)


def unjustified(entry: dict[str, Any], rule: str, day: date | None = None) -> str:
    """Why a baseline entry does not hold a finding of a rule that needs a reason and an expiry (empty
    when it holds): completes the finding's message."""
    if rule not in NEEDS_REASON:
        return ""
    reason, expires = entry.get("reason"), entry.get("expires")
    try:
        until = date.fromisoformat(expires) if isinstance(expires, str) else None
    except ValueError:
        until = None
    if not isinstance(reason, str) or not reason.strip() or until is None:
        return (
            "; the baseline records it, but holds a security finding only with a `reason` and an `expires` "
            "date (YYYY-MM-DD) in its entry: add both, or fix the finding"
        )
    if until < (day or quarantine.today()):
        return (
            f"; its baseline entry expired on {until.isoformat()} ({reason.strip()}): renew it with a new "
            "date and reason, or fix the finding"
        )
    return ""


def raise_rules(found: Iterable[Finding], raised: Iterable[str]) -> list[Finding]:
    """The warnings of the `raised` rules made errors, so they gate; a finding reported lower for a
    reason its message gives (a fenced example in a skill about security) stays a warning."""
    rules = known_rules(raised, "--error")
    return [
        replace(f, severity=ERROR) if f.rule in rules and f.severity == WARNING and not f.lowered else f
        for f in found
    ]


def known_rules(names: Iterable[str], flag: str = "--warn") -> set[str]:
    """`names` as a set, each a rule the harness has (harness/data/rules.json), or a usage error naming
    the first unknown one and the rule it resembles (else the command that lists them): a misspelt --warn
    must not demote nothing."""
    names = set(names)
    if not names:
        return names
    import difflib

    rules = rule_table.table()
    for name in sorted(names & NEVER_ADOPTED) if flag == "--warn" else []:
        raise UsageError(
            f"{flag} {name}: a run that finds no skill graded nothing, so {name} is always an error; "
            "fix --skills-dir instead"
        )
    for name in sorted(names - set(rules)):
        close = difflib.get_close_matches(name, sorted(rules), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}?" if close else "`skillscope rules` lists them."
        raise UsageError(f"{flag} {name}: no rule of that name; {hint}")
    return names


def document(found: Iterable[Finding], version: str) -> dict[str, Any]:
    """The baseline file recording every error of `found`."""
    found = [f for f in found if f.rule not in NEVER_ADOPTED]
    counts = Counter(f.fingerprint for f in found if f.severity == ERROR)
    first = {f.fingerprint: f for f in found if f.severity == ERROR}
    entries = [
        {
            "fingerprint": key,
            "rule": first[key].rule,
            "path": first[key].path,
            "message": first[key].message,
            "count": count,
        }
        for key, count in counts.items()
    ]
    entries.sort(key=lambda e: (e["path"], e["rule"], e["message"]))
    return {"format": FORMAT, "written_by": f"skillscope {version}", "findings": entries}


def pruned(
    baseline: Baseline, found: Iterable[Finding], version: str, looked_at: Callable[[str], bool] | None = None
) -> dict[str, Any]:
    """The baseline without what no longer occurs, adding nothing new; an entry at a path the run did
    not look at (`looked_at`, default: every path) is kept whole."""
    now = Counter(f.fingerprint for f in found if f.severity == ERROR)
    entries = []
    for key, entry in baseline.recorded.items():
        unseen = looked_at is not None and not looked_at(str(entry.get("path", "")))
        kept = entry.get("count", 1) if unseen else min(entry.get("count", 1), now[key])
        if kept:
            entries.append({**entry, "count": kept})
    entries.sort(key=lambda e: (e.get("path", ""), e.get("rule", ""), e.get("message", "")))
    return {"format": FORMAT, "written_by": f"skillscope {version}", "findings": entries}
