"""Description headroom: how many characters each skill's description may still grow before an agent's
listing cuts it, lists it by name only or leaves it out, derived from the same measured rules that
predict the listing (harness/model/listing.py).

A negative headroom is how many characters the description must lose to be shown in full again. Each
overflow has its own arithmetic: claude keeps descriptions whole, most used first, while they fit what
is left (so a skill's room is what is left at its turn); copilot lists entries in order until one does
not fit (its room is what is left after it); codex hands out characters round-robin under a token
budget (its room is the level the round-robin would reach with this description as long as it may be,
within a few characters, since lines are counted in whole tokens, and never below 0 for a
description listed whole). A per-description cap or limit bounds every agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from harness.model.listing import (
    FULL,
    Listing,
    ListingRule,
    capped,
    measured,
    normalized,
    predict,
    tokens,
    utf16_len,
)

BUDGET, CAP, LIMIT, NONE = "budget", "cap", "limit", "none"


@dataclass(frozen=True)
class Room:
    """One skill's headroom in one agent's listing."""

    name: str
    state: str  # the listing's state of the skill (FULL, TRUNCATED, NAME_ONLY, DROPPED)
    description_chars: int
    chars: int | None  # what it may still add (negative: what it must lose); None: no bound
    bound: str  # what bounds it: BUDGET, CAP (cut past it), LIMIT (not loaded past it) or NONE
    approximate: bool  # a budget in tokens: within a few characters
    shown: str  # the description as listed ("" when the name only, or nothing, is)


@dataclass(frozen=True)
class Headroom:
    """Every skill's headroom in one predicted listing, and the listing's slack: what all descriptions
    together may still add before the first one loses text (negative: over the budget by that much)."""

    listing: Listing
    rooms: dict[str, Room]
    slack: int | None  # None: no budget

    @property
    def approximate(self) -> bool:
        budget = self.listing.rule.budget
        return budget is not None and budget.unit == "tokens"


def headroom(
    rule: ListingRule,
    skills: Sequence[tuple[str, str]],
    model: str | None = None,
    environ: Mapping[str, str] | None = None,
    usage: Mapping[str, float] | None = None,
) -> Headroom:
    """The headroom of each (name, description) in the listing `rule` gives on `model`."""
    listing = predict(rule, skills, model, environ, usage)
    described = dict(skills)
    budget_rooms: dict[str, int] = {}
    limit = listing.budget
    if limit is not None and rule.overflow != "none":
        valid = [(n, described[n]) for n in sorted(described) if not _too_long(rule, described[n])]
        shown = {n: capped(rule, d) for n, d in valid}
        if rule.overflow == "name-only":
            budget_rooms = _name_only(rule, valid, shown, limit, usage or {})
        elif rule.overflow == "drop":
            budget_rooms = _drop(rule, valid, shown, limit)
        else:
            budget_rooms = _share(rule, valid, shown, limit)
    rooms = {}
    for listed in listing.skills:
        description = described[listed.name]
        budget_room = budget_rooms.get(listed.name)
        if budget_room is not None and listed.state == FULL:
            # under a token budget the round-robin can fill a last token past the common level the
            # arithmetic finds: a description shown whole has nothing to lose
            budget_room = max(budget_room, 0)
        bounds = [(budget_room, BUDGET)] if budget_room is not None else []
        if rule.description_cap is not None:
            bounds.append((rule.description_cap - _cap_length(rule, description), CAP))
        if rule.description_limit is not None:
            bounds.append((rule.description_limit - utf16_len(description), LIMIT))
        chars, bound = min(bounds) if bounds else (None, NONE)
        approximate = bound == BUDGET and rule.budget is not None and rule.budget.unit == "tokens"
        rooms[listed.name] = Room(
            listed.name, listed.state, listed.description_chars, chars, bound, approximate, listed.shown
        )
    return Headroom(listing, rooms, _slack(listing))


def _too_long(rule: ListingRule, description: str) -> bool:
    return rule.description_limit is not None and utf16_len(description) > rule.description_limit


def _cap_length(rule: ListingRule, description: str) -> int:
    text = normalized(rule, description)
    return utf16_len(text) if rule.cap_unit == "utf16" else len(text)


def _slack(listing: Listing) -> int | None:
    rule = listing.rule
    if listing.budget is None or rule.budget is None:
        return None
    left = listing.budget - listing.used
    return left * rule.budget.bytes_per_token if rule.budget.unit == "tokens" else left


def _name_only(
    rule: ListingRule,
    ordered: list[tuple[str, str]],
    shown: dict[str, str],
    limit: int,
    usage: Mapping[str, float],
) -> dict[str, int]:
    """Past the budget descriptions are kept in turn (most used first, ties in listing order) while what
    each adds fits what is left: a skill's turn comes after the same skills whatever its own length, so
    its room is what is left at its turn less what it adds already."""
    extra = {
        n: measured(rule, rule.entry.format(name=n, description=shown[n]))
        - measured(rule, rule.bare_entry.format(name=n))
        for n, _ in ordered
    }
    bare = sum(measured(rule, rule.bare_entry.format(name=n)) for n, _ in ordered)
    left = limit - bare - len(rule.separator) * max(0, len(ordered) - 1)
    turns = [n for n, _ in ordered]
    if rule.ranked_by_usage:
        turns.sort(key=lambda n: -usage.get(n, 0.0))  # stable: ties keep the listing order
    rooms = {}
    for name in turns:
        rooms[name] = left - extra[name]
        if extra[name] <= left:
            left -= extra[name]
    return rooms


def _drop(
    rule: ListingRule, ordered: list[tuple[str, str]], shown: dict[str, str], limit: int
) -> dict[str, int]:
    """Entries in listing order while they fit: a skill's room is what is left after it and every entry
    before it (when an earlier one already overflowed, the overflow is counted against it too)."""
    used, rooms = 0, {}
    for index, (name, _) in enumerate(ordered):
        used += measured(rule, rule.entry.format(name=name, description=shown[name]))
        used += len(rule.separator) if index else 0
        rooms[name] = limit - used
    return rooms


def _share(
    rule: ListingRule, ordered: list[tuple[str, str]], shown: dict[str, str], limit: int
) -> dict[str, int]:
    """Round-robin characters under a token budget: with one description as long as it may be, the
    others cut at a common level, the highest level whose lines fit is where it would be cut."""
    assert rule.budget is not None
    per = rule.budget.bytes_per_token
    ceiling = 1 << 15  # past any cap: the cap is a bound of its own
    bases, prefixes = {}, {}
    for name, _ in ordered:
        bases[name] = len(rule.bare_entry.format(name=name).encode()) + 1
        prefix = [0]
        for char in shown[name]:
            prefix.append(prefix[-1] + len(char.encode()))
        prefixes[name] = prefix

    def cost(name: str, length: int, byte_count: int) -> int:
        return tokens(bases[name] + byte_count + 1, per) if length else tokens(bases[name], per)

    totals: dict[int, int] = {}

    def total(level: int) -> int:  # every line with its description cut at `level`
        if level not in totals:
            totals[level] = sum(
                cost(n, min(level, len(shown[n])), prefixes[n][min(level, len(shown[n]))]) for n, _ in ordered
            )
        return totals[level]

    if total(0) > limit:  # not even bare entries fit: every description is removed
        return {name: -len(shown[name]) for name, _ in ordered}
    rooms = {}
    for name, _ in ordered:
        own, prefix = len(shown[name]), prefixes[name]

        def fits(level: int, name: str = name, own: int = own, prefix: list[int] = prefix) -> bool:
            mine = min(level, own)
            grown = prefix[mine] + max(0, level - own)  # filler past its end: one byte a character
            return total(level) - cost(name, mine, prefix[mine]) + cost(name, level, grown) <= limit

        low, high = 0, max(ceiling, own)
        while low < high:
            middle = (low + high + 1) // 2
            if fits(middle):
                low = middle
            else:
                high = middle - 1
        rooms[name] = low - own
    return rooms
