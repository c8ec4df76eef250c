"""Each case's timeline and its state, from the ledger; each skill's accuracy run by run.

A case's state is of its current inputs (the digests of its newest graded verdict):
- flaky: among the verdicts with those same digests, pass and fail both occur (or one run's own samples
  disagreed) - nothing changed but the outcome;
- regressed / improved: the newest graded verdict differs from the one before its inputs last changed,
  and the inputs that changed are named (a file of the skills, the case, the agent, model, settings or
  harness version);
- stable: neither;
- ungraded: every run of it errored, was blocked or never started - never a pass or a fail, so never
  a change of one.
An errored sample is no verdict: it is shown in the timeline and skipped by every comparison.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from harness.history.digests import INPUTS
from harness.history.ledger import Entry, Ledger, Run

STABLE, FLAKY, REGRESSED, IMPROVED, UNGRADED = "stable", "flaky", "regressed", "improved", "ungraded"
STATES = (REGRESSED, FLAKY, IMPROVED, STABLE, UNGRADED)  # the order reports list them in
NAMED_FILES = 5  # changed files named per input before "and N more"


@dataclass(frozen=True)
class Change:
    """The change of verdict a regressed or improved case made, and the inputs that changed with it."""

    before: Entry
    after: Entry
    inputs: tuple[str, ...]


@dataclass
class Timeline:
    command: str
    agent: str | None
    case: str
    skill: str | None
    entries: list[Entry] = field(default_factory=list)  # oldest first
    state: str = STABLE
    change: Change | None = None
    quarantined: bool = False  # its newest run listed it in the quarantine

    @property
    def latest(self) -> Entry:
        return self.entries[-1]

    @property
    def current(self) -> str:
        """The newest graded status (pass or fail), or the newest status when none was graded."""
        graded = [e for e in self.entries if e.graded]
        return (graded or self.entries)[-1].status

    def reason(self) -> str:
        """Why it is in its state, in a few words."""
        if self.state == FLAKY:
            same = self.same_inputs()
            passes = sum(1 for e in same if e.status == "pass")
            split = f"{passes} pass, {sum(1 for e in same if e.status == 'fail')} fail"
            return f"{split} with unchanged inputs" + (
                " (its samples disagreed)" if any(e.flaky for e in same) else ""
            )
        if self.change is not None:
            c = self.change
            return f"{c.before.status} -> {c.after.status} when {', '.join(c.inputs)} changed"
        if self.state == UNGRADED:
            return f"no graded run ({self.latest.status} in {len(self.entries)})"
        return f"{self.current} in every graded run of these inputs"

    def same_inputs(self) -> list[Entry]:
        graded = [e for e in self.entries if e.graded]
        if not graded or graded[-1].digests is None:
            return graded[-1:]
        return [e for e in graded if e.digests == graded[-1].digests]


def timelines(ledger: Ledger) -> list[Timeline]:
    """Every case's timeline with its state, by command, agent and case id."""
    found: dict[tuple, Timeline] = {}
    for entry in ledger.entries:
        key = (entry.run.command, entry.run.agent, entry.case)
        line = found.get(key)
        if line is None:
            line = found[key] = Timeline(entry.run.command, entry.run.agent, entry.case, entry.skill)
        line.entries.append(entry)
    for line in found.values():
        judge(line)
    return sorted(found.values(), key=lambda t: (t.command, t.agent or "", t.skill or "", t.case))


def judge(line: Timeline) -> None:
    """Set `line`'s state (and its change, when it regressed or improved)."""
    line.quarantined = line.latest.quarantined
    graded = [e for e in line.entries if e.graded]
    if not graded:
        line.state = UNGRADED
        return
    same = line.same_inputs()
    if len({e.status for e in same}) > 1 or any(e.flaky for e in same):
        line.state = FLAKY
        return
    last = graded[-1]
    # The verdict before the inputs last changed; without digests, any earlier verdict may differ in them.
    earlier = reversed(graded[:-1])
    before = next((e for e in earlier if last.digests is None or e.digests != last.digests), None)
    if before is None or before.status == last.status:
        line.state = STABLE
        return
    line.state = REGRESSED if last.status == "fail" else IMPROVED
    line.change = Change(before, last, changed_inputs(before, last))


def changed_inputs(before: Entry, after: Entry) -> tuple[str, ...]:
    """What changed between two verdicts of one case, named for a person: files by root-relative path,
    the case by its dataset, the agent, model and harness by their versions."""
    if before.digests is None or after.digests is None:
        return ("inputs the older report did not record",)
    named: list[str] = []
    for key in INPUTS:
        if before.digests.get(key) == after.digests.get(key):
            continue
        if key == "case":
            named.append(f"case {after.case}" + (f" ({after.source})" if after.source else ""))
        elif key in ("skill", "room"):
            own = after.run.skill_paths.get(after.skill or "") if key == "skill" else None
            named += [n for n in changed_files(before.run, after.run, own) if n not in named]
        elif key == "agent":
            named.append(f"agent {version(before.run)} -> {version(after.run)}")
        elif key == "model":
            named.append(f"model {before.run.model or 'default'} -> {after.run.model or 'default'}")
        elif key == "settings":
            moved = sorted(
                k
                for k in {*before.run.settings, *after.run.settings}
                if before.run.settings.get(k) != after.run.settings.get(k)
            )
            named.append("settings (" + ", ".join(moved) + ")" if moved else "settings")
        elif key == "harness":
            named.append(f"skillscope {before.run.harness_version} -> {after.run.harness_version}")
    return tuple(named) or ("inputs",)


def changed_files(before: Run, after: Run, under: str | None) -> list[str]:
    """The files (under the folder `under`, or anywhere) whose digests differ, added or removed."""
    paths = sorted(
        p
        for p in {*before.files, *after.files}
        if before.files.get(p) != after.files.get(p)
        and (under is None or p.startswith(under.rstrip("/") + "/"))
    )
    if not paths:
        return [f"the skill folder {under}" if under else "the installed skills"]
    shown = [p + ("" if p in after.files else " (removed)") for p in paths[:NAMED_FILES]]
    return shown + ([f"{len(paths) - NAMED_FILES} more file(s)"] if len(paths) > NAMED_FILES else [])


def version(run: Run) -> str:
    return f"{run.agent or '?'} {run.agent_version or '?'}"


@dataclass(frozen=True)
class Point:
    """A skill's accuracy in one run: passed of graded (errors left out)."""

    run: Run
    passed: int
    graded: int

    @property
    def accuracy(self) -> float | None:
        return float(Fraction(self.passed, self.graded)) if self.graded else None


def accuracy_trend(ledger: Ledger) -> dict[str, list[Point]]:
    """Per skill (routing and behavioral apart: `routing:pdf`, `behavioral:pdf`), its accuracy in each
    run that graded one of its cases, oldest first."""
    trend: dict[str, dict[int, list[int]]] = {}
    for entry in ledger.entries:
        if not entry.graded or entry.skill is None:
            continue
        key = f"{entry.run.command}:{entry.skill}"
        tally = trend.setdefault(key, {}).setdefault(id(entry.run), [0, 0])
        tally[0] += entry.status == "pass"
        tally[1] += 1
    by_id = {id(run): run for run in ledger.runs}
    return {
        key: [Point(by_id[i], passed, graded) for i, (passed, graded) in runs.items()]
        for key, runs in sorted(trend.items())
    }


def tally(lines: Iterable[Timeline]) -> dict[str, int]:
    """How many timelines are in each state."""
    counted = {state: 0 for state in STATES}
    for line in lines:
        counted[line.state] += 1
    return counted
