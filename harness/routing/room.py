"""The routing room: which skills a routing run installs side by side, resolved from --routing-room's list.

The catalog (every skill under --skills-dir), the room (the skills installed together) and the graded
cases (the datasets of the room's members) are three sets: any catalog skill may be a member, and one
without a dataset is installed and listed beside the others while contributing no case.
Shared by `routing`, `compare`, `tune`, `structural` and `select` (for which an empty room means no
routing job).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.errors import UsageError
from harness.model import notes
from harness.model.repo import Repo
from harness.printable import name_list

FLAG = "--routing-room"
EVERY = "all"  # every skill with a dataset, as the seeds define it
CATALOG = "catalog"  # every skill under --skills-dir, with a dataset or not
NOBODY = "none"
KEYWORDS = (EVERY, CATALOG, NOBODY)
LEFT_OUT_SHOWN = 8
LEFT_OUT = notes.LEFT_OUT
HELP = (
    "skills installed side by side: a,b (any skill under --skills-dir; one without a dataset is "
    f"installed and listed but adds no case), {EVERY} (every skill with a dataset) or {CATALOG} (every "
    "skill under --skills-dir)"
)


def resolve_room(
    listed: Sequence[str],
    repo: Repo,
    skill_filter: Sequence[str] = (),
    *,
    allow_none: bool = False,
    command: str = "routing",
) -> list[str]:
    """The room, in listed order without duplicates.

    `listed` is the flag's list: skill names, `all` (every skill with a dataset), `catalog` (every skill
    under --skills-dir) or `none` alone, or empty. Empty means `skill_filter` when one is given (naming
    skills is a listing, not a guess), else the only skill with a dataset. With `allow_none` (a command
    that can simply skip routing), `none` and a blank flag in a repo of several skills both give an empty
    room; without it both are usage errors, since a routing run with an unnamed room would pick a score's
    meaning for the user. A room none of whose members has a dataset grades nothing: a usage error too.
    """
    candidates = repo.with_dataset()
    keyword = listed[0].lower() if len(listed) == 1 else ""
    if keyword == NOBODY:
        if allow_none:
            return []
        raise UsageError(
            f"`{command}` asks for a routing run and `{FLAG} none` empties the room; name the "
            f"skills that go in it ({FLAG} a,b, {EVERY} or {CATALOG}) or skip the routing step instead."
        )
    if keyword == EVERY:
        return _non_empty(candidates, repo, allow_none, command)
    if keyword == CATALOG:
        return repo.names if candidates else _non_empty([], repo, allow_none, command)
    if listed:
        return _named(list(listed), candidates, repo, FLAG)
    if skill_filter:
        return _named(list(skill_filter), candidates, repo, "--skill", members=candidates)
    if len(candidates) == 1:
        return list(candidates)
    if allow_none or not candidates:
        return _non_empty([], repo, allow_none, command)
    raise UsageError(
        f"`{command}` needs the skills that go in the room: name them with {FLAG} a,b, {FLAG} {EVERY} "
        f"(every skill with a dataset) or {FLAG} {CATALOG} (every skill under --skills-dir); skills "
        f"with a dataset here: {name_list(candidates)}."
    )


def left_out(room: Sequence[str], repo: Repo) -> list[str]:
    """The catalog's skills that are not in the room."""
    inside = set(room)
    return [name for name in repo.names if name not in inside]


def left_out_note(room: Sequence[str], repo: Repo) -> str:
    """The summary's sentence on the catalog skills outside the room; empty when the room is the catalog."""
    outside = left_out(room, repo)
    if not outside:
        return ""
    shown = ", ".join(outside[:LEFT_OUT_SHOWN])
    more = f" and {len(outside) - LEFT_OUT_SHOWN} more" if len(outside) > LEFT_OUT_SHOWN else ""
    return (
        f"{len(outside)} of the catalog's {len(repo.names)} skill(s) {LEFT_OUT}: "
        f"{shown}{more}; `{FLAG} {CATALOG}` installs every skill under --skills-dir."
    )


def not_in_room(missing: Sequence[str], fix: Callable[[Sequence[str]], str] | None, graded: str) -> str:
    """Why a case needing skills the room lacks (its own, or the `owner` it expects to fire) is not
    graded, and the fix: `fix` names the one flag that puts them in (outsiders.fixer), else the list
    grown. `graded`: what the engine could not do with it ("ranked", "graded")."""
    one = len(missing) == 1
    advice = fix(missing) if fix else f"add {'it' if one else 'them'} to {FLAG}"
    return (
        f"{', '.join(missing)} {'is' if one else 'are'} not in the room, so the case cannot be {graded}; "
        f"{advice}"
    )


def widening(listed: Sequence[str], room: Sequence[str], wanted: Sequence[str]) -> str:
    """The one flag that puts `wanted` (catalog skills outside the room) in it: the list grown by them
    when --routing-room named the skills, else `--routing-room catalog`."""
    if listed and listed[0].lower() not in KEYWORDS:
        return f"{FLAG} {','.join(dict.fromkeys([*room, *wanted]))}"
    return f"{FLAG} {CATALOG}"


def _named(
    names: list[str], candidates: list[str], repo: Repo, flag: str, members: Sequence[str] | None = None
) -> list[str]:
    """`names` checked: each a skill under --skills-dir (`members` narrows who may be named), at least one
    of them with a dataset."""
    keywords = [name for name in names if name.lower() in KEYWORDS]
    if keywords:
        raise UsageError(
            f"{flag}: `{keywords[0]}` stands alone; pass either `{keywords[0]}` or a list of "
            "skill names, not both."
        )
    known = set(repo.names if members is None else members)
    unknown = [name for name in dict.fromkeys(names) if name not in known]
    if unknown:
        which = ", ".join(unknown)
        what = "a skill" if members is None else "a skill with evals/evals.json"
        raise UsageError(
            f"{flag} names {which}, which {'is' if len(unknown) == 1 else 'are'} not {what} under "
            f"--skills-dir {','.join(repo.globs)}; skills with a dataset here: {name_list(candidates)}."
        )
    if not set(names) & set(candidates):
        raise UsageError(
            f"{flag} names only skills without evals/evals.json ({', '.join(dict.fromkeys(names))}): "
            "they are installed, but a room needs a member with a dataset to add a case; add one of "
            f"{name_list(candidates)}."
        )
    return list(dict.fromkeys(names))


def _non_empty(candidates: list[str], repo: Repo, allow_none: bool, command: str) -> list[str]:
    if candidates or allow_none:
        return list(candidates)
    globs = ",".join(repo.globs)
    if repo.names:  # the skills are there (`catalog` would install them all): no case is what is missing
        where = f"save it as {repo.rel(repo.skill_dirs[repo.names[0]])}/evals/evals.json (or any skill's)"
        raise UsageError(
            f"`{command}` has no case to rank: none of the {len(repo.names)} skill(s) under --skills-dir "
            f"{globs} has evals/evals.json; add one: `skillscope template` prints a starting dataset, "
            f"{where}, and fill in its prompts."
        )
    raise UsageError(
        f"`{command}` has no skill to put in the room: no skill under --skills-dir "
        f"{globs} has evals/evals.json; add a dataset (`skillscope template` prints a "
        "starting one) or point --skills-dir at the skills."
    )
