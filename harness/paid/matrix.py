"""One matrix for every paid command run on several legs (agent x model): each leg's result, side by side.

It passes when every leg passes. What the three kinds (routing, behavioral, compare) differ in is their
rate, the words of their cases and the figures of each leg's row; the rest is here: the legs, the status
of each leg's cases, each later model of an agent against its first, the case table with the cases that
differ between legs first, and the report (its envelope, each leg's row, then each section in one order).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from harness.model.envelope import STATUSES, counts, envelope
from harness.paid.legs import against_first
from harness.paid.result import Result


class LegResult(Result, Protocol):
    """A leg's result: a command's result (each leg's report is in the matrix's) with its meta, whose `run`
    heads the report."""

    @property
    def meta(self) -> Any: ...


ResultT = TypeVar("ResultT", bound=LegResult)
CaseT = TypeVar("CaseT")
Compared = tuple[str, str, ResultT, str, ResultT]  # agent, first leg's name and result, a later one's


@dataclass
class Matrix(ABC, Generic[ResultT]):
    """The results of the legs, parallel to their names (see paid.legs.labels)."""

    results: list[ResultT]
    labels: list[str]

    command: ClassVar[str]  # names the report
    rows_named: ClassVar[str] = "legs"  # the key of the legs' rows (routing's reports call them "agents")
    words: ClassVar[tuple[str, ...]] = STATUSES  # the status words the report counts

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def legs(self) -> list[tuple[str, ResultT]]:
        return list(zip(self.labels, self.results, strict=True))

    def identity(self, result: ResultT) -> dict:
        """Who ran a leg, after its name in its row: the agent, model and agent version of its meta (a kind
        whose meta names them otherwise, or that has a judge too, says so)."""
        meta = result.meta
        return {"agent": meta.agent, "model": meta.model, "agent_version": meta.agent_version}

    @abstractmethod
    def leg_fields(self, result: ResultT) -> dict:
        """A leg's own figures in its row, after how it halted."""

    def leg_row(self, label: str, result: ResultT) -> dict:
        """A leg's row in the report: every kind writes the same keys, in the same order, around its own."""
        return {
            "leg": label,
            **self.identity(result),
            "passed": result.passed,
            "halt": result.meta.halt.to_json(),
            **self.leg_fields(result),
            "notes": result.meta.notes,
        }

    def leg_rows(self) -> list[dict]:
        return [self.leg_row(label, r) for label, r in self.legs()]

    @abstractmethod
    def differences(self) -> list[dict]:
        """Each later model of an agent against its first, in the kind's own figure."""

    @abstractmethod
    def case_rows(self) -> list[dict]:
        """Each case with every leg's outcome (see case_table)."""

    def own_json(self) -> dict:
        """The sections only this kind's report has, placed after the differences."""
        return {}

    @abstractmethod
    def case_statuses(self, result: ResultT) -> Iterable[tuple[str, str]]:
        """Each case of one leg's result, by its name in the report, with the status word it gates on."""

    def statuses(self) -> dict[str, str]:
        """`<leg>:<case>` -> that leg's status word for the case."""
        return {
            f"{label}:{case}": status for label, r in self.legs() for case, status in self.case_statuses(r)
        }

    def against_first(self, agent_of: Callable[[ResultT], str]) -> list[Compared[ResultT]]:
        """Each agent run on several models: its first leg against each later one."""
        return against_first(self.legs(), agent_of)

    def case_table(
        self,
        cases_of: Callable[[ResultT], Iterable[CaseT]],
        key_of: Callable[[CaseT], Hashable],
        row_of: Callable[[CaseT, dict[str, CaseT | None]], dict],
    ) -> list[dict]:
        """One row per case any leg ran (`row_of` the case as some leg ran it, and each leg's own or None
        where that leg did not run it), in dataset order but for the rows that differ, which come first."""
        tables = [{key_of(case): case for case in cases_of(r)} for r in self.results]
        selected = {key_of(case): case for r in self.results for case in cases_of(r)}
        rows = [
            row_of(
                any_case, {label: table.get(key) for label, table in zip(self.labels, tables, strict=True)}
            )
            for key, any_case in selected.items()
        ]
        return sorted(rows, key=lambda row: not row["differs"])  # stable: dataset order otherwise

    def head(self) -> dict:
        """The report's envelope: the first leg's run named by the matrix's command, lasting until its last
        leg ended, every leg's cases counted."""
        # The legs share one clock and run in turn: the first leg's length is not the whole run's.
        elapsed = max(r.meta.run.elapsed_s for r in self.results)
        run = replace(self.results[0].meta.run, command=self.command, elapsed_s=elapsed)
        return envelope(run, self.passed, counts(list(self.statuses().values()), self.words))

    def to_json(self) -> dict:
        """The report: the envelope, every leg's row, the differences, the kind's own sections, the cases
        and each leg's own report, in this order in every kind."""
        return {
            **self.head(),
            self.rows_named: self.leg_rows(),
            "differences": self.differences(),
            **self.own_json(),
            "cases": self.case_rows(),
            "runs": [r.to_json() for r in self.results],
        }
