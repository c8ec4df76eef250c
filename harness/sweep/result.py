"""The sweep's result: per agent, the catalog's accuracy at each size with its Wilson interval and the
knee; per skill, its accuracy at each size, how much of its description was shown, and the first size
at which it degrades beyond noise. Data and JSON only; the reports render it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from harness.model import findings
from harness.model.ballast import BUILT_IN
from harness.model.envelope import ERROR, FAIL, PASS, RunMeta, counts, envelope
from harness.model.findings import Finding
from harness.model.listing import listing_rule
from harness.sweep import stats
from harness.sweep.runner import Leg, SweepData

PLACES = 4


@dataclass(frozen=True)
class Point:
    size: int
    graded: int
    passed: int
    per_repeat: list[float]
    drop: stats.Drop | None
    errors: int = 0  # case runs that errored (no decision): graded on neither side

    @property
    def accuracy(self) -> float | None:
        return self.passed / self.graded if self.graded else None

    def to_json(self) -> dict:
        low, high = stats.wilson(self.passed, self.graded)
        return {
            "size": self.size,
            "graded": self.graded,
            "passed": self.passed,
            "accuracy": _round(self.accuracy),
            "low": round(low, PLACES),
            "high": round(high, PLACES),
            "per_repeat": [round(a, PLACES) for a in self.per_repeat],
            "worse": self.drop.worse if self.drop else None,
            "better": self.drop.better if self.drop else None,
            "p": _round(self.drop.p) if self.drop else None,
            "degraded": bool(self.drop and self.drop.beyond_noise),
            "errors": self.errors,
        }


@dataclass(frozen=True)
class SkillCurve:
    skill: str
    points: list[Point]
    shown: list[dict]  # per size: the fewest description characters shown, and each state's count
    first_degraded: int | None  # a size
    detectable: bool

    def to_json(self) -> dict:
        return {
            "skill": self.skill,
            "first_degraded": self.first_degraded,
            "detectable": self.detectable,
            "curve": [{**p.to_json(), **shown} for p, shown in zip(self.points, self.shown, strict=True)],
        }


@dataclass(frozen=True)
class LegResult:
    leg: Leg
    measured_on: str
    points: list[Point]
    knee: stats.Knee
    skills: list[SkillCurve]
    sizes: list[int]
    agent_version: str | None = None  # the agent CLI that graded it (agent engine), else None
    run: dict | None = None  # what the agent engine started and spent on this leg, else None

    @property
    def knee_size(self) -> int | None:
        return self.sizes[self.knee.index] if self.knee.index is not None else None

    def knee_json(self) -> dict:
        knee, sizes = self.knee, self.sizes
        interval = None
        if knee.interval is not None:
            interval = [sizes[i] if i is not None else None for i in knee.interval]
        return {
            "verdict": knee.verdict,
            "size": self.knee_size,
            "probability": _round(knee.probability),
            "interval": interval,
            "pmf": [
                {"size": sizes[i] if i is not None else None, "share": round(share, PLACES)}
                for i, share in knee.pmf.items()
            ],
            "says": knee_sentence(self),
        }

    def to_json(self) -> dict:
        return {
            "agent": self.leg.runtime,
            "measured_on": self.measured_on,
            "model": self.leg.model,
            "agent_version": self.agent_version,
            "run": self.run,
            "curve": [p.to_json() for p in self.points],
            "knee": self.knee_json(),
            "skills": [s.to_json() for s in self.skills],
        }


def knee_sentence(leg: LegResult) -> str:
    knee, sizes = leg.knee, leg.sizes
    if knee.verdict == stats.CANNOT_TELL:
        return (
            "cannot tell a knee from noise: even if every case that passed at the smallest size failed "
            "later, too few pairs were graded to be sure; add cases or --repeat"
        )
    share = f"{knee.probability:.0%}" if knee.probability is not None else "?"
    if knee.verdict == stats.NO_KNEE:
        return f"no knee within the sizes tried (up to {sizes[-1]:,} skills; {share} of resamples agree)"
    low, high = knee.interval or (None, None)
    span = (
        f"between {sizes[low]:,} and {sizes[high]:,} skills"
        if low is not None and high is not None and low != high
        else f"at {leg.knee_size:,} skills"
        if low == high
        else f"from {sizes[low]:,} skills on, if at all"
        if low is not None
        else "possibly past every size tried"
    )
    settled = "" if knee.settled else "; uncertain: add --repeat to settle it"
    return (
        f"accuracy falls beyond noise at {leg.knee_size:,} skills ({share} of resamples agree; "
        f"90 % of them put it {span}){settled}"
    )


@dataclass
class SweepResult:
    meta: RunMeta
    catalog: list[str]
    sizes: list[int]
    repeats: int
    seed: int
    ballast: dict
    cases: int
    legs: list[LegResult]
    min_knee: int = 0
    findings: list[Finding] = field(default_factory=list)
    gradings: int = 0
    separate: dict | None = None  # which skills to keep apart, from agent routing reports (--confusion)
    engine: str = "lexical"  # or "agent": what graded each size
    usage: str | None = None  # the usage profile (--usage) the listings were ranked by, if any
    run: dict | None = None  # agent engine: agent starts, cached samples, spend, errors, halt, notes
    places: dict = field(default_factory=dict)  # each skill's description (file, line), for findings

    command = "sweep"

    @property
    def failing_legs(self) -> list[LegResult]:
        """Legs whose knee falls at or below --min-knee."""
        if not self.min_knee:
            return []
        return [leg for leg in self.legs if leg.knee_size is not None and leg.knee_size <= self.min_knee]

    def failures(self, label: str | None = None) -> list[str]:
        """A sentence for each leg (of `label` only, when given) whose knee fails --min-knee."""
        return [
            f"failed: on {leg.leg.label} the knee is at {leg.knee_size:,} skills "
            f"(--min-knee {self.min_knee})."
            for leg in self.failing_legs
            if label is None or leg.leg.label == label
        ]

    @property
    def unsound(self) -> str | None:
        """Why an agent sweep's figures cannot be trusted: it was halted, or a leg graded no case (every
        run errored, or its canary failed); None for a sound run."""
        if self.engine != "agent":
            return None
        if self.run and self.run.get("halt"):
            return str(self.run["halt"])
        if not self.legs:
            return "no agent ran"
        empty = [leg.leg.label for leg in self.legs if not sum(point.graded for point in leg.points)]
        return f"no case was graded on {', '.join(empty)}: every run errored" if empty else None

    @property
    def passed(self) -> bool:
        return not self.failing_legs and self.unsound is None

    def statuses(self) -> dict[str, str]:
        """Each catalog skill: `fail` when it degrades at or below --min-knee on any agent, `error` when
        its cases were run and none was graded (every run errored)."""
        out = {}
        for name in self.catalog:
            curves = [curve for leg in self.legs for curve in leg.skills if curve.skill == name]
            if curves and not any(p.graded for curve in curves for p in curve.points):
                out[name] = ERROR
                continue
            degraded = [
                curve.first_degraded
                for leg in self.legs
                for curve in leg.skills
                if curve.skill == name and curve.first_degraded is not None
            ]
            out[name] = FAIL if self.min_knee and any(size <= self.min_knee for size in degraded) else PASS
        return out

    def to_json(self) -> dict:
        return {
            **envelope(self.meta, self.passed, counts(list(self.statuses().values()))),
            "meta": self.meta.to_json(),
            "engine": self.engine,
            "usage": self.usage,
            "run": self.run,
            "catalog": self.catalog,
            "sizes": self.sizes,
            "repeats": self.repeats,
            "seed": self.seed,
            "ballast": self.ballast,
            "cases": self.cases,
            "min_knee": self.min_knee,
            "gradings": self.gradings,
            "agents": [leg.to_json() for leg in self.legs],
            "findings": [f.to_dict() for f in self.findings],
            "separate": self.separate,
        }


def build(data: SweepData, seed: int) -> list[LegResult]:
    """The curves, knees and per-skill degradations of a sweep (`degradations` words them as findings)."""
    legs = []
    for leg in data.legs:
        outcomes = data.outcomes(leg)
        points = curve(data, outcomes, data.sizes)
        found = stats.knee(outcomes, f"{seed}:{leg.label}")
        skills = [skill_curve(data, leg, name) for name in sorted({c.skill for c in data.cases if c.skill})]
        legs.append(LegResult(leg, listing_rule(leg.runtime).measured_on, points, found, skills, data.sizes))
    return legs


def curve(data: SweepData, outcomes: list[list[list[bool | None]]], sizes: list[int]) -> list[Point]:
    drops = stats.drops(outcomes)
    points = []
    for index, size in enumerate(sizes):
        repeats = [[o for o in r if o is not None] for r in outcomes[index]]
        graded = sum(len(r) for r in repeats)
        passed = sum(sum(r) for r in repeats)
        per_repeat = [sum(r) / len(r) for r in repeats if r]
        errors = sum(len(r) for r in outcomes[index]) - graded
        points.append(Point(size, graded, passed, per_repeat, drops[index], errors))
    return points


def skill_curve(data: SweepData, leg: Leg, name: str) -> SkillCurve:
    rows = [i for i, case in enumerate(data.cases) if case.skill == name]
    outcomes = data.outcomes(leg, rows)
    points = curve(data, outcomes, data.sizes)
    shown = []
    for size in data.data[leg]:
        states = [graded.shown[name] for graded in size if name in graded.shown]
        tally = Counter(state for state, _ in states)
        shown.append(
            {
                "shown_chars_min": min((c for _, c in states), default=None),
                "states": dict(sorted(tally.items())),
            }
        )
    first = stats.first_drop(outcomes)
    return SkillCurve(
        name, points, shown, data.sizes[first] if first is not None else None, stats.detectable(outcomes)
    )


def degradations(
    legs: list[LegResult], places: dict[str, tuple[str, int | None]], catalog: int, ballast: str
) -> list[Finding]:
    """A warning on each skill that degrades beyond noise within the sizes tried, naming each agent and
    the structural run that shows its headroom at the first of those sizes (`catalog`: how many skills
    the catalog holds; `ballast`: the ballast's source, built-in or the globs given)."""
    by_skill: dict[str, list[tuple[LegResult, SkillCurve]]] = {}
    for leg in legs:
        for skill in leg.skills:
            if skill.first_degraded is not None:
                by_skill.setdefault(skill.skill, []).append((leg, skill))
    out = []
    for name, found in sorted(by_skill.items()):
        path, line = places.get(name, (".", None))
        sizes = [skill.first_degraded for _, skill in found if skill.first_degraded is not None]
        parts = []
        for leg, skill in found:
            index = leg.sizes.index(skill.first_degraded)  # type: ignore[arg-type]
            before, after = skill.points[0], skill.points[index]
            cut = skill.shown[index]
            listed = ", ".join(f"{state} in {count}" for state, count in cut["states"].items())
            fewest = cut["shown_chars_min"]
            shown = f", {fewest:,} characters of it shown at the least" if fewest is not None else ""
            parts.append(
                f"on {leg.leg.label} {leg.measured_on} from {skill.first_degraded:,} skills "
                f"(accuracy {_pct(before.accuracy)} at {before.size:,} → {_pct(after.accuracy)}; "
                f"its description {listed} of {sum(cut['states'].values())} repeats{shown})"
            )
        out.append(
            findings.warning(
                "catalog-size-degrades",
                path,
                f"`{name}` routes worse as the catalog grows, beyond noise: {'; '.join(parts)}; "
                f"{headroom_run(min(sizes), catalog, ballast)} "
                "shows its description headroom there.",
                line,
            )
        )
    return out


def headroom_run(size: int, catalog: int, ballast: str) -> str:
    """The structural run whose typical install is what this sweep put beside the catalog at `size`."""
    beside = str(max(size - catalog, 1)) if ballast == BUILT_IN else f"'{ballast}'"
    return f"`skillscope structural --typical-install {beside}`"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, PLACES)
