"""The routing room: which skills a routing run installs side by side, resolved from --routing-room's list.

Shared by `routing` (which must have a room) and `select` (for which an empty room means no routing job).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.errors import UsageError
from harness.model.repo import Repo
from harness.printable import name_list

FLAG = "--routing-room"
EVERY = "all"
NOBODY = "none"


def resolve_room(
    listed: Sequence[str],
    repo: Repo,
    skill_filter: Sequence[str] = (),
    *,
    allow_none: bool = False,
    command: str = "routing",
) -> list[str]:
    """The room, in listed order without duplicates.

    `listed` is the flag's list: skill names, `all` (every skill with a dataset) or `none` alone, or empty.
    Empty means `skill_filter` when one is given (naming skills is a listing, not a guess), else the only
    skill with a dataset. With `allow_none` (a command that can simply skip routing), `none` and a blank
    flag in a repo of several skills both give an empty room; without it both are usage errors, since a
    routing run with an unnamed room would pick a score's meaning for the user.
    """
    candidates = repo.with_dataset()
    keyword = listed[0].lower() if len(listed) == 1 else ""
    if keyword == NOBODY:
        if allow_none:
            return []
        raise UsageError(
            f"`{command}` asks for a routing run and `{FLAG} none` empties the room; name the "
            f"skills that go in it ({FLAG} a,b or {EVERY}) or skip the routing step instead."
        )
    if keyword == EVERY:
        return _non_empty(candidates, repo, allow_none, command)
    if listed:
        return _named(list(listed), candidates, repo, FLAG)
    if skill_filter:
        return _named(list(skill_filter), candidates, repo, "--skill")
    if len(candidates) == 1:
        return list(candidates)
    if allow_none or not candidates:
        return _non_empty([], repo, allow_none, command)
    raise UsageError(
        f"`{command}` needs the skills that go in the room: name them with {FLAG} a,b or "
        f"{FLAG} {EVERY}; skills with a dataset here: {name_list(candidates)}."
    )


def _named(names: list[str], candidates: list[str], repo: Repo, flag: str) -> list[str]:
    keywords = [name for name in names if name.lower() in (EVERY, NOBODY)]
    if keywords:
        raise UsageError(
            f"{flag}: `{keywords[0]}` stands alone; pass either `{keywords[0]}` or a list of "
            "skill names, not both."
        )
    known = set(candidates)
    unknown = [name for name in dict.fromkeys(names) if name not in known]
    if unknown:
        which = ", ".join(unknown)
        raise UsageError(
            f"{flag} names {which}, which {'is' if len(unknown) == 1 else 'are'} not a skill "
            f"with evals/evals.json under --skills-dir {','.join(repo.globs)}; skills with a "
            f"dataset here: {name_list(candidates)}."
        )
    return list(dict.fromkeys(names))


def _non_empty(candidates: list[str], repo: Repo, allow_none: bool, command: str) -> list[str]:
    if candidates or allow_none:
        return list(candidates)
    raise UsageError(
        f"`{command}` has no skill to put in the room: no skill under --skills-dir "
        f"{','.join(repo.globs)} has evals/evals.json; add a dataset or point --skills-dir at "
        "the skills."
    )
