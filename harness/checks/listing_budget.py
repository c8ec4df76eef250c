"""Listing budgets: an agent shows its model only part of a large catalog, so a skill whose description
is left out (or cut) cannot be chosen for what its description says, however well it is written.

Each agent's measured listing rule (harness/model/listing.py) predicts what its model is shown of the
catalog, and of the routing room when one is configured; every skill not shown in full gets one
warning on its description line naming each agent, its CLI version, the budget, what becomes of the
skill, and how much shorter the descriptions must be in all for everything to fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.checks import CheckOptions
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.listing import DROPPED, NAME_ONLY, TRUNCATED, ListedSkill, Listing, listing_rule, predict

CATALOG, ROOM = "the catalog", "the routing room"


@dataclass(frozen=True)
class Shortfall:
    """One skill not shown in full by one agent, in one scope (the catalog or the room)."""

    runtime: str
    scope: str
    listing: Listing
    skill: ListedSkill

    @property
    def agent(self) -> str:
        """The agent, and the model when one was named: claude's budget follows it."""
        return self.runtime if self.listing.model is None else f"{self.runtime} on {self.listing.model}"


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    if not catalog.skills:
        return []
    scopes = {CATALOG: list(catalog.skills)}
    room = [name for name in options.listing_room if name in catalog.skills]
    if room and set(room) != set(catalog.skills):  # the same skills list the same way: said once
        scopes[ROOM] = room
    by_skill: dict[str, list[Shortfall]] = {}
    for runtime in options.listing_agents:
        rule = listing_rule(runtime)
        named: list[str | None] = [model for agent, model in options.listing_models if agent == runtime]
        for model in named or [None]:
            for scope, names in scopes.items():
                listing = predict(rule, [(name, catalog.skills[name].description) for name in names], model)
                for listed in listing.short:
                    by_skill.setdefault(listed.name, []).append(Shortfall(runtime, scope, listing, listed))
    return [finding(catalog, name, shortfalls, len(scopes) > 1) for name, shortfalls in by_skill.items()]


def finding(catalog: Catalog, name: str, shortfalls: list[Shortfall], scoped: bool) -> Finding:
    skill = catalog.skills[name]
    clauses = [clause(s, scoped) for s in shortfalls]
    fixes = fix(shortfalls, scoped)
    return findings.warning(
        "listing-budget",
        catalog.repo.rel(skill.skill_md),
        f"`{name}` is not shown in full: {'; '.join(clauses)}; {fixes}.",
        skill.line_of("description"),
    )


def fate(shortfall: Shortfall) -> str:
    """What becomes of the skill in the listing, in the agent's name."""
    listed, rule = shortfall.skill, shortfall.listing.rule
    if listed.state == NAME_ONLY:
        return "lists it by name only, without its description"
    if listed.too_long:
        return f"does not load it: its description is over {rule.description_limit:,} characters"
    if listed.state == DROPPED:
        return "leaves it out of the listing"
    assert listed.state == TRUNCATED
    shown, whole = listed.shown_chars, listed.description_chars
    return f"cuts its description to {shown:,} of its {whole:,} characters"


def clause(shortfall: Shortfall, scoped: bool) -> str:
    listing, rule = shortfall.listing, shortfall.listing.rule
    where = f" in {shortfall.scope}" if scoped else ""
    on = f" on {listing.model}" if listing.model else ""
    text = f"{rule.runtime} {rule.measured_on}{on} {fate(shortfall)}{where}"
    if listing.budget is not None and listing.used > listing.budget and rule.budget is not None:
        unit = "characters" if rule.budget.unit == "chars" else "tokens"
        text += f" (budget {listing.budget:,} {unit}, the {len(listing.skills)} skills need {listing.used:,})"
    elif rule.description_cap is not None and not shortfall.skill.too_long:
        text += " (its cap for one description)"
    return text


def excess_chars(listing: Listing) -> int:
    """How many characters of description the listing is over its budget by (0: only a cap cut it)."""
    if listing.budget is None or listing.used <= listing.budget or listing.rule.budget is None:
        return 0
    over = listing.used - listing.budget
    return over * listing.rule.budget.bytes_per_token if listing.rule.budget.unit == "tokens" else over


def counted_in_tokens(runtime: str) -> bool:
    """A budget in tokens converts to characters only roughly."""
    budget = listing_rule(runtime).budget
    return budget is not None and budget.unit == "tokens"


def longest(shortfall: Shortfall) -> int:
    """The longest description the agent shows in full (or loads at all)."""
    rule = listing_rule(shortfall.runtime)
    limits = (rule.description_limit, rule.description_cap)
    return min(limit for limit in limits if limit is not None)


def fix(shortfalls: list[Shortfall], scoped: bool) -> str:
    """Shorten the descriptions by the most any agent needs, naming what each needs, or split."""
    needs: dict[tuple[str, str, str], int] = {}  # (runtime, how it is named, scope) -> characters
    capped = []
    for s in shortfalls:
        over = excess_chars(s.listing)
        if over:
            needs[(s.runtime, s.agent, s.scope)] = over
        else:
            capped.append(s)
    parts = []
    if needs:
        each = ", ".join(
            f"{agent}{f' in {scope}' if scoped else ''} {'about ' if counted_in_tokens(runtime) else ''}"
            f"{over:,}"
            for (runtime, agent, scope), over in needs.items()
        )
        worst = max(needs, key=lambda key: needs[key])
        most, approximate = needs[worst], counted_in_tokens(worst[0])
        split = "split the room" if all(scope == ROOM for _, _, scope in needs) else "split the catalog"
        parts.append(
            f"shorten descriptions by {'about ' if approximate else ''}{most:,} characters in all"
            + (f" ({each})" if len(needs) > 1 else "")
            + f", or {split}"
        )
    if capped:
        cap = min(longest(s) for s in capped)
        parts.append(f"shorten this description to at most {cap:,} characters")
    return "; ".join(parts)
