"""Each case's timeline and its state, from the ledger; each skill's accuracy run by run.

A case's state, flakiness first:
- flaky: among the verdicts of some one set of inputs (the same digests), pass and fail both occur, or
  one run's own samples disagreed - nothing changed but the outcome. Such a case's verdict is noise,
  so no later change of inputs is blamed for it (within the runs read: `--since` ends an old spell);
- regressed / improved: the newest graded verdict differs from the one before its inputs last changed,
  and the inputs that changed are named (a file of the skills, the case, the agent, model, settings or
  harness version): only ever a case that was stable under each of its inputs;
- stable: neither;
- ungraded: every run of it errored, was blocked or never started - never a pass or a fail, so never
  a change of one.
An errored sample is no verdict: it is shown in the timeline and skipped by every comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress

from harness.history.ledger import (
    FLAKY_FLAG,
    GRADED_CODES,
    QUARANTINED_FLAG,
    REPLAYED_FLAG,
    Entry,
    Key,
    Ledger,
    Rows,
    Run,
)
from harness.model.provenance import INPUTS

STABLE, FLAKY, REGRESSED, IMPROVED, UNGRADED = "stable", "flaky", "regressed", "improved", "ungraded"
STATES = (REGRESSED, FLAKY, IMPROVED, STABLE, UNGRADED)  # the order reports list them in
NAMED_FILES = 5  # changed files named per input before "and N more"
PASS_CODE = 0  # the ledger codes "pass" as 0 and "fail" as 1


@dataclass(frozen=True)
class Change:
    """The change of verdict a regressed or improved case made, and the inputs that changed with it."""

    before: Entry
    after: Entry
    inputs: tuple[str, ...]


class Timeline:
    """One case's verdicts over the runs (its ledger rows) and its state; entries are made on demand."""

    def __init__(self, ledger: Ledger, key: Key, rows: Rows) -> None:
        self.ledger, self.rows = ledger, rows
        self.command, self.agent, self.case = key
        self.skill = rows.skill
        self.state = STABLE
        self.change: Change | None = None
        self.quarantined = bool(rows.flags[-1] & QUARANTINED_FLAG)  # its newest run listed it
        self._entries: list[Entry] | None = None
        self._graded: list[int] | None = None

    def entry(self, i: int) -> Entry:
        return self.ledger.entry((self.command, self.agent, self.case), self.rows, i)

    @property
    def entries(self) -> list[Entry]:
        """Every verdict, oldest first."""
        if self._entries is None:
            self._entries = [self.entry(i) for i in range(len(self.rows.runs))]
        return self._entries

    @property
    def statuses(self) -> list[str]:
        words = self.ledger.words
        return [words[s] for s in self.rows.status]

    @property
    def latest(self) -> Entry:
        return self.entry(len(self.rows.runs) - 1)

    def graded(self) -> list[int]:
        """The rows with a verdict (pass or fail), oldest first; worked out once, as the state, the
        reason and the current status each ask."""
        if self._graded is None:
            status = self.rows.status
            self._graded = list(compress(range(len(status)), map(GRADED_CODES.__gt__, status)))
        return self._graded

    @property
    def current(self) -> str:
        """The newest graded status (pass or fail), or the newest status when none was graded."""
        graded = self.graded()
        return self.ledger.words[self.rows.status[graded[-1] if graded else -1]]

    def reason(self) -> str:
        """Why it is in its state, in a few words."""
        if self.state == FLAKY:
            same = self.flipped()
            status = self.rows.status
            passes = sum(1 for i in same if status[i] == PASS_CODE)
            split = f"{passes} pass, {len(same) - passes} fail"
            earlier = "" if same[-1] in self.same_inputs() else ", before its inputs last changed"
            return f"{split} with unchanged inputs{earlier}" + (
                " (its samples disagreed)" if any(self.rows.flags[i] & FLAKY_FLAG for i in same) else ""
            )
        if self.change is not None:
            c = self.change
            return f"{c.before.status} -> {c.after.status} when {', '.join(c.inputs)} changed"
        if self.state == UNGRADED:
            return f"no graded run ({self.latest.status} in {len(self.rows.runs)})"
        replays = self.replays()
        if replays and replays >= len(self.same_inputs()) - 1:
            return f"{self.current} in the one sample of these inputs; {replays} run(s) replayed it"
        return f"{self.current} in every graded run of these inputs" + (
            f" ({replays} of them cache replays, not new samples)" if replays else ""
        )

    def replays(self) -> int:
        """How many graded rows of the current inputs were replayed from the result cache."""
        return sum(1 for i in self.same_inputs() if self.rows.flags[i] & REPLAYED_FLAG)

    @property
    def sampled_once(self) -> bool:
        """Stable in name only: one real sample of these inputs, the other runs replays of it."""
        replays = self.replays()
        return self.state == STABLE and bool(replays) and replays >= len(self.same_inputs()) - 1

    def same_inputs(self) -> list[int]:
        """The graded rows with the digests of the newest graded one."""
        graded, digest = self.graded(), self.rows.digest
        if not graded or digest[graded[-1]] < 0:
            return graded[-1:]
        last = digest[graded[-1]]
        return [i for i in graded if digest[i] == last]

    def flipped(self) -> list[int]:
        """The graded rows of the newest set of inputs under which the verdict flipped (pass and fail
        both, or one run's samples disagreeing); none when it never did. A row without digests is a set
        of its own: nothing says which others had its inputs."""
        status, digest, flags = self.rows.status, self.rows.digest, self.rows.flags
        groups: dict[int, list[int]] = {}
        for i in self.graded():
            groups.setdefault(digest[i] if digest[i] >= 0 else -1 - i, []).append(i)
        noisy = [
            rows
            for rows in groups.values()
            if len({status[i] for i in rows}) > 1 or any(flags[i] & FLAKY_FLAG for i in rows)
        ]
        return max(noisy, key=lambda rows: rows[-1]) if noisy else []


def timelines(ledger: Ledger) -> list[Timeline]:
    """Every case's timeline with its state, by command, agent and case id."""
    found = [Timeline(ledger, key, rows) for key, rows in ledger.cases.items() if rows.runs]
    for line in found:
        judge(line)
    return sorted(found, key=lambda t: (t.command, t.agent or "", t.skill or "", t.case))


def judge(line: Timeline) -> None:
    """Set `line`'s state (and its change, when it regressed or improved)."""
    graded = line.graded()
    if not graded:
        line.state = UNGRADED
        return
    status, digest = line.rows.status, line.rows.digest
    if line.flipped():  # evidence of noise under unchanged inputs comes before any change of them
        line.state = FLAKY
        return
    last = graded[-1]
    # The verdict before the inputs last changed; without digests, any earlier verdict may differ in them.
    earlier = reversed(graded[:-1])
    before = next((i for i in earlier if digest[last] < 0 or digest[i] != digest[last]), None)
    if before is None or status[before] == status[last]:
        line.state = STABLE
        return
    line.state = IMPROVED if status[last] == PASS_CODE else REGRESSED
    old, new = line.entry(before), line.entry(last)
    line.change = Change(old, new, changed_inputs(old, new))


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
            named += changed_agents(before.run, after.run)
        elif key == "model":
            if before.run.model != after.run.model:
                named.append(f"model {before.run.model or 'default'} -> {after.run.model or 'default'}")
        elif key == "settings":
            moved = sorted(
                k
                for k in {*before.run.settings, *after.run.settings}
                if before.run.settings.get(k) != after.run.settings.get(k)
            )
            named.append("settings (" + ", ".join(moved) + ")" if moved else "settings")
        elif key == "harness" and before.run.harness_version != after.run.harness_version:
            named.append(f"skillscope {before.run.harness_version} -> {after.run.harness_version}")
    return tuple(named) or ("inputs",)


def changed_agents(before: Run, after: Run) -> list[str]:
    """What changed of the agent (and a judge): its runtime or CLI version, else the variables of its
    environment that choose its model or endpoint (named, not shown: an endpoint may carry a token).
    Only what differs is named; a report without the agent's identity names its version, if that moved."""
    if not before.identities or not after.identities:
        moved = (before.agent, before.agent_version) != (after.agent, after.agent_version)
        return [f"agent {version(before)} -> {version(after)}"] if moved else []
    named = []
    for role in sorted({*before.identities, *after.identities}, key=lambda r: (r != "agent", r)):
        old, new = before.identities.get(role), after.identities.get(role)
        if old == new:
            continue
        if old is None or new is None:
            said = f"{described(new)} (added)" if old is None else f"{described(old)} (removed)"
            named.append(f"{role} {said}")
            continue
        if (old.get("runtime"), old.get("version")) != (new.get("runtime"), new.get("version")):
            named.append(f"{role} {described(old)} -> {described(new)}")
        was, now = (who.get("environment") for who in (old, new))
        was, now = (chosen if isinstance(chosen, dict) else {} for chosen in (was, now))  # a report's data
        variables = sorted(str(k) for k in {*was, *now} if was.get(k) != now.get(k))
        if variables:
            named.append(f"{role} environment ({', '.join(variables)})")
    return named


def described(identity: dict | None) -> str:
    identity = identity or {}
    return f"{identity.get('runtime') or '?'} {identity.get('version') or '?'}"


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
    position: int = -1  # the run's place in the ledger's runs

    @property
    def accuracy(self) -> float | None:
        return float(Fraction(self.passed, self.graded)) if self.graded else None


def accuracy_trend(ledger: Ledger) -> dict[str, list[Point]]:
    """Per skill (routing and behavioral apart: `routing:pdf`, `behavioral:pdf`), its accuracy in each
    run that graded one of its cases, oldest first."""
    graded: dict[str, Counter[int]] = {}
    passed: dict[str, Counter[int]] = {}
    for (command, _, _), rows in ledger.cases.items():
        if rows.skill is None:
            continue
        key = f"{command}:{rows.skill}"
        # Each verdict's run counted with compress and Counter: no Python step per verdict.
        graded.setdefault(key, Counter()).update(compress(rows.runs, map(GRADED_CODES.__gt__, rows.status)))
        passed.setdefault(key, Counter()).update(compress(rows.runs, map(PASS_CODE.__eq__, rows.status)))
    return {
        key: [Point(ledger.runs[i], passed[key][i], n, i) for i, n in sorted(runs.items())]
        for key, runs in sorted(graded.items())
        if runs
    }


def tally(lines: Iterable[Timeline]) -> dict[str, int]:
    """How many timelines are in each state."""
    counted = {state: 0 for state in STATES}
    for line in lines:
        counted[line.state] += 1
    return counted
