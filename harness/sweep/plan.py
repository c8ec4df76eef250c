"""What a sweep routes, by either engine: the catalog (folders, descriptions and where each description
stands), its routing cases, the ballast, the sizes and seeded orderings of the ballast, the usage
profile, and the bar its report carries; and that report, made of the legs either engine graded.

Free of the agent machinery, so the lexical sweep starts without it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model.ballast import Ballast, built_in, declared
from harness.model.catalog import Catalog, select_cases
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.model.repo import Repo
from harness.model.usage import UsageProfile
from harness.sweep import result as sweep_result
from harness.sweep.runner import Leg, sizes_of, sweep


@dataclass(frozen=True)
class Plan:
    """One sweep's inputs, read once by the command and shared by both engines."""

    repo: Repo
    described: dict[str, str]
    places: dict[str, tuple[str, int | None]]  # each description's (file, line), for findings
    cases: list[Case]
    ballast: Ballast
    sizes: list[int]
    repeats: int
    seed: int
    usage: UsageProfile
    engine: str  # what grades each size: lexical, or agent
    min_knee: int = 0  # the bar: a knee at or below it fails the run; 0 only reports
    separated: dict | None = None  # which skills to keep apart, from agent routing reports (--confusion)

    @classmethod
    def of(
        cls,
        loaded: Catalog,
        cases: list[Case],
        *,
        ballast_globs: Sequence[str],
        sizes: Sequence[str],
        repeats: int,
        seed: int,
        usage: UsageProfile,
        engine: str,
        min_knee: int = 0,
        separated: dict | None = None,
    ) -> Plan:
        """The plan over `loaded`'s skills: the ballast declared by `ballast_globs` (default: the built-in
        one) less the catalog's own names, and the `sizes` given (default: as far as the ballast
        reaches)."""
        repo = loaded.repo
        described = {name: skill.description for name, skill in loaded.skills.items()}
        chosen = declared(repo.root, ballast_globs, "--ballast") if ballast_globs else built_in()
        ballast = chosen.beside(described)
        return cls(
            repo=repo,
            described=described,
            places={
                name: (repo.rel(skill.skill_md), skill.line_of("description"))
                for name, skill in loaded.skills.items()
            },
            cases=cases,
            ballast=ballast,
            sizes=sizes_of(list(sizes), len(described), len(ballast.skills)),
            repeats=repeats,
            seed=seed,
            usage=usage,
            engine=engine,
            min_knee=min_knee,
            separated=separated,
        )

    @cached_property
    def catalog(self) -> dict[str, Path]:
        """Each catalog skill's folder."""
        return {name: self.repo.skill_dirs[name] for name in self.described}

    def orderings(self) -> list[list[tuple[str, str]]]:
        return [self.ballast.ordering(f"{self.seed}:{repeat}") for repeat in range(self.repeats)]

    @property
    def runs(self) -> int:
        """Case runs of one leg: every case at every size in every repeat."""
        return len(self.cases) * len(self.sizes) * self.repeats

    def lexical(
        self, legs: list[Leg], clock: Deadline, say: Callable[[str], None]
    ) -> sweep_result.SweepResult:
        """The lexical sweep on `legs`' listings, and its report."""
        data = sweep(
            self.described,
            self.cases,
            self.ballast,
            self.sizes,
            self.repeats,
            self.seed,
            legs,
            say=say,
            usage=self.usage,
        )
        graded = sweep_result.build(data, self.seed)
        return self.report(RunMeta.of("sweep", self.repo, clock), graded, gradings=data.gradings)

    def report(
        self, meta: RunMeta, legs: list[sweep_result.LegResult], run: dict | None = None, gradings: int = 0
    ) -> sweep_result.SweepResult:
        """The report of `legs`; `run`: what the agents started and spent (agent engine)."""
        return sweep_result.SweepResult(
            meta=meta,
            catalog=sorted(self.described),
            sizes=self.sizes,
            repeats=self.repeats,
            seed=self.seed,
            ballast={"source": self.ballast.source, "available": len(self.ballast.skills)},
            cases=len(self.cases),
            legs=legs,
            min_knee=self.min_knee,
            findings=sweep_result.degradations(legs, self.places, len(self.described), self.ballast.source),
            gradings=gradings,
            separate=self.separated,
            engine=self.engine,
            usage=self.usage.source or None,
            run=run,
            places=self.places,
        )


def routed_cases(loaded: Catalog, only: list[str], extended: bool) -> list[Case]:
    """The loaded skills' routing cases (narrowed to `only`): a usage error when there is none."""
    pooled = [case for case in loaded.cases(list(loaded.skills), extended=extended) if case.skill]
    cases = select_cases(pooled, only, []) if pooled else pooled
    if not cases:
        raise UsageError("no routing case to sweep: the selected skills have no case in evals/evals.json.")
    return cases
