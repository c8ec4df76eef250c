"""What an agent shows its model of a catalog: each skill listed in full, cut short, by name only, or
not at all, predicted from the agent's measured listing rule.

The rules are data (harness/data/listing.json), one per runtime, each with the CLI version it was
measured on; the runtime modules in harness/agent own them (`listing_rule`), and offline callers
(structural, the lexical engine) read them here without loading any agent code.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from harness.files import packaged_text

# How a listing deals with a catalog over its budget.
OVERFLOWS = {
    "none": "every description is shown in full, whatever the catalog's size",
    "name-only": "past the budget every name stays and descriptions are kept while they fit, the most used"
    " skills' first (a never-used one, as every new skill is, in listing order)",
    "share": "every description is cut to an equal share of the budget, then whole entries are left out",
    "drop": "from the first entry in listing order that no longer fits, every later one loses its description"
    " (names stay, on one line after the entries)",
}
# The state of one skill in a predicted listing.
FULL, TRUNCATED, NAME_ONLY, DROPPED = "full", "truncated", "name-only", "dropped"
# A usage score for a skill the agent has never seen used: what a new skill has, so the worst case.
NEVER_USED = 0.0
# What String.prototype.trim strips (JavaScript's WhiteSpace and LineTerminator): not str.strip's set.
JS_TRIMMED = "".join(
    ["\t\n\v\f\r \u00a0\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028\u2029\u202f\u205f\u3000\ufeff"]
)
# Characters a terminal does not show: categories, plus Unicode's Default_Ignorable_Code_Point ranges
# (DerivedCoreProperties.txt) and the blank braille pattern, which no category names.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Zl", "Zp"})
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# How a CLI writes markup characters in a description, before measuring it: one pass of str.translate
# (a Python step per character cost a warm structural run more than its listing checks).
ESCAPES = {
    "": str.maketrans({}),
    "angle": str.maketrans({"<": "&lt;", ">": "&gt;"}),
    "xml": str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}),
}
# What holds an emoji sequence together (joiner, presentation selector, keycap, tag characters).
EMOJI_GLUE = frozenset({0x200D, 0xFE0F, 0x20E3, *range(0xE0020, 0xE0080)})


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
    order: str  # "name": entries sorted by skill name; "any": in no order the listing depends on
    overflow: str  # a key of OVERFLOWS
    entry: str = "- {name}: {description}"
    bare_entry: str = "- {name}"
    separator: str = "\n"
    description_cap: int | None = None  # longer descriptions are cut to this many (marker included)
    cap_marker: str = ""
    cap_unit: str = "chars"  # what the cap counts: "chars" (code points) or "utf16" (JavaScript units)
    measure: str = "utf16"  # what a "chars" budget counts: "utf16" units or "width" (terminal columns)
    collapse_whitespace: bool = False  # runs of whitespace in a description become one space
    trim: bool = False  # the description is trimmed as JavaScript trims (JS_TRIMMED) before listing
    # Each run of characters a terminal does not show (controls, line breaks, format and private-use
    # characters, default-ignorables) becomes one space, except inside an emoji sequence.
    blank_invisible: bool = False
    # Past the budget, descriptions are kept in order of usage (most used first; ties in listing order).
    ranked_by_usage: bool = False
    # How a use counts as it ages: halved every `usage_half_life_days`, never below `usage_floor` of a
    # use (claude: uses x max(0.5 ** (days / 7), 0.1), read from its config's skill usage record).
    usage_half_life_days: float = 0
    usage_floor: float = 0
    escape: str = ""  # a key of ESCAPES: how the CLI writes markup characters of a description
    names_line: str = ""  # where name-only skills are named together after the entries ({names})
    description_limit: int | None = None  # a longer description (UTF-16 units) leaves the skill out
    budget: Budget | None = None

    def describe(self) -> str:
        return f"{self.runtime} {self.measured_on}: {OVERFLOWS[self.overflow]}"


@dataclass(frozen=True)
class ListedSkill:
    """One skill's entry in a predicted listing."""

    name: str
    state: str  # FULL, TRUNCATED, NAME_ONLY or DROPPED
    description_chars: int  # the description's length
    shown: str = ""  # the description's text as listed ("" when only the name, or nothing, is)
    too_long: bool = False  # left out for a description over the rule's description_limit

    @property
    def shown_chars(self) -> int:
        """How much of the description the model sees."""
        return len(self.shown)

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
    # Each skill's state by name, built once: a routing run asks once per missed case.
    states: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The first entry of a name wins, as a walk in listing order would find it.
        states: dict[str, str] = {}
        for skill in self.skills:
            states.setdefault(skill.name, skill.state)
        object.__setattr__(self, "states", states)

    @property
    def short(self) -> list[ListedSkill]:
        return [skill for skill in self.skills if skill.short]

    def shown(self) -> set[str]:
        """Names the model can pick from with their description (full or cut)."""
        return {skill.name for skill in self.skills if skill.state in (FULL, TRUNCATED)}

    def state_of(self, name: str) -> str | None:
        return self.states.get(name)

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
    text = packaged_text("data", "listing.json")  # a plain read: importlib.resources costs more than it
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


def usage_scores(rule: ListingRule, uses: Mapping[str, tuple[int, float]]) -> dict[str, float]:
    """Each skill's usage score where `rule` ranks by usage, from (uses, days since the last use); empty
    where it does not (every skill then keeps its listing order)."""
    if not rule.ranked_by_usage:
        return {}
    scores = {}
    for name, (count, days) in uses.items():
        decay = 0.5 ** (days / rule.usage_half_life_days) if rule.usage_half_life_days else 1.0
        scores[name] = count * max(decay, rule.usage_floor)
    return scores


def utf16_len(text: str) -> int:
    """Length as a JavaScript CLI counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


# Characters a terminal gives one column each (wcwidth agrees: tests/model/test_listing_rules.py), so
# a text of them alone is measured without loading wcwidth.
ONE_COLUMN = re.compile("[\x20-\x7e\u00a0-\u024f\u2010-\u2027\u2030-\u205e]*")


def width(text: str) -> int:
    """Columns a terminal gives `text` (wide characters 2, combining marks 0, an emoji sequence 2)."""
    if ONE_COLUMN.fullmatch(text):
        return len(text)  # one column each: ASCII, Latin letters, dashes and quotes, most descriptions
    # Imported when first needed: loading wcwidth at import cost every command that imports the
    # listing more than its work on small inputs; later calls find it in sys.modules.
    import wcwidth

    return max(0, wcwidth.width(text))


def invisible(char: str) -> bool:
    """Whether a terminal shows nothing for `char` (claude blanks such characters in a description)."""
    point = ord(char)
    if unicodedata.category(char) in INVISIBLE_CATEGORIES:
        return True
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def blanked(text: str) -> str:
    """`text` with each run of invisible characters as one space; an emoji sequence (a wide grapheme
    held together by a joiner, a presentation selector, a keycap or tags) keeps its glue."""
    if text.isascii() and text.isprintable():
        return text  # most descriptions: nothing invisible, and no Python step per character
    if not any(invisible(char) for char in set(text)):
        return text  # only invisible characters change, glue included: no wcwidth needed
    return blanked_by_graphemes(text)


def blanked_by_graphemes(text: str) -> str:
    """blanked() walked grapheme by grapheme, for a text with something to blank."""
    from wcwidth import iter_graphemes

    out: list[str] = []
    in_run = False
    for grapheme in iter_graphemes(text):
        glued = len(grapheme) > 1 and width(grapheme) == 2 and any(ord(c) in EMOJI_GLUE for c in grapheme)
        for char in grapheme:
            if not glued and invisible(char):
                if not in_run:
                    out.append(" ")
                in_run = True
            else:
                out.append(char)
                in_run = False
    return "".join(out)


def normalized(rule: ListingRule, description: str) -> str:
    """The description as the rule lists it in full: trimmed, invisible runs blanked, whitespace
    collapsed, each where the CLI does so."""
    text = description.strip(JS_TRIMMED) if rule.trim else description
    if rule.blank_invisible:
        text = blanked(text)
    if rule.collapse_whitespace:
        text = " ".join(text.split())
    return text.translate(ESCAPES[rule.escape]) if rule.escape else text


def capped(rule: ListingRule, description: str) -> str:
    """The description as the rule lists it before any budget: normalized, cut to its cap."""
    text = normalized(rule, description)
    cap = rule.description_cap
    if cap is None:
        return text
    if rule.cap_unit == "utf16":
        if utf16_len(text) <= cap:
            return text
        # Cut in code units, as the CLI does: half of a surrogate pair may be what is left.
        units = text.encode("utf-16-le", "surrogatepass")[: 2 * (cap - len(rule.cap_marker))]
        return units.decode("utf-16-le", "surrogatepass") + rule.cap_marker
    return text if len(text) <= cap else text[: cap - len(rule.cap_marker)] + rule.cap_marker


def predict(
    rule: ListingRule,
    skills: Sequence[tuple[str, str]],
    model: str | None = None,
    environ: Mapping[str, str] | None = None,
    usage: Mapping[str, float] | None = None,
) -> Listing:
    """The listing `rule` gives for (name, description) pairs on `model`. `usage` scores skills where
    the agent ranks them by use (claude: its usage count, decayed by age); a skill not in it was never
    used, the worst case, which is where every new skill starts."""
    ordered = sorted(skills)  # "any" (no budget, so no order that matters) is listed by name too
    limit = rule.description_limit
    valid = [(n, d) for n, d in ordered if limit is None or utf16_len(d) <= limit]
    shown = {name: capped(rule, description) for name, description in valid}
    if rule.overflow == "none" or rule.budget is None:
        listing = Listing(rule, model, None, 0, [_listed(rule, n, d, shown[n]) for n, d in valid])
    else:
        budget = rule.budget.limit(model, environ)
        if rule.overflow == "name-only":
            listing = _name_only(rule, valid, shown, model, budget, usage or {})
        elif rule.overflow == "drop":
            listing = _drop(rule, valid, shown, model, budget)
        else:
            listing = _share(rule, valid, shown, model, budget)
    # A skill the CLI does not load keeps its place in the order, left out.
    fitted = {skill.name: skill for skill in listing.skills}
    entries = [fitted.get(n) or ListedSkill(n, DROPPED, len(d), too_long=True) for n, d in ordered]
    return Listing(rule, model, listing.budget, listing.used, entries)


def render(listing: Listing, root: str = "") -> str:
    """The listing as the CLI writes it for its model: each entry in listing order, a name-only one
    bare, a left-out one absent. `root` fills the entries that give the skills folder's path."""
    rule = listing.rule
    entries = []
    for skill in listing.skills:
        if skill.state == DROPPED or (skill.state == NAME_ONLY and rule.names_line):
            continue
        if skill.state == NAME_ONLY or (skill.state == TRUNCATED and not skill.shown):
            entries.append(rule.bare_entry.format(name=skill.name, root=root))
        else:
            entries.append(rule.entry.format(name=skill.name, description=skill.shown, root=root))
    named = [skill.name for skill in listing.skills if skill.state == NAME_ONLY]
    if rule.names_line and named:
        entries.append(rule.names_line.format(names=", ".join(named)))
    return rule.separator.join(entries)


def _listed(rule: ListingRule, name: str, description: str, shown: str) -> ListedSkill:
    whole = shown == normalized(rule, description)
    return ListedSkill(name, FULL if whole else TRUNCATED, len(description), shown)


def measured(rule: ListingRule, text: str) -> int:
    """What `text` costs of a budget counted in characters: terminal columns or UTF-16 units."""
    return width(text) if rule.measure == "width" else utf16_len(text)


def _name_only(
    rule: ListingRule,
    ordered: list[tuple[str, str]],
    shown: dict[str, str],
    model: str | None,
    limit: int,
    usage: Mapping[str, float],
) -> Listing:
    """Every entry whole; past the budget, names stay and descriptions are kept one at a time, most
    used first (ties, such as skills never used, in listing order), each while what it adds still fits
    what is left; a later, shorter one may still fit after a longer one did not."""
    full = [measured(rule, rule.entry.format(name=n, description=shown[n])) for n, _ in ordered]
    bare = [measured(rule, rule.bare_entry.format(name=n)) for n, _ in ordered]
    gaps = len(rule.separator) * max(0, len(ordered) - 1)
    needed = sum(full) + gaps
    whole = [_listed(rule, n, d, shown[n]) for n, d in ordered]
    if needed <= limit:
        return Listing(rule, model, limit, needed, whole)
    left = limit - sum(bare) - gaps
    turns: list[int] = list(range(len(ordered)))
    if rule.ranked_by_usage:  # sorted() is stable: equal scores keep their listing order
        turns = sorted(turns, key=lambda index: -usage.get(ordered[index][0], NEVER_USED))
    kept = set()
    for index in turns:
        extra = full[index] - bare[index]
        if extra <= left:
            left -= extra
            kept.add(index)
    entries = [
        listed if index in kept else ListedSkill(listed.name, NAME_ONLY, listed.description_chars)
        for index, listed in enumerate(whole)
    ]
    return Listing(rule, model, limit, needed, entries)


def _drop(
    rule: ListingRule, ordered: list[tuple[str, str]], shown: dict[str, str], model: str | None, limit: int
) -> Listing:
    """Whole entries in listing order until one does not fit; it and all after it lose their
    description (the CLI names them on its one line after the entries)."""
    sizes = [measured(rule, rule.entry.format(name=n, description=shown[n])) for n, _ in ordered]
    needed = sum(sizes) + len(rule.separator) * max(0, len(sizes) - 1)
    entries: list[ListedSkill] = []
    used, fits = 0, True
    for (name, description), size in zip(ordered, sizes, strict=False):
        step = size + (len(rule.separator) if entries else 0)
        fits = fits and used + step <= limit
        used += step if fits else 0
        entries.append(
            _listed(rule, name, description, shown[name])
            if fits
            else ListedSkill(name, NAME_ONLY if rule.names_line else DROPPED, len(description))
        )
    return Listing(rule, model, limit, needed, entries)


def tokens(byte_count: int, per_token: int) -> int:
    """Whole tokens for `byte_count` bytes, rounded up, as a token budget counts a line."""
    return -(-byte_count // per_token)


def _share(
    rule: ListingRule,
    ordered: list[tuple[str, str]],
    shown: dict[str, str],
    model: str | None,
    limit: int,
) -> Listing:
    """Descriptions grow one character at a time, round after round over the list, while the budget
    (each line's bytes, newline included, in whole tokens) lasts; when even bare entries overflow,
    entries are left out from the end. Lines give paths under a short root alias, so the root's own
    length never counts while it stays under about 128 characters (past that, each character costs a
    description one; skillscope's workspaces sit a few dozen characters below the temp folder).
    Measured on codex 0.169.0 to the character."""
    assert rule.budget is not None
    per = rule.budget.bytes_per_token

    def cost(line: str) -> int:
        return tokens(len((line + "\n").encode()), per)

    needed = sum(cost(rule.entry.format(name=n, description=shown[n])) for n, _ in ordered)
    if needed <= limit:
        return Listing(rule, model, limit, needed, [_listed(rule, n, d, shown[n]) for n, d in ordered])
    bare = [rule.bare_entry.format(name=n) for n, _ in ordered]
    minimum = sum(cost(line) for line in bare)
    if minimum > limit:
        entries: list[ListedSkill] = []
        used = 0
        for (name, description), line in zip(ordered, bare, strict=False):
            fits = used + cost(line) <= limit
            used += cost(line) if fits else 0
            entries.append(ListedSkill(name, TRUNCATED if fits else DROPPED, len(description)))
        return Listing(rule, model, limit, needed, entries)
    left = limit - minimum
    texts = [shown[n] for n, _ in ordered]
    base = [len(line.encode()) + 1 for line in bare]
    prefix = [[0] for _ in ordered]  # bytes of each description's first k characters
    for index, text in enumerate(texts):
        for char in text:
            prefix[index].append(prefix[index][-1] + len(char.encode()))
    given = [0] * len(ordered)
    spent = [0] * len(ordered)
    changed = True
    while changed:
        changed = False
        for index, text in enumerate(texts):
            if given[index] >= len(text):
                continue
            step = given[index] + 1
            extra = tokens(base[index] + prefix[index][step] + 1, per) - tokens(base[index], per)
            if extra - spent[index] <= left:
                left -= extra - spent[index]
                given[index], spent[index], changed = step, extra, True
    entries = []
    for index, (name, description) in enumerate(ordered):
        entries.append(_listed(rule, name, description, texts[index][: given[index]]))
    return Listing(rule, model, limit, needed, entries)
