"""When accuracy falls beyond noise as a catalog grows, and how sure that is.

Every size grades the same cases in the same repeats (each repeat one seeded ordering of the ballast),
so a size is compared with the smallest one pair by pair: the pairs that passed there and fail here
against the reverse, by an exact one-sided McNemar test, Bonferroni-corrected over the sizes after the
first. The knee is the first size whose drop is beyond noise. Its uncertainty comes from a seeded
bootstrap that resamples the repeats and the cases (a case recurs in every repeat, so cases are
clusters): the share of replicates that find each knee, and the sizes that hold the middle 90 %.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from harness.model.stats import wilson_interval

Z95 = 1.959963984540054
ALPHA = 0.05  # family-wise, over the sizes compared with the first
BOOTSTRAP = 200
KNEE, NO_KNEE, CANNOT_TELL = "knee", "none", "cannot-tell"
SETTLED = 0.8  # a knee found by fewer replicates than this share is said to be uncertain

# outcomes[size][repeat][case]: whether the case passed at that size in that repeat; None where its run
# errored (an agent that made no decision), which counts on neither side: a pair with an error is no pair.
Outcomes = Sequence[Sequence[Sequence[bool | None]]]


def wilson(passed: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of passed/trials (0, 1 when nothing was graded)."""
    return wilson_interval(passed, trials, z) or (0.0, 1.0)


@cache
def mcnemar(worse: int, better: int) -> float:
    """One-sided exact p of at least `worse` of the discordant pairs going worse, were there no change."""
    n = worse + better
    if n == 0 or worse == 0:
        return 1.0
    # log-space terms of the binomial tail, summed exactly enough for thousands of pairs
    logs = [
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
        for k in range(worse, n + 1)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def paired(first: Sequence[Sequence[bool | None]], later: Sequence[Sequence[bool | None]]) -> tuple[int, int]:
    """(pairs that passed first and fail later, the reverse), over every repeat and case; a pair with
    an errored side is left out."""
    worse = better = 0
    for before, after in zip(first, later, strict=True):
        for a, b in zip(before, after, strict=True):
            if a is None or b is None:
                continue
            worse += a and not b
            better += b and not a
    return worse, better


@dataclass(frozen=True)
class Drop:
    """One size compared with the first: its pairs and the test's p."""

    worse: int
    better: int
    p: float
    beyond_noise: bool


def drops(outcomes: Outcomes, alpha: float = ALPHA) -> list[Drop | None]:
    """Each size's drop from the first (None for the first)."""
    level = alpha / max(1, len(outcomes) - 1)
    out: list[Drop | None] = [None]
    for later in outcomes[1:]:
        worse, better = paired(outcomes[0], later)
        p = mcnemar(worse, better)
        out.append(Drop(worse, better, p, p < level))
    return out


def first_drop(outcomes: Outcomes, alpha: float = ALPHA) -> int | None:
    """The index of the first size whose accuracy falls beyond noise, or None."""
    level = alpha / max(1, len(outcomes) - 1)
    for index in range(1, len(outcomes)):
        if mcnemar(*paired(outcomes[0], outcomes[index])) < level:
            return index
    return None


def detectable(outcomes: Outcomes, alpha: float = ALPHA) -> bool:
    """Whether any drop could be told from noise: were every pair that passed first to fail later, its
    p must fall below the corrected level (too few cases or repeats cannot reach it)."""
    if len(outcomes) < 2:
        return False
    passed_first = sum(sum(1 for outcome in repeat if outcome) for repeat in outcomes[0])
    return mcnemar(passed_first, 0) < alpha / (len(outcomes) - 1)


@dataclass(frozen=True)
class Knee:
    verdict: str  # KNEE, NO_KNEE or CANNOT_TELL
    index: int | None  # of the size, for KNEE
    pmf: dict[int | None, float]  # bootstrap share finding each knee index (None: no knee)
    interval: tuple[int | None, int | None] | None  # the indexes holding the middle 90 % (None: none)

    @property
    def probability(self) -> float | None:
        """The share of replicates that found this same knee (or no knee)."""
        if self.verdict == CANNOT_TELL:
            return None
        return self.pmf.get(self.index, 0.0)

    @property
    def settled(self) -> bool:
        return self.probability is not None and self.probability >= SETTLED


def knee(outcomes: Outcomes, seed: int | str = 0, alpha: float = ALPHA, replicates: int = BOOTSTRAP) -> Knee:
    """The knee of a curve, with a bootstrap over repeats and cases."""
    if not detectable(outcomes, alpha):
        return Knee(CANNOT_TELL, None, {}, None)
    point = first_drop(outcomes, alpha)
    found = bootstrap(outcomes, seed, alpha, replicates)
    pmf = {index: count / replicates for index, count in sorted(found.items(), key=lambda kv: _order(kv[0]))}
    return Knee(KNEE if point is not None else NO_KNEE, point, pmf, middle(found, replicates))


def bootstrap(outcomes: Outcomes, seed: int | str, alpha: float, replicates: int) -> Counter:
    """How often each knee index is found when the repeats and the cases are drawn again."""
    import numpy  # only a sweep needs it

    grid = numpy.array([[[o is True for o in r] for r in size] for size in outcomes], dtype=bool)
    valid = numpy.array([[[o is not None for o in r] for r in size] for size in outcomes], dtype=bool)
    rng = numpy.random.default_rng(zlib.crc32(f"knee:{seed}".encode()))
    sizes, repeats, cases = grid.shape
    level = alpha / max(1, sizes - 1)
    found: Counter = Counter()
    for _ in range(replicates):
        picked_repeats, picked_cases = rng.integers(0, repeats, repeats), rng.integers(0, cases, cases)
        chosen = grid[:, picked_repeats][:, :, picked_cases]
        graded = valid[:, picked_repeats][:, :, picked_cases]
        first, both = chosen[0], graded[0] & graded[1:]  # a pair counts where both sides were graded
        worse = (first & ~chosen[1:] & both).sum(axis=(1, 2))
        better = (~first & chosen[1:] & both).sum(axis=(1, 2))
        index = next(
            (i + 1 for i in range(sizes - 1) if mcnemar(int(worse[i]), int(better[i])) < level), None
        )
        found[index] += 1
    return found


def middle(found: Counter, replicates: int) -> tuple[int | None, int | None]:
    """The knee indexes at the 5th and 95th percentiles of the replicates (None: past every size)."""
    ordered = sorted(found.elements(), key=_order)
    low = ordered[int(0.05 * (replicates - 1))]
    high = ordered[math.ceil(0.95 * (replicates - 1))]
    return low, high


def _order(index: int | None) -> float:
    return math.inf if index is None else index
