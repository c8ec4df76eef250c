"""The history result: every report format of `skillscope history` is rendered from a History."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness import __version__
from harness.history.ledger import FLAKY_FLAG, Ledger, Run
from harness.history.states import STABLE, STATES, Point, Timeline, accuracy_trend, tally, timelines


@dataclass
class History:
    ledger: Ledger
    folders: list[str]  # what was read, as given
    against: str | None = None  # the base's name with --against: its runs are the base's history
    lines: list[Timeline] = field(default_factory=list)
    trend: dict[str, list[Point]] = field(default_factory=dict)

    command = "history"

    @classmethod
    def of(cls, ledger: Ledger, folders: list[str], against: str | None = None) -> History:
        return cls(ledger, folders, against, timelines(ledger), accuracy_trend(ledger))

    @property
    def passed(self) -> bool:
        """history reports; it never gates (the gates are routing's and behavioral's)."""
        return True

    @property
    def counted(self) -> list[Timeline]:
        """The timelines the headline counts: with --against, those this branch's runs added to."""
        if self.against is None:
            return self.lines
        return [line for line in self.lines if not line.latest.run.base]

    def counts(self) -> dict[str, int]:
        return tally(self.counted)

    def graded(self) -> int:
        """The counted cases whose newest run gave a verdict (pass or fail)."""
        words = self.ledger.words
        return sum(1 for line in self.counted if words[line.rows.status[-1]] in ("pass", "fail"))

    def headline(self) -> str:
        """`against main: 1 regressed, 2 flaky`, or the states of every case. An all-clear needs both a
        base history and something graded: from nothing, the headline says which is missing."""
        counts = self.counts()
        if self.against is not None:
            noted = [f"{counts[s]} {s}" for s in STATES[:3] if counts[s]]
            graded = self.graded()
            if any(run.base for run in self.ledger.runs):
                if not graded:
                    return f"against {self.against}: no case graded in this branch's runs"
                return f"against {self.against}: " + (", ".join(noted) or "nothing regressed or flaky")
            said = f"{graded} case(s) graded" if graded else "no case graded"
            return f"against {self.against}: no history of {self.against} yet; " + ", ".join([said, *noted])
        replays = self.ledger.replays()
        runs = f"{len(self.ledger.runs)} run(s)" + (f", {replays} of them cache replays" if replays else "")
        # A replay is a copy, not a second sample: a case seen once and replayed is not called stable.
        once = sum(1 for line in self.counted if line.sampled_once)
        shown = {**counts, STABLE: counts[STABLE] - once}
        noted = [f"{n} {state}" for state, n in shown.items() if n]
        noted += [f"{once} sampled once (later runs replayed it from the cache)"] if once else []
        passed_over = len(self.ledger.lexical)
        skipped = f"; {passed_over} lexical report(s) not counted" if passed_over else ""
        states = ": " + ", ".join(noted) if noted else ""
        return f"{len(self.lines)} case(s) over {runs}{states}{skipped}"

    def to_json(self) -> dict:
        """The document `--format json` writes: each timeline is columns, naming each verdict's run by
        place in `runs` and its digests by place in `digests` (each distinct set once; null: none
        recorded)."""
        renumbered: dict[int, int | None] = {-1: None}  # -1: no digests recorded
        for line in self.lines:
            for spot in dict.fromkeys(line.rows.digest):  # each distinct place once, in order
                if spot not in renumbered:
                    renumbered[spot] = len(renumbered) - 1
        table = self.ledger.digests
        return {
            "command": "history",
            "harness_version": __version__,
            "read": self.folders,
            "against": self.against,
            "headline": self.headline(),
            "counts": self.counts(),
            "replays": self.ledger.replays(),
            "sampled_once": sum(1 for line in self.counted if line.sampled_once),
            "problems": self.ledger.problems,
            "lexical": list(self.ledger.lexical.values()),
            "runs": [run_json(run) for run in self.ledger.runs],
            "digests": [table[spot] for spot in renumbered if spot >= 0],
            "cases": [line_json(line, renumbered) for line in self.lines],
            "accuracy": {
                key: [
                    {"run": p.position, "passed": p.passed, "graded": p.graded, "accuracy": p.accuracy}
                    for p in points
                ]
                for key, points in self.trend.items()
            },
        }


def run_json(run: Run) -> dict:
    return {
        "file": run.file,
        "command": run.command,
        "started_at": run.started_at,
        "agent": run.agent,
        "agent_version": run.agent_version,
        "model": run.model,
        "harness_version": run.harness_version,
        "base": run.base,
    }


def line_json(line: Timeline, renumbered: dict[int, int | None]) -> dict:
    change = line.change
    rows, words = line.rows, line.ledger.words
    return {
        "command": line.command,
        "agent": line.agent,
        "id": line.case,
        "skill": line.skill,
        "state": line.state,
        "current": line.current,
        "reason": line.reason(),
        "quarantined": line.quarantined,
        "changed": list(change.inputs) if change else [],
        # Columns, one item a run, oldest first: a timeline of 500 runs is five lists, not 500 objects.
        "timeline": {
            "run": list(rows.runs),
            "status": list(map(words.__getitem__, rows.status)),
            "verdict": list(map(words.__getitem__, rows.verdict)),
            "flaky": list(map(bool, map(FLAKY_FLAG.__and__, rows.flags))),
            "digests": list(map(renumbered.__getitem__, rows.digest)),
        },
    }
