"""What the catalog skills outside the room do to a routing run: the summary's note naming them, the
negatives whose `owner` is among them, and the lexical near misses one of them would likely have taken.

Each names the one flag that puts the missing skills in the room (routing/room.py's `widening`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from harness.model.dataset import Case
from harness.model.repo import Repo
from harness.routing import verdicts
from harness.routing.lexical import LexicalEngine, LexicalOutcome
from harness.routing.room import left_out_note, widening

OWNERS_SHOWN = 6


def fixer(listed: Sequence[str], room: Sequence[str], repo: Repo) -> Callable[[Sequence[str]], str]:
    """The advice for skills a case needs but the room lacks: the one flag when they are catalog skills,
    else (an `owner` naming no skill under --skills-dir) the case to fix."""

    def fix(missing: Sequence[str]) -> str:
        strangers = [name for name in missing if name not in repo.skill_dirs]
        if strangers:
            return (
                f"{', '.join(strangers)} {'is' if len(strangers) == 1 else 'are'} no skill under "
                f"--skills-dir {','.join(repo.globs)}: fix the case's `owner`"
            )
        return f"`{widening(listed, room, missing)}` puts {'it' if len(missing) == 1 else 'them'} in"

    return fix


def notes(listed: Sequence[str], room: Sequence[str], repo: Repo, cases: Sequence[Case]) -> list[str]:
    """The summary's notes: which catalog skills the room left out, and the negatives naming one of them
    as their `owner` (an agent cannot choose a skill it was not given)."""
    said = [note] if (note := left_out_note(room, repo)) else []
    inside = set(room)
    owners = [c.owner for c in cases if c.owner and c.owner not in inside and c.owner in repo.skill_dirs]
    if owners:
        named = list(dict.fromkeys(owners))
        shown = ", ".join(named[:OWNERS_SHOWN]) + (
            f" and {len(named) - OWNERS_SHOWN} more" if len(named) > OWNERS_SHOWN else ""
        )
        said.append(
            f"{len(owners)} negative case(s) name an `owner` outside the room ({shown}); "
            f"`{widening(listed, room, named)}` installs {'it' if len(named) == 1 else 'them'}."
        )
    return said


def near_missed(outcomes: Sequence[LexicalOutcome]) -> list[LexicalOutcome]:
    """The false cases without an `owner` whose own skill ranked first: near misses the room got wrong."""
    return [
        o
        for o in outcomes
        if o.graded and not o.case.should_trigger and not o.case.owner and o.verdict == verdicts.FALSE_TRIGGER
    ]


def near_misses(
    outcomes: Sequence[LexicalOutcome],
    room: Mapping[str, str],
    outside: Mapping[str, str],
    fix: Callable[[Sequence[str]], str],
) -> None:
    """Mark each lexical near miss (a false case without an `owner` that fired) whose prompt, ranked over
    the room and the skills outside it, goes first to an outside skill: that skill likely owns it."""
    missed = near_missed(outcomes)
    if not missed or not outside:
        return
    whole = LexicalEngine({**room, **outside})
    for outcome, again in zip(missed, whole.grade_all([o.case for o in missed]), strict=True):
        best = again.top[0] if again.top else None
        if best is not None and best.skill in outside and best.score > again.score:
            outcome.outside = (
                f"`{best.skill}`, outside the room, ranks first over the whole catalog; {fix([best.skill])}"
            )
