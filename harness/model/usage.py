"""A usage profile: how often the users of a catalog use each skill, so a host that ranks its listing by
usage (claude keeps the most used skills' descriptions when the budget runs out) is predicted, and run,
as their install would rank it. A skill the profile does not name was never used: the worst case, and
where every new skill starts.

The file is a JSON object, skill name to its uses: a whole number (used that often, last use today) or
`{"uses": N, "days_since_use": D}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness import jsonsafe
from harness.errors import UsageError

if TYPE_CHECKING:  # the listing rules load where a listing is predicted, not with every command's flags
    from harness.model.listing import ListingRule

FIX = 'write it as {"skill-name": USES} or {"skill-name": {"uses": USES, "days_since_use": DAYS}}'


@dataclass(frozen=True)
class UsageProfile:
    """Each named skill's (uses, days since its last use), and the file it came from ("" for none)."""

    source: str = ""
    uses: Mapping[str, tuple[int, float]] = field(default_factory=dict)

    def scores(self, rule: ListingRule) -> dict[str, float]:
        """The usage score of each named skill where `rule` ranks by usage (empty where it does not)."""
        from harness.model.listing import usage_scores

        return usage_scores(rule, self.uses)

    def pairs(self) -> tuple[tuple[str, int, float], ...]:
        """The profile as (name, uses, days since use), sorted: what an agent run is given."""
        return tuple((name, count, days) for name, (count, days) in sorted(self.uses.items()))

    def to_json(self) -> dict[str, object] | None:
        if not self.source:
            return None
        return {
            "source": self.source,
            "skills": {
                name: {"uses": count, "days_since_use": days} for name, (count, days) in self.uses.items()
            },
        }


NEVER_USED = UsageProfile()


def load(path: Path, shown: str, flag: str = "--usage") -> UsageProfile:
    """The profile in `path` (`shown` names it in messages); a UsageError naming the fix when it is not
    one."""
    try:
        value = jsonsafe.load(path, shown)
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{flag} {exc}; {FIX}.") from None
    if not isinstance(value, dict):
        raise UsageError(f"{flag} {shown}: the file holds no JSON object; {FIX}.")
    return UsageProfile(
        shown, {str(name): entry(flag, shown, str(name), given) for name, given in value.items()}
    )


def entry(flag: str, shown: str, name: str, given: object) -> tuple[int, float]:
    """One skill's (uses, days since use)."""
    count, days = (
        (given, 0) if not isinstance(given, dict) else (given.get("uses"), given.get("days_since_use", 0))
    )
    extra = sorted(set(given) - {"uses", "days_since_use"}) if isinstance(given, dict) else []
    if extra:
        raise UsageError(f"{flag} {shown}: `{name}` has an unknown key '{extra[0]}'; {FIX}.")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise UsageError(f"{flag} {shown}: `{name}` needs its uses as a whole number of 0 or more; {FIX}.")
    if isinstance(days, bool) or not isinstance(days, (int, float)) or not math.isfinite(days) or days < 0:
        raise UsageError(f"{flag} {shown}: `{name}` needs days_since_use as a number of 0 or more; {FIX}.")
    return count, float(days)
