"""What an agent shows its model of a catalog: each skill listed in full, cut short, by name only, or
not at all, predicted from the agent's measured listing rule.

The rules are data (harness/data/listing.json), one per runtime, each with the CLI version it was
measured on; the runtime modules in harness/agent own them (`listing_rule`), and offline callers
(structural, the lexical engine) read them here without loading any agent code.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

# How a listing deals with a catalog over its budget.
OVERFLOWS = {
    "none": "every description is shown in full, whatever the catalog's size",
    "name-only": "whole descriptions are left out, in listing order, once the budget is spent (names stay)",
    "share": "every description is cut to an equal share of the budget, then whole entries are left out",
    "drop": "whole entries are left out, from the first in listing order that no longer fits",
}
# The state of one skill in a predicted listing.
FULL, TRUNCATED, NAME_ONLY, DROPPED = "full", "truncated", "name-only", "dropped"
# Codex's fixed text around its list, in bytes (counted on 0.169.0, not its words): the budget pays
# for what the short-path form adds to it, the table of roots.
CODEX_ALIAS_TEXT_BYTES = 104 + 297 + len("### Skill roots\n")
# A typical skills folder path in a run's workspace, for the length of codex's root line when the
# real one is unknown (offline).
TYPICAL_ROOT = "/tmp/skillscope-ws-12345678/ws/.agents/skills"


@dataclass(frozen=True)
class Budget:
    """How many characters (or tokens) of listing an agent allows, for a model."""

    unit: str  # "chars" or "tokens" (bytes / bytes_per_token, rounded up)
    fixed: int = 0  # a budget that no model changes (0: a share of the context window)
    context_percent: float = 0
    context_window: int = 0
    bytes_per_token: int = 1
    legacy_models: tuple[str, ...] = ()
    legacy_context_window: int = 0
    legacy_bytes_per_token: int = 0
    long_context_suffix: str = ""
    override_variable: str = ""

    def limit(self, model: str | None, environ: Mapping[str, str] | None = None) -> int:
        """The budget for `model` (None: the CLI's default), in `unit`s."""
        override = (environ or {}).get(self.override_variable, "") if self.override_variable else ""
        if override.strip().isdigit() and int(override) > 0:
            return int(override)
        if self.fixed:
            return self.fixed
        window, per_token = self.context_window, self.bytes_per_token
        bare = (
            (model or "").removesuffix(self.long_context_suffix) if self.long_context_suffix else model or ""
        )
        if self.legacy(bare):
            per_token = self.legacy_bytes_per_token
            long = bool(self.long_context_suffix) and (model or "").endswith(self.long_context_suffix)
            window = self.context_window if long else self.legacy_context_window
        if self.unit == "tokens":
            return max(1, int(window * self.context_percent) // 100)
        return max(1, math.floor(window * per_token * self.context_percent / 100))

    def legacy(self, model: str) -> bool:
        """A model of an older family, by id, also with a date after it (`claude-sonnet-4-5-20250929`)."""
        dashed = model.replace(".", "-")
        return any(dashed == known or dashed.startswith(known + "-2") for known in self.legacy_models)

    def describe(self, model: str | None, environ: Mapping[str, str] | None = None) -> str:
        unit = "characters" if self.unit == "chars" else "tokens"
        return f"{self.limit(model, environ):,} {unit}"


@dataclass(frozen=True)
class ListingRule:
    """One runtime's measured listing rule."""

    runtime: str
    measured_on: str  # the CLI version the rule was measured on
    order: str  # "name": entries sorted by skill name
    overflow: str  # a key of OVERFLOWS
    entry: str = "- {name}: {description}"
    bare_entry: str = "- {name}"
    separator: str = "\n"
    description_cap: int | None = None  # longer descriptions are cut to this many characters
    cap_marker: str = ""
    budget: Budget | None = None

    def describe(self) -> str:
        return f"{self.runtime} {self.measured_on}: {OVERFLOWS[self.overflow]}"


@dataclass(frozen=True)
class ListedSkill:
    name: str
    state: str  # FULL, TRUNCATED, NAME_ONLY or DROPPED
    description_chars: int  # the description's length
    shown_chars: int  # how much of it the model sees

    @property
    def short(self) -> bool:
        return self.state != FULL


@dataclass(frozen=True)
class Listing:
    """A predicted listing: every skill in listing order, and the budget it was fitted to."""

    rule: ListingRule
    model: str | None
    budget: int | None  # None: no budget
    used: int  # what the full listing would cost, in the budget's unit
    skills: list[ListedSkill] = field(default_factory=list)

    @property
    def short(self) -> list[ListedSkill]:
        return [skill for skill in self.skills if skill.short]

    def shown(self) -> set[str]:
        """Names the model can pick from with their description (full or cut)."""
        return {skill.name for skill in self.skills if skill.state in (FULL, TRUNCATED)}

    def state_of(self, name: str) -> str | None:
        return next((skill.state for skill in self.skills if skill.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "runtime": self.rule.runtime,
            "measured_on": self.rule.measured_on,
            "model": self.model,
            "budget": self.budget,
            "unit": self.rule.budget.unit if self.rule.budget else None,
            "needed": self.used,
            "skills": {skill.name: skill.state for skill in self.skills},
        }


@cache
def rules() -> dict[str, ListingRule]:
    """Every runtime's listing rule, from harness/data/listing.json."""
    text = resources.files("harness").joinpath("data/listing.json").read_text(encoding="utf-8")
    found = {}
    for runtime, fields in json.loads(text).items():
        budget = fields.pop("budget", None)
        made = (
            Budget(**{k: tuple(v) if isinstance(v, list) else v for k, v in budget.items()})  # type: ignore[arg-type]
            if budget
            else None
        )
        found[runtime] = ListingRule(runtime=runtime, budget=made, **fields)
    return found


def listing_rule(runtime: str) -> ListingRule:
    return rules()[runtime]


def utf16_len(text: str) -> int:
    """Length as a JavaScript CLI counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def predict(
    rule: ListingRule,
    skills: Sequence[tuple[str, str]],
    model: str | None = None,
    environ: Mapping[str, str] | None = None,
    root: str = TYPICAL_ROOT,
) -> Listing:
    """The listing `rule` gives for (name, description) pairs on `model`; `root` is the skills folder
    path where its length counts (codex)."""
    ordered = sorted(skills) if rule.order == "name" else list(skills)
    if rule.overflow == "none" or rule.budget is None:
        entries = [ListedSkill(n, FULL, len(d), len(d)) for n, d in ordered]
        return Listing(rule, model, None, 0, entries)
    limit = rule.budget.limit(model, environ)
    if rule.overflow == "name-only":
        return _name_only(rule, ordered, model, limit)
    if rule.overflow == "drop":
        return _drop(rule, ordered, model, limit)
    return _share(rule, ordered, model, limit, root)


def _name_only(rule: ListingRule, ordered: list[tuple[str, str]], model: str | None, limit: int) -> Listing:
    """Every entry whole; past the budget, descriptions go (name stays) in listing order, each one
    kept while what it adds still fits what is left."""
    cap = rule.description_cap
    shown = [d if cap is None or len(d) <= cap else d[: cap - 1] + rule.cap_marker for _, d in ordered]
    full = [
        utf16_len(rule.entry.format(name=n, description=s)) for (n, _), s in zip(ordered, shown, strict=False)
    ]
    bare = [utf16_len(rule.bare_entry.format(name=n)) for n, _ in ordered]
    gaps = len(rule.separator) * max(0, len(ordered) - 1)
    needed = sum(full) + gaps
    capped = [
        ListedSkill(n, FULL if s == d else TRUNCATED, len(d), len(s))
        for (n, d), s in zip(ordered, shown, strict=False)
    ]
    if needed <= limit:
        return Listing(rule, model, limit, needed, capped)
    left = limit - sum(bare) - gaps
    entries = []
    for index, listed in enumerate(capped):
        extra = full[index] - bare[index]
        if extra <= left:
            left -= extra
            entries.append(listed)
        else:
            entries.append(ListedSkill(listed.name, NAME_ONLY, listed.description_chars, 0))
    return Listing(rule, model, limit, needed, entries)


def _drop(rule: ListingRule, ordered: list[tuple[str, str]], model: str | None, limit: int) -> Listing:
    """Whole entries in listing order until one does not fit; it and all after it are left out."""
    sizes = [utf16_len(rule.entry.format(name=n, description=d)) for n, d in ordered]
    needed = sum(sizes) + len(rule.separator) * max(0, len(sizes) - 1)
    entries: list[ListedSkill] = []
    used, full = 0, True
    for (name, description), size in zip(ordered, sizes, strict=False):
        step = size + (len(rule.separator) if entries else 0)
        full = full and used + step <= limit
        used += step if full else 0
        entries.append(
            ListedSkill(name, FULL if full else DROPPED, len(description), len(description) if full else 0)
        )
    return Listing(rule, model, limit, needed, entries)


def _tokens(byte_count: int, per_token: int) -> int:
    return -(-byte_count // per_token)


def _share(
    rule: ListingRule, ordered: list[tuple[str, str]], model: str | None, limit: int, root: str
) -> Listing:
    """Descriptions grow one character at a time, round after round over the list, while the budget
    lasts; when even bare entries overflow, entries are left out from the end."""
    assert rule.budget is not None
    per = rule.budget.bytes_per_token

    def cost(line: str) -> int:
        return _tokens(len((line + "\n").encode()), per)

    absolute = rule.entry.replace("r0/", root.rstrip("/") + "/")
    needed = sum(cost(absolute.format(name=n, description=d)) for n, d in ordered)
    if needed <= limit:
        return Listing(rule, model, limit, needed, [ListedSkill(n, FULL, len(d), len(d)) for n, d in ordered])
    root_line = f"- `r0` = `{root.rstrip('/')}`\n"
    limit -= _tokens(CODEX_ALIAS_TEXT_BYTES + len(root_line.encode()), per)
    bare = [rule.bare_entry.format(name=n) for n, _ in ordered]
    minimum = sum(cost(line) for line in bare)
    if minimum > limit:
        entries: list[ListedSkill] = []
        used = 0
        for (name, description), line in zip(ordered, bare, strict=False):
            fits = used + cost(line) <= limit
            used += cost(line) if fits else 0
            entries.append(ListedSkill(name, TRUNCATED if fits else DROPPED, len(description), 0))
        return Listing(rule, model, limit, needed, entries)
    left = limit - minimum
    base = [len(line.encode()) + 1 for line in bare]
    prefix = [[0] for _ in ordered]  # bytes of each description's first k characters
    for index, (_, description) in enumerate(ordered):
        for char in description:
            prefix[index].append(prefix[index][-1] + len(char.encode()))
    given = [0] * len(ordered)
    spent = [0] * len(ordered)
    changed = True
    while changed:
        changed = False
        for index, (_, description) in enumerate(ordered):
            if given[index] >= len(description):
                continue
            step = given[index] + 1
            extra = _tokens(base[index] + prefix[index][step] + 1, per) - _tokens(base[index], per)
            if extra - spent[index] <= left:
                left -= extra - spent[index]
                given[index], spent[index], changed = step, extra, True
    entries = [
        ListedSkill(n, FULL if given[i] == len(d) else TRUNCATED, len(d), given[i])
        for i, (n, d) in enumerate(ordered)
    ]
    return Listing(rule, model, limit, needed, entries)
