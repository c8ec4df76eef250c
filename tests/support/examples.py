"""How many examples a property with a written count runs under the loaded Hypothesis profile.

A count written in `@settings(max_examples=N)` overrides any profile, so the fast lane's profile
(`--hypothesis-profile fast`, tests/conftest.py) reaches those properties only through `examples(N)`:
the suite's own profile, loaded when no option is given and in CI, keeps N exactly."""

from __future__ import annotations

from hypothesis import settings

# The profile whose counts are the written ones; the others scale them by their own count's ratio.
FULL = "suite"
# A scaled property still runs enough examples to reach its strategy's edges (empty, one, several).
FLOOR = 10


def examples(written: int, profile: settings | None = None) -> int:
    """`written` under the suite's profile; under another, scaled as that profile's default count
    is to the suite's (the fast profile: a tenth), never below FLOOR nor above `written` when smaller."""
    loaded = (profile or settings.default).max_examples
    full = settings.get_profile(FULL).max_examples
    if loaded == full:
        return written
    return max(min(written, FLOOR), written * loaded // full)
