"""What every format says of the samples the result cache gave back (graded, but not by this run): how
many, and which runs made them."""

from __future__ import annotations

from collections.abc import Sequence

NAMED_RUNS = 3  # runs named one by one; past that, the first and the last


def summary(origins: Sequence[dict | None], total: int, unit: str) -> str | None:
    """ "N of M <unit>s replayed from the result cache (made by ...)"; None when none was replayed."""
    if not origins:
        return None
    noun = unit if total == 1 else f"{unit}s"
    return f"{len(origins)} of {total} {noun} replayed from the result cache{made_by(origins)}"


def made_by(origins: Sequence[dict | None]) -> str:
    """ " (made by the run of A)", " (made by runs of A, B and C)" or " (made by N runs, from A to B)"."""
    starts = sorted({o["started_at"] for o in origins if o is not None})
    if not starts:
        return ""
    if len(starts) == 1:
        return f" (made by the run of {starts[0]})"
    if len(starts) <= NAMED_RUNS:
        return f" (made by runs of {', '.join(starts[:-1])} and {starts[-1]})"
    return f" (made by {len(starts)} runs, from {starts[0]} to {starts[-1]})"


def sample_line(origin: dict | None, what: str = "replayed") -> str:
    """One replayed sample for a JUnit case's output (`what`: "sample 2 replayed"): which run made it."""
    if origin is None:
        return f"{what} from the result cache, made by an earlier run"
    made = f"the run of {origin['started_at']}, skillscope {origin['harness_version']}"
    return f"{what} from the result cache, made by {made}"
