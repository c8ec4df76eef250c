"""The lexical sweep: the catalog's cases routed at growing catalog sizes, each size the catalog plus
the first skills of a seeded ballast ordering, listed as each agent's measured rule lists that many
skills, and ranked by the lexical engine over what the listing shows.

Free and offline, and deterministic for a seed. Listings that show the same text are graded once (an
agent without a budget shows everything, and so does one under it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from harness.errors import UsageError
from harness.model.ballast import Ballast
from harness.model.dataset import Case
from harness.model.listing import FULL, Listing, listing_rule, predict
from harness.model.usage import NEVER_USED, UsageProfile
from harness.routing import listed
from harness.routing.lexical import LexicalEngine
from harness.routing.terms import Analyzer

SIZES_AUTO = 8  # sizes of the default sweep
FLOOR = 100  # the default sweep reaches at least this many skills


@dataclass(frozen=True)
class Leg:
    """One agent's listing (and the model its budget follows)."""

    runtime: str
    model: str | None = None

    @property
    def label(self) -> str:
        return self.runtime if self.model is None else f"{self.runtime}={self.model}"


@dataclass
class Graded:
    """One leg at one size in one repeat: each case's outcome, and what the listing showed of each
    catalog skill (its state and how many characters of its description)."""

    passed: list[bool | None]  # None: the case's run errored (an agent made no decision)
    picks: list[str | None]
    shown: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class SweepData:
    """Everything graded: data[leg][size index][repeat]."""

    sizes: list[int]
    repeats: int
    cases: list[Case]
    legs: list[Leg]
    data: dict[Leg, list[list[Graded]]] = field(default_factory=dict)
    gradings: int = 0  # distinct listings ranked (the rest were the same text as one ranked before)

    def outcomes(self, leg: Leg, rows: Sequence[int] | None = None) -> list[list[list[bool | None]]]:
        """[size][repeat][case] pass or fail, for the cases at `rows` (default: all)."""
        pick = range(len(self.cases)) if rows is None else rows
        return [[[graded.passed[i] for i in pick] for graded in size] for size in self.data[leg]]


def sweep(
    described: Mapping[str, str],
    cases: list[Case],
    ballast: Ballast,
    sizes: Sequence[int],
    repeats: int,
    seed: int,
    legs: Sequence[Leg],
    say: Callable[[str], None] = lambda line: None,
    usage: UsageProfile = NEVER_USED,
) -> SweepData:
    """Grade `cases` at each size, in `repeats` seeded orderings of `ballast`, for each leg; `usage`
    ranks the listing of an agent that ranks by usage (default: every skill never used)."""
    analyzer = Analyzer()  # one for the whole sweep: each word is stemmed once
    out = SweepData(list(sizes), repeats, cases, list(legs))
    memo: dict[tuple, Graded] = {}
    mine = list(described.items())
    for leg in legs:
        out.data[leg] = [[] for _ in sizes]
    for repeat in range(repeats):
        ordering = ballast.ordering(f"{seed}:{repeat}")
        for index, size in enumerate(sizes):
            room = mine + ordering[: size - len(mine)]
            for leg in legs:
                rule = listing_rule(leg.runtime)
                listing = predict(rule, room, leg.model, usage=usage.scores(rule))
                surviving = listed.surviving(listing)
                key = tuple(sorted(surviving.items(), key=lambda item: item[0]))
                graded = memo.get(key)
                if graded is None:
                    outcomes = LexicalEngine(surviving, listing, analyzer=analyzer).grade_all(cases)
                    graded = Graded([o.passed for o in outcomes], [o.observed for o in outcomes])
                    memo[key] = graded
                    out.gradings += 1
                states = shown_states(listing, described)
                out.data[leg][index].append(Graded(graded.passed, graded.picks, states))
        say(f"repeat {repeat + 1} of {repeats} graded at {len(sizes)} sizes")
    return out


def shown_states(listing: Listing, described: Mapping[str, str]) -> dict[str, tuple[str, int]]:
    """What `listing` shows of each catalog skill: its state and how many characters of its description."""
    return {
        s.name: (s.state, len(s.shown) if s.state != FULL else s.description_chars)
        for s in listing.skills
        if s.name in described
    }


def sizes_of(given: list[str], catalog_size: int, ballast_size: int) -> list[int]:
    """--sizes as given, checked against what the catalog and the ballast can make; else the default."""
    most = catalog_size + ballast_size
    if not given:
        top = min(most, max(10 * catalog_size, FLOOR))
        if top <= catalog_size:
            raise UsageError("--ballast holds no skill beside the catalog, so no larger size can be swept.")
        ratio = (top / catalog_size) ** (1 / (SIZES_AUTO - 1))
        sizes = sorted({min(top, round(catalog_size * ratio**step)) for step in range(SIZES_AUTO)})
        return sizes
    sizes = []
    for item in given:
        if not item.isdigit() or int(item) < 1:
            raise UsageError(
                f"--sizes: '{item}' is not a whole number of skills; give sizes such as 10,20,40."
            )
        sizes.append(int(item))
    sizes = sorted(set(sizes))
    if sizes[0] < catalog_size:
        raise UsageError(
            f"--sizes {sizes[0]}: the catalog alone has {catalog_size} skills; start at {catalog_size} "
            "or more."
        )
    if sizes[-1] > most:
        raise UsageError(
            f"--sizes {sizes[-1]}: the catalog and the ballast hold {most:,} skills; give sizes up to that, "
            "or name more ballast with --ballast."
        )
    if len(sizes) < 2:
        raise UsageError("--sizes: give at least two sizes, the first the size accuracy is compared with.")
    return sizes
