"""The small formatters every renderer shares: percentages, signed differences, dollars, shares and the
one clip, so that a figure reads the same in markdown, text, JUnit and the page."""

from __future__ import annotations

from collections.abc import Iterable

DASH = "—"  # what the page shows for a figure it does not have


def percent(value: float | None, digits: int = 1, none: str = "n/a") -> str:
    """A rate in 0..1 as `62.5%` (`digits` after the point); `none` when there is no rate."""
    return none if value is None else f"{value * 100:.{digits}f}%"


def signed_percent(value: object, none: str = "n/a") -> str:
    """A difference of two rates as `+12%` or `-3%`."""
    return f"{value * 100:+.0f}%" if isinstance(value, (int, float)) else none


def points(value: float | None, digits: int = 1, bounds: object = None) -> str:
    """A difference of two rates in percentage points, `+12.5 pts`, with its 95 % interval when given:
    `+12.5 pts [-3, +20]`."""
    if not isinstance(value, (int, float)):
        return "n/a"
    shown = f"{value * 100:+.{digits}f} pts"
    known = interval_of(bounds)
    return shown + (f" [{known[0] * 100:+.0f}, {known[1] * 100:+.0f}]" if known else "")


def signed(value: float | None, unit: str = "", digits: int = 0) -> str:
    """A difference of two counts or durations, `+3` or `-1.2s`."""
    return "n/a" if value is None else f"{value:+.{digits}f}{unit}"


def dollars(value: object, none: str = "n/a") -> str:
    """A cost as `$0.0123`."""
    return f"${value:.4f}" if isinstance(value, (int, float)) else none


def signed_dollars(value: float | None) -> str:
    """A difference of two costs, `+$0.0100` or `-$0.0020`."""
    return "n/a" if value is None else f"{'-' if value < 0 else '+'}${abs(value):.4f}"


def number(value: object, spec: str = "g", none: str = "n/a") -> str:
    """A figure the report may lack (its schema allows null), in the format `spec`; `none` without one."""
    known = isinstance(value, (int, float)) and not isinstance(value, bool)
    return format(value, spec) if known else none


def seconds(value: object) -> str:
    """A duration the report may lack, `1.2s`."""
    shown = number(value, ".1f")
    return shown if shown == "n/a" else f"{shown}s"


def total(values: Iterable[object]) -> float | None:
    """The sum of the figures in `values` that are numbers (a missing one adds nothing); None if none is."""
    known = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return sum(known) if known else None


def within(bounds: object) -> str:
    """A rate's 95 % interval after it, ` [40–80%]`; '' when the report gives none."""
    known = interval_of(bounds)
    return f" [{known[0] * 100:.0f}–{known[1] * 100:.0f}%]" if known else ""


def interval_of(bounds: object) -> tuple[float, float] | None:
    """A report's [low, high] interval as two numbers; None when it gives none (or not as numbers)."""
    if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
        return None
    low, high = bounds
    known = all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in (low, high))
    return (float(low), float(high)) if known else None


def ranged(value: float | None, bounds: object = None) -> str:
    """A rate and its 95 % interval, `62.5% [40–80%]`: the one way every table writes an interval."""
    return "n/a" if not isinstance(value, (int, float)) else percent(value) + within(bounds)


def share(part: int, whole: int, bounds: object = None) -> str:
    """`3/4 (75.0%)`: a count of a whole and its rate, with the rate's 95 % interval when given."""
    return f"{part}/{whole} ({ranged(part / whole if whole else None, bounds)})"
