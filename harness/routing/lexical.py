"""The lexical routing engine: each prompt ranked against the room's names and descriptions.

It sees what an agent sees when it chooses (name and description) and grades with the routing verdicts,
so it runs on every push for free; it approximates the agent's choice and never replaces it. Given the
modelled agent's listing (routing/listed.py), it ranks only what that agent's model is shown: a skill left
out has no words, a name-only one its name's, a cut one what survives of its description.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from harness.model import findings
from harness.model.dataset import Case
from harness.model.findings import Finding
from harness.model.listing import Listing
from harness.routing import listed, verdicts
from harness.routing.room import not_in_room
from harness.routing.scoring import Match
from harness.routing.terms import Analyzer
from harness.routing.vectors import Index, ranked_text

TOP_SHOWN = 3
WORDS_SHOWN = 8
APPROXIMATION = (
    "The lexical engine ranks each prompt by the words it shares with each skill's name and "
    "description (TF-IDF cosine over stemmed words): it approximates how an agent routes and never "
    "replaces agent routing."
)


@dataclass
class LexicalOutcome:
    """One case graded by its ranking. `error` set means it could not be graded (never a pass or a miss)."""

    case: Case
    verdict: str
    observed: str | None  # the skill this engine would pick: the best score above zero
    top: list[Match] = field(default_factory=list)
    rank: int | None = None  # of the case's own skill, ties counted against the case
    score: float = 0.0
    owner_rank: int | None = None
    owner_score: float | None = None
    words: tuple[str, ...] = ()  # the prompt's words that carry meaning, as written
    error: str | None = None
    unlisted: str = ""  # a miss whose expected skill the listing did not show in full: why
    outside: str = ""  # a near miss a skill outside the room would likely have answered: which, and the fix

    def plain(self) -> tuple:
        """Every field but the case, as builtins: what a forked child sends back cheaply (see of_plain)."""
        top = [(m.skill, m.score, m.shared) for m in self.top]
        return (
            self.verdict,
            self.observed,
            top,
            self.rank,
            self.score,
            self.owner_rank,
            self.owner_score,
            self.words,
            self.error,
            self.unlisted,
        )

    @classmethod
    def of_plain(cls, case: Case, fields: tuple) -> LexicalOutcome:
        verdict, observed, top, *rest = fields
        return cls(case, verdict, observed, [Match(*match) for match in top], *rest)

    @property
    def expected(self) -> str | None:
        return self.case.expected_skill

    @property
    def graded(self) -> bool:
        return self.verdict != verdicts.ERROR

    @property
    def passed(self) -> bool:
        return self.verdict in verdicts.PASSING

    @property
    def fired(self) -> bool:
        return self.observed is not None

    @property
    def rank1(self) -> bool:
        """A positive whose skill alone ranks first."""
        return self.case.should_trigger and self.rank == 1 and self.score > 0

    @property
    def vocabulary_gap(self) -> bool:
        """A positive whose own skill's description shares no word with the prompt."""
        return self.graded and self.case.should_trigger and self.score == 0 and not self.unlisted

    @property
    def summary(self) -> str:
        return "; ".join(part for part in (self._said(), self.unlisted, self.outside) if part)

    def _said(self) -> str:
        if not self.graded:
            return f"not graded: {self.error}"
        skill = self.case.skill
        if self.case.should_trigger:
            return f"expected {skill} in the top {self.case.top_k} -> ranked {self.rank} ({self._first()})"
        owner = self.case.owner
        if owner:
            return self._owned(skill or "", owner)
        if self.rank == 1:  # a near miss its own skill took: say so once, not as three ranks
            return f"a near miss: {skill} ranked first, though the prompt is not its job"
        return f"expected {skill} not first -> ranked {self.rank} ({self._first()})"

    def _owned(self, skill: str, owner: str) -> str:
        """A false case naming its `owner`: what ranked first, and whose description to change."""
        said = f"expected its owner {owner} first -> "
        ranks = f"{owner} ranked {self.owner_rank}, {skill} {self.rank}"
        if self.verdict == verdicts.CORRECT_TRIGGER:
            return f"{said}{owner} ranked first ({skill} {self.rank})"
        if self.verdict == verdicts.FALSE_TRIGGER:
            return (
                f"{said}{skill} ranked first ({ranks}), though the prompt belongs to {owner}: narrow "
                f"`{skill}`'s description or widen `{owner}`'s"
            )
        if self.verdict == verdicts.WRONG_SKILL:
            return (
                f"{said}{self.observed} ranked first ({ranks}): `{self.observed}`'s description claims a "
                f"prompt that belongs to {owner}"
            )
        return f"{said}no skill shares a word: widen `{owner}`'s description"

    def _first(self) -> str:
        return f"first: {self.observed}" if self.observed else "no skill shares a word"


class LexicalEngine:
    """A room indexed once; `grade` ranks one case's prompt against it. A description of None is a skill
    the agent's listing leaves out: in the room, but with no words, so never chosen. `listing`, when
    given, is what that text was cut to, and says why a skill it shorted was missed. `widen` names the one
    flag that puts skills a case needs but the room lacks into it. `analyzer` may be shared by engines
    built one after another (a sweep's), so each word is stemmed once."""

    def __init__(
        self,
        descriptions: Mapping[str, str | None],
        listing: Listing | None = None,
        widen: Callable[[Sequence[str]], str] | None = None,
        analyzer: Analyzer | None = None,
    ):
        self.listing = listing
        self.widen = widen
        self.index = Index(
            {name: "" if text is None else ranked_text(name, text) for name, text in descriptions.items()},
            analyzer,
        )
        self.index.postings()  # built once here, so a forked share of the grading inherits it

    @property
    def room(self) -> list[str]:
        return self.index.names

    def grade(self, case: Case) -> LexicalOutcome:
        return self.grade_all([case])[0]

    def grade_all(self, cases: list[Case]) -> list[LexicalOutcome]:
        """Every case graded, in order; the rankable ones scored a block of rows at a time."""
        from harness.routing.blocks import block_rows

        out: dict[int, LexicalOutcome] = {}  # by the case's place in `cases`
        rankable: list[tuple[int, Case, str]] = []  # with the skill it ranks
        for place, case in enumerate(cases):
            missing = [name for name in (case.skill, case.owner) if name and name not in self.index.vectors]
            if case.skill is None or missing:
                out[place] = LexicalOutcome(case, verdicts.ERROR, None, error=self._ungradable(case, missing))
            else:
                rankable.append((place, case, case.skill))
        size = block_rows(len(self.index.names))
        for start in range(0, len(rankable), size):
            block = rankable[start : start + size]
            graded = self._grade_block([case for _, case, _ in block], [skill for _, _, skill in block])
            for (place, _, _), outcome in zip(block, graded, strict=True):
                out[place] = outcome
        return [out[place] for place in range(len(cases))]

    def _grade_block(self, cases: list[Case], skills: list[str]) -> list[LexicalOutcome]:
        scores = self.index.score_block([case.prompt for case in cases])
        columns = self.index.columns
        own = [columns[skill] for skill in skills]
        own_scores, ranks, best = scores.scores_of(own), scores.worst_ranks(own), scores.best_ranks(own)
        tops = scores.tops(TOP_SHOWN)
        owners_of = {row: case.owner for row, case in enumerate(cases) if case.owner}
        owned = list(owners_of)
        owner_columns = [columns[owner] for owner in owners_of.values()]
        owner_scores = scores.scores_of(owner_columns, owned)
        owner_ranks = scores.worst_ranks(owner_columns, owned)
        owner_best = scores.best_ranks(owner_columns, owned)
        owners = {
            row: (owner_scores[n], owner_ranks[n], owner_best[n] == 1 and owner_scores[n] > 0)
            for n, row in enumerate(owned)
        }
        out = []
        for row, case in enumerate(cases):
            top = tops[row]
            outcome = LexicalOutcome(
                case,
                verdict=verdicts.ERROR,
                observed=top[0].skill if top else None,
                top=top,
                rank=ranks[row],
                score=own_scores[row],
                words=tuple(scores.queries[row].words.values()),
            )
            if row in owners:
                outcome.owner_score, outcome.owner_rank, owner_first = owners[row]
                own_first = outcome.score > 0 and best[row] == 1
                fired = first_place(top, {case.skill: own_first, case.owner: owner_first})
                outcome.verdict, outcome.observed = verdicts.judge(case.owner, case.skill, fired)
            else:
                outcome.verdict = self._verdict(outcome, ranks[row], best[row] == 1)
            if self.listing is not None and not outcome.passed:
                outcome.unlisted = listed.why_missed(self.listing, case.expected_skill)
            out.append(outcome)
        return out

    def _verdict(self, outcome: LexicalOutcome, rank: int, first_or_tied: bool) -> str:
        """Ties go against the case: a positive tied at its cut misses it, a negative tied first fires."""
        case, own = outcome.case, outcome.score
        if case.should_trigger:
            if own > 0 and rank <= case.top_k:
                return verdicts.CORRECT_TRIGGER
            return verdicts.MISSED_TRIGGER if outcome.observed is None else verdicts.WRONG_SKILL
        # Without an `owner` a false case asserts only that its skill is not first: some skill always
        # shares a word with a prompt, so "no skill fires" is no lexical claim. With one, judge decides.
        return verdicts.FALSE_TRIGGER if own > 0 and first_or_tied else verdicts.TRUE_NEGATIVE

    def _ungradable(self, case: Case, missing: list[str]) -> str:
        if case.skill is None:
            return "a shared negative belongs to no skill, so no rank of one can be tested"
        return not_in_room(missing, self.widen, "ranked")


def first_place(top: Sequence[Match], tied_first: Mapping[str | None, bool]) -> list[str]:
    """The skills a ranking fires, best first: every skill tied for first place above zero. `top` is cut
    short, so the skills a case names say whether they tie for first themselves (`tied_first`)."""
    best = top[0].score if top else 0.0
    fired = [m.skill for m in top if m.score == best and best > 0]
    return fired + [name for name, first in tied_first.items() if first and name and name not in fired]


def vocabulary_gaps(outcomes: list[LexicalOutcome]) -> list[Finding]:
    """A finding for each positive whose own description shares no word with the prompt."""
    out = []
    for outcome in outcomes:
        if not outcome.vocabulary_gap:
            continue
        case = outcome.case
        out.append(
            findings.warning(  # a lexical estimate: the case's own verdict is what gates
                "description-vocabulary-gap",
                case.source,
                f"case `{case.id}`: the description of `{case.skill}` shares no word with a prompt users "
                f"would type ({', '.join(outcome.words[:WORDS_SHOWN]) or 'no word that carries meaning'}); "
                "put the words users say for this need in the description, or rewrite an unrealistic prompt.",
                case.line,
            )
        )
    return out


def rank_rates(outcomes: list[LexicalOutcome], room: list[str]) -> tuple[dict, dict[str, dict]]:
    """Rank-1 and top-k rates of the graded positives, overall and per skill of the room."""
    overall = [0, 0, 0]  # positives, rank 1, within top k
    by_skill = {name: [0, 0, 0] for name in room}
    for o in outcomes:  # one pass: a large run has ten thousand outcomes and a thousand skills
        if o.graded and o.case.should_trigger:
            rank1, top_k = o.rank1, o.passed
            for tally in (overall, by_skill.get(o.case.skill) if o.case.skill else None):
                if tally is not None:
                    tally[0] += 1
                    tally[1] += rank1
                    tally[2] += top_k
    return _rates(*overall), {name: _rates(*tally) for name, tally in by_skill.items()}


def _rates(count: int, rank1: int, top_k: int) -> dict:
    return {
        "positives": count,
        "rank1": rank1,
        "top_k": top_k,
        "rank1_rate": round(rank1 / count, 3) if count else None,
        "top_k_rate": round(top_k / count, 3) if count else None,
    }
