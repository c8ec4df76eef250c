"""The statistics of tuning, exact and small: paired cases, a sign test on the cases the two descriptions
disagree on, and its Clopper-Pearson interval mapped onto the gain in accuracy.

Only the cases graded under both descriptions pair up; a case that errored on either side is left out and
counted, never scored.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

BISECTIONS = 60  # enough for a bound exact to 1e-15


def binomial_tail(successes: int, trials: int, p: float = 0.5) -> float:
    """P(X >= successes) for X ~ Binomial(trials, p)."""
    if successes <= 0:
        return 1.0
    return sum(math.comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(successes, trials + 1))


def clopper_pearson(successes: int, trials: int, alpha: float) -> tuple[float, float]:
    """The exact two-sided 1 - alpha interval for a proportion (each tail alpha / 2); (0, 1) for no
    trials."""
    if trials == 0:
        return 0.0, 1.0
    half = alpha / 2

    def bisect(too_low) -> float:  # the p where too_low(p) turns False
        low, high = 0.0, 1.0
        for _ in range(BISECTIONS):
            middle = (low + high) / 2
            low, high = (middle, high) if too_low(middle) else (low, middle)
        return (low + high) / 2

    lower = 0.0 if successes == 0 else bisect(lambda p: binomial_tail(successes, trials, p) < half)
    upper = (
        1.0 if successes == trials else bisect(lambda p: 1 - binomial_tail(successes + 1, trials, p) >= half)
    )
    return lower, upper


@dataclass(frozen=True)
class Paired:
    """Two descriptions graded on the same cases: how many each won alone, and how many tied."""

    wins: int = 0  # the candidate passed, the current description failed
    losses: int = 0  # the other way round
    ties: int = 0
    unpaired: int = 0  # errored or not run on at least one side: in neither count

    @classmethod
    def of(cls, pairs: Iterable[tuple[bool | None, bool | None]]) -> Paired:
        """From (current passed, candidate passed) per case, None where that side was not graded."""
        wins = losses = ties = unpaired = 0
        for current, candidate in pairs:
            if current is None or candidate is None:
                unpaired += 1
            elif candidate and not current:
                wins += 1
            elif current and not candidate:
                losses += 1
            else:
                ties += 1
        return cls(wins, losses, ties, unpaired)

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def gain(self) -> float | None:
        """The candidate's accuracy minus the current one's, on the paired cases."""
        return (self.wins - self.losses) / self.n if self.n else None

    def interval(self, alpha: float) -> tuple[float, float] | None:
        """A 1 - alpha interval for the gain, given how many cases the two disagree on: the exact
        interval of the share the candidate wins among them, mapped to (wins - losses) / n."""
        if not self.n:
            return None
        discordant = self.wins + self.losses
        low, high = clopper_pearson(self.wins, discordant, alpha)
        scale = discordant / self.n
        # + 0.0: a gain of zero shows as +0.000, never as -0.000
        return scale * (2 * low - 1) + 0.0, scale * (2 * high - 1) + 0.0

    def worse_p(self) -> float:
        """One-sided exact sign test p-value that the candidate is worse than the current description."""
        return binomial_tail(self.losses, self.wins + self.losses)

    def to_json(self, alpha: float) -> dict:
        interval = self.interval(alpha)
        return {
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "unpaired": self.unpaired,
            "gain": None if self.gain is None else round(self.gain, 4),
            "interval": None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
            "confidence": round(1 - alpha, 6),
        }
