"""What the agent's model was shown of the room: each room skill listed in full, by name only, cut or left
out, predicted from the runtime's measured listing rule (no runtime reveals its listing at run time).

A routing report records it per run (`meta.listing`), says it in one line when a skill was not listed in
full, and a missed case whose expected skill was not reads as a listing-budget miss: still a miss, since
the room is what users install, but not one its description can fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from harness.model import notes
from harness.model import skill as skill_mod
from harness.model.listing import DROPPED, FULL, NAME_ONLY, TRUNCATED, Listing, ListingRule, predict

PREDICTED = "predicted"
# The report's word for each state of a listed skill.
STATES = {FULL: "listed", NAME_ONLY: "name-only", TRUNCATED: "cut", DROPPED: "left-out"}
SAID = {NAME_ONLY: "by name only", TRUNCATED: "cut short", DROPPED: "left out"}
NAMES_SHOWN = 8
NOTE_START = notes.LISTING


def descriptions(installed: Mapping[str, Path]) -> dict[str, str]:
    """The description of each installed skill, from its SKILL.md."""
    return {name: skill_mod.load(name, folder).description for name, folder in installed.items()}


def room_listing(rule: ListingRule, described: Mapping[str, str], model: str | None) -> Listing:
    return predict(rule, sorted(described.items()), model)


def surviving(listing: Listing) -> dict[str, str | None]:
    """What the model reads of each skill's description: all of it, what a cut left, nothing (name only),
    or None when the skill is left out (not even its name). The lexical engine ranks these."""
    return {skill.name: None if skill.state == DROPPED else skill.shown for skill in listing.skills}


def to_json(listing: Listing) -> dict[str, Any]:
    return {
        "source": PREDICTED,
        "runtime": listing.rule.runtime,
        "measured_on": listing.rule.measured_on,
        "model": listing.model,
        "budget": listing.budget,
        "unit": listing.rule.budget.unit if listing.rule.budget else None,
        "needed": listing.used,
        "skills": {skill.name: STATES[skill.state] for skill in listing.skills},
    }


def sentence(listing: Listing) -> str:
    """One line when a room skill was not listed in full, else empty."""
    short = listing.short
    if not short:
        return ""
    rule = listing.rule
    groups = []
    for state in (NAME_ONLY, TRUNCATED, DROPPED):
        names = [s.name for s in short if s.state == state]
        if names:
            more = f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
            groups.append(f"{len(names)} {SAID[state]} ({', '.join(names[:NAMES_SHOWN])}{more})")
    unit = "tokens" if rule.budget and rule.budget.unit == "tokens" else "characters"
    budget = f" within its budget of {listing.budget:,} {unit}" if listing.budget else ""
    return (
        f"{NOTE_START} from {rule.runtime} {rule.measured_on}'s measured rule): of "
        f"{len(listing.skills)} room skills, {len(listing.skills) - len(short)} were listed in full{budget}; "
        f"{'; '.join(groups)}; see `skillscope structural` (listing-budget)."
    )


def why_missed(listing: Listing, expected: str | None) -> str:
    """For a missed case: its expected skill's listing when the model was not shown it in full."""
    state = listing.state_of(expected) if expected else None
    if state in (NAME_ONLY, DROPPED):
        return f"{expected} not listed (listing budget: {SAID[state]})"
    if state == TRUNCATED:
        return f"{expected} not listed in full (listing budget: cut short)"
    return ""


def mark(outcomes: Sequence[Any], listing: Listing) -> None:
    """Tell each missed case whose expected skill the listing shorted why (its summary says so)."""
    for outcome in outcomes:
        if outcome.graded and not outcome.passed:
            outcome.unlisted = why_missed(listing, outcome.expected)
