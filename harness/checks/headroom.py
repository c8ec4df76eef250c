"""Description headroom: for each skill and each agent (and model, where the budget follows it), how
many characters the description may still add before the agent's listing cuts it or drops it, over the
catalog as it is and, when the repo declares one, at a typical install (the catalog beside the other
skills its users have, or a number of built-in ballast skills).

Two rules come of it. `description-headroom`: a skill shown in full in the catalog alone loses its
description at the typical install. `distinguishing-clause-cut`: an agent cuts a description before the
clause that tells the skill from its nearest neighbour (in the lexical engine's terms), so its model
reads two skills alike. The table itself goes into the structural report and its page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.checks import CheckOptions
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.headroom import Headroom, Room, headroom
from harness.model.listing import (
    DROPPED,
    FULL,
    NAME_ONLY,
    TRUNCATED,
    listing_rule,
    normalized,
    usage_scores,
)

if TYPE_CHECKING:
    from harness.routing.clauses import Clause, Distinctions

CATALOG, TYPICAL = "catalog", "typical"
WORDS_SHOWN = 6  # of the words either side of a cut


@dataclass(frozen=True)
class Row:
    """One catalog skill in one agent's listing, in one scope."""

    skill: str
    runtime: str
    measured_on: str
    model: str | None
    scope: str
    room: Room
    neighbour: str | None = None
    lost: tuple[Clause, ...] = ()
    listed_text: str = ""  # the description as the agent lists it in full

    @property
    def agent(self) -> str:
        return self.runtime if self.model is None else f"{self.runtime} on {self.model}"

    def to_json(self) -> dict:
        room = self.room
        cut = room.state == TRUNCATED
        return {
            "skill": self.skill,
            "agent": self.runtime,
            "measured_on": self.measured_on,
            "model": self.model,
            "scope": self.scope,
            "state": room.state,
            "description_chars": room.description_chars,
            "headroom": room.chars,
            "bound": room.bound,
            "approximate": room.approximate,
            "shown_chars": len(room.shown),
            "survives": tail_words(room.shown) if cut else None,
            "cut_before": head_words(self.listed_text[len(room.shown) :]) if cut else None,
            "neighbour": self.neighbour,
            "clauses_lost": [{"text": c.text, "start": c.start, "terms": list(c.terms)} for c in self.lost],
        }


@dataclass
class Assessment:
    """The headroom table's rows and each predicted listing's budget and slack."""

    rows: list[Row] = field(default_factory=list)
    listings: list[dict] = field(default_factory=list)  # each listing's budget and slack

    def to_json(self, install: dict | None, usage: str | None = None) -> dict:
        return {
            "install": install,
            "usage": usage,
            "listings": self.listings,
            "skills": [row.to_json() for row in self.rows],
        }


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    return found(catalog, options, assessed(catalog, options))


def table(catalog: Catalog, options: CheckOptions) -> dict | None:
    """The structural report's headroom table, and the typical install it was predicted at when one
    was declared; None when no agent's listing was predicted."""
    assessment = assessed(catalog, options)
    if not assessment.rows:
        return None
    install = (
        {"given": options.install_source, "skills": len(options.install)} if options.install_source else None
    )
    return assessment.to_json(install, options.usage_source or None)


def assessed(catalog: Catalog, options: CheckOptions) -> Assessment:
    """The assessment the check's findings and the report's table share, worked out once per run."""
    return catalog.derive(("headroom", options), lambda: assess(catalog, options))


def assess(catalog: Catalog, options: CheckOptions) -> Assessment:
    """Every catalog skill's headroom for each agent and model, in each scope."""
    out = Assessment()
    if not catalog.skills:
        return out
    mine = {name: skill.description for name, skill in catalog.skills.items()}
    beside = [(n, d) for n, d in options.install if n not in mine]
    scopes = {CATALOG: list(mine.items())}
    if options.install:
        scopes[TYPICAL] = [*mine.items(), *beside]
    distinctions: dict[str, Distinctions] = {}  # by scope, built when a cut needs them
    for runtime in options.listing_agents:
        rule = listing_rule(runtime)
        scores = usage_scores(rule, {name: (count, days) for name, count, days in options.usage})
        named: list[str | None] = [model for agent, model in options.listing_models if agent == runtime]
        for model in named or [None]:
            for scope, skills in scopes.items():
                room = headroom(rule, skills, model, usage=scores)
                out.listings.append(listing_json(room, scope, len(skills)))
                for name in mine:
                    listed = normalized(rule, mine[name])
                    row = Row(
                        name, runtime, rule.measured_on, model, scope, room.rooms[name], None, (), listed
                    )
                    if row.room.state == TRUNCATED and len(row.room.shown) < len(listed):
                        row = with_clauses(row, distinctions, scope, dict(skills))
                    out.rows.append(row)
    return out


def listing_json(room: Headroom, scope: str, size: int) -> dict:
    listing, rule = room.listing, room.listing.rule
    return {
        "agent": rule.runtime,
        "measured_on": rule.measured_on,
        "model": listing.model,
        "scope": scope,
        "skills": size,
        "budget": listing.budget,
        "unit": rule.budget.unit if rule.budget else None,
        "needed": listing.used if listing.budget is not None else None,
        "slack_chars": room.slack,
        "approximate": room.approximate,
    }


def with_clauses(row: Row, distinctions: dict[str, Distinctions], scope: str, described: dict) -> Row:
    """The row with its nearest neighbour and the distinguishing clauses its cut loses (the lexical
    index is built on the first cut of a scope: most runs cut nothing)."""
    from harness.routing.clauses import Distinctions

    if scope not in distinctions:
        distinctions[scope] = Distinctions(described)
    known = distinctions[scope]
    distinction = known.of(row.skill, row.listed_text)
    if distinction is None:
        return row
    shown = row.room.shown
    return Row(
        **{**row.__dict__, "neighbour": distinction.neighbour, "lost": tuple(known.lost(distinction, shown))}
    )


def found(catalog: Catalog, options: CheckOptions, assessment: Assessment) -> list[Finding]:
    out = []
    by_skill: dict[str, list[Row]] = {}
    for row in assessment.rows:
        by_skill.setdefault(row.skill, []).append(row)
    for name, rows in by_skill.items():
        skill = catalog.skills[name]
        where, line = catalog.repo.rel(skill.skill_md), skill.line_of("description")
        cut = [row for row in rows if row.lost]
        if cut:
            out.append(
                findings.warning("distinguishing-clause-cut", where, clause_message(name, cut, options), line)
            )
        shorted = [
            row for row in rows if row.scope == TYPICAL and row.room.state != FULL and catalog_full(rows, row)
        ]
        if shorted:
            out.append(
                findings.warning("description-headroom", where, install_message(name, shorted, options), line)
            )
    return out


def catalog_full(rows: list[Row], typical: Row) -> bool:
    """Whether the same agent and model shows the skill in full in the catalog alone (else
    listing-budget already says so)."""
    return any(
        r.scope == CATALOG
        and r.runtime == typical.runtime
        and r.model == typical.model
        and r.room.state == FULL
        for r in rows
    )


def install_words(options: CheckOptions) -> str:
    given, count = options.install_source, len(options.install)
    return f"at the typical install (--typical-install {given}: {count} skills beside the catalog)"


def scope_words(row: Row, options: CheckOptions) -> str:
    return "in the catalog" if row.scope == CATALOG else install_words(options)


def clause_message(name: str, rows: list[Row], options: CheckOptions) -> str:
    from harness.routing.clauses import quoted

    first = rows[0]
    clause = first.lost[0]
    where = "; ".join(
        f"{row.agent} {row.measured_on} cuts it at character {len(row.room.shown):,} "
        f"{scope_words(row, options)}"
        for row in rows
    )
    return (
        f'`{name}`: the clause "{quoted(clause)}" (from character {clause.start:,}) tells it from its '
        f"nearest neighbour `{first.neighbour}` by {', '.join(clause.terms)}, but {where}, so the agent "
        "reads the two alike; put that clause first, or shorten what comes before it."
    )


def fate(room: Room) -> str:
    if room.state == NAME_ONLY:
        return "lists it by name only"
    if room.state == DROPPED:
        return "leaves it out"
    return f"cuts it to {len(room.shown):,} of its {room.description_chars:,} characters"


def install_message(name: str, rows: list[Row], options: CheckOptions) -> str:
    parts = [f"{row.agent} {row.measured_on} {fate(row.room)}" for row in rows]
    needs = [row.room for row in rows if row.room.chars is not None and row.room.chars < 0]
    fix = "shorten the catalog's descriptions, or ship it as smaller plugins"
    if needs:
        worst = min(needs, key=lambda room: room.chars or 0)
        assert worst.chars is not None
        if -worst.chars < worst.description_chars:
            about = "about " if worst.approximate else ""
            fix = f"shorten it by {about}{-worst.chars:,} characters, or " + fix
    return (
        f"`{name}` is shown in full in the catalog alone, but {install_words(options)} "
        + "; ".join(parts)
        + f"; {fix}."
    )


def tail_words(text: str) -> str:
    words = text.split()
    return ("… " if len(words) > WORDS_SHOWN else "") + " ".join(words[-WORDS_SHOWN:])


def head_words(text: str) -> str:
    words = text.split()
    return " ".join(words[:WORDS_SHOWN]) + (" …" if len(words) > WORDS_SHOWN else "")
