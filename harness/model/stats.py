"""Statistics over pass rates, one home for every room that states an interval.

Wilson's score interval for one proportion, and Newcombe's hybrid score interval for a difference of
two independent proportions (his method 10), built from each side's Wilson interval. A difference
counts only when the whole 95 % interval lies on one side of zero. With one run per side that never
happens for 0/1 vs 1/1 (the interval is about -0.21..0.79 wide of 1), so a single flip is reported by
the label rules, not by this test.
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """95 % Wilson score interval for a proportion; None when nothing was graded."""
    if trials == 0:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_difference(
    base_pass: int, base_runs: int, cand_pass: int, cand_runs: int, z: float = Z95
) -> tuple[float, float, float] | None:
    """(candidate rate − baseline rate, low, high); None when a side has no graded run."""
    base = wilson_interval(base_pass, base_runs, z)
    cand = wilson_interval(cand_pass, cand_runs, z)
    if base is None or cand is None:
        return None
    p1, p2 = cand_pass / cand_runs, base_pass / base_runs
    (l1, u1), (l2, u2) = cand, base
    delta = p1 - p2
    low = delta - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = delta + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return delta, max(-1.0, low), min(1.0, high)


def differs(base_pass: int, base_runs: int, cand_pass: int, cand_runs: int) -> int:
    """+1 when the candidate's rate is higher beyond noise, −1 when lower, 0 otherwise."""
    found = rate_difference(base_pass, base_runs, cand_pass, cand_runs)
    if found is None:
        return 0
    _delta, low, high = found
    return 1 if low > 0 else -1 if high < 0 else 0


def difference_fields(base_pass: int, base_runs: int, cand_pass: int, cand_runs: int) -> dict[str, Any]:
    """The difference of two pass rates as a report states it: candidate − baseline, the ends of its
    95 % interval (None when a side has no graded run), and whether the interval excludes zero."""
    found = rate_difference(base_pass, base_runs, cand_pass, cand_runs)
    if found is None:
        return {"difference": None, "low": None, "high": None, "beyond_noise": False}
    delta, low, high = (round(x, 4) for x in found)
    return {"difference": delta, "low": low, "high": high, "beyond_noise": low > 0 or high < 0}
