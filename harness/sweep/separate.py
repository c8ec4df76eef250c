"""Which skills to keep apart, from evidence: the confusion of agent routing runs (not lexical likeness,
which does not predict which skills an agent mixes up). Two skills that take each other's prompts in at
least SHARE of their graded cases are a pair; pairs are placed in different scopes (plugins or
subagents) by a greedy colouring, most entangled skill first, so no scope holds both of a pair.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.routing import saved

FLAG = "--confusion"
SHARE = 0.1  # of the two skills' graded cases, taken by the other
AT_LEAST = 2  # misroutes: one is an anecdote
NO_SKILL = "(none)"


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    first_to_second: int
    second_to_first: int
    cases: int  # graded cases of the two

    @property
    def share(self) -> float:
        return (self.first_to_second + self.second_to_first) / self.cases if self.cases else 0.0

    def to_json(self) -> dict:
        return {
            "skills": [self.first, self.second],
            "taken": [self.first_to_second, self.second_to_first],
            "cases": self.cases,
            "share": round(self.share, 4),
        }


def load(path: Path, shown: str) -> dict[str, dict[str, int]]:
    """The confusion matrix (expected skill -> observed skill -> cases) of an agent routing report."""
    document = saved.agent_report(
        path,
        f"{FLAG} {shown}",
        "lexical likeness does not predict which skills an agent mixes up, so pass the report of an agent "
        "routing run.",
    )
    matrix = document.get("confusion")
    if not isinstance(matrix, dict) or not all(
        isinstance(row, dict) and all(isinstance(n, int) for n in row.values()) for row in matrix.values()
    ):
        raise UsageError(
            f"{FLAG} {shown}: its `confusion` matrix is missing or malformed; pass an unedited report."
        )
    return matrix


def pairs(matrices: list[dict[str, dict[str, int]]]) -> list[Pair]:
    """Every two skills taking each other's prompts in at least SHARE of their cases, most entangled first."""
    taken: dict[tuple[str, str], int] = defaultdict(int)
    graded: dict[str, int] = defaultdict(int)
    for matrix in matrices:
        for expected, row in matrix.items():
            for observed, count in row.items():
                graded[expected] += count
                if NO_SKILL not in (expected, observed) and expected != observed:
                    taken[(expected, observed)] += count
    out = []
    for first, second in sorted({tuple(sorted(key)) for key in taken}):
        found = Pair(
            first, second, taken[(first, second)], taken[(second, first)], graded[first] + graded[second]
        )
        if found.first_to_second + found.second_to_first >= AT_LEAST and found.share >= SHARE:
            out.append(found)
    return sorted(out, key=lambda p: (-p.share, p.first, p.second))


def scopes(found: list[Pair]) -> list[list[str]]:
    """The entangled skills in scopes where no two of a pair share one (greedy colouring)."""
    apart: dict[str, set[str]] = defaultdict(set)
    for pair in found:
        apart[pair.first].add(pair.second)
        apart[pair.second].add(pair.first)
    colour: dict[str, int] = {}
    for skill in sorted(apart, key=lambda s: (-len(apart[s]), s)):
        used = {colour[other] for other in apart[skill] if other in colour}
        colour[skill] = next(c for c in range(len(apart) + 1) if c not in used)
    grouped: dict[int, list[str]] = defaultdict(list)
    for skill, c in colour.items():
        grouped[c].append(skill)
    return [sorted(grouped[c]) for c in sorted(grouped)]


def hint(paths: list[tuple[Path, str]]) -> dict:
    """The report's `separate` section from the routing reports at `paths` (each with its name as given)."""
    found = pairs([load(path, shown) for path, shown in paths])
    return {
        "reports": [shown for _, shown in paths],
        "share": SHARE,
        "pairs": [p.to_json() for p in found],
        "scopes": scopes(found),
    }
