"""Which skills a change selects, and whether it can move a routing decision."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from harness.errors import UsageError
from harness.files import present
from harness.model import dataset
from harness.model.repo import CASE_FILES, Repo
from harness.printable import name_list
from harness.routing.room import CATALOG, EVERY
from harness.select.policy import CASE_FILE, EXTENDED_ROUTING_INPUT, ROUTING_INPUTS, PlanOptions


@dataclass(frozen=True)
class Selection:
    skills: list[str]  # in plan order
    routing: bool  # the change can move a routing decision and the room is non-empty
    unknown: list[str] = field(default_factory=list)  # changed paths under skills that no longer exist
    infra: list[str] = field(default_factory=list)  # changed infra paths, which planned every skill


def normalise_paths(lines: Iterable[str]) -> list[str]:
    """Changed paths as git prints them, whatever the shell did to them: posix separators, no blanks,
    `.` and `..` parts resolved (`skills/a/../b/SKILL.md` is b's file, as git would name it)."""
    paths = []
    for line in lines:
        path = line.strip().replace("\\", "/")
        if path:
            paths.append(posixpath.normpath(path))
    return list(dict.fromkeys(paths))


class Ownership:
    """Which skill owns a root-relative path: the skill whose directory prefixes it (the deepest one)."""

    def __init__(self, repo: Repo):
        self._root = repo.root
        self._dirs = {repo.rel(path): name for name, path in repo.skill_dirs.items()}
        self._root_skill = self._dirs.pop(".", None)
        # Look up only the prefix lengths a skill directory has, deepest first: a dict hit per length
        # keeps a 10,000-path change linear instead of scanning every skill for every path.
        self._depths = sorted({rel.count("/") + 1 for rel in self._dirs}, reverse=True)
        # addyosmani's case files lie outside the skills, at the root: each is its skill's dataset.
        self._case_files = {(CASE_FILES / f"{name}.json").as_posix(): name for name in repo.skill_dirs}
        segments = (tuple(part for part in glob.split("/") if part not in ("", ".")) for glob in repo.globs)
        self._globs = [glob for glob in segments if glob]
        self._gone: dict[str, bool] = {}
        self._repo = repo
        self._fixtures: dict[str, set[str]] | None = None  # read when a changed path is a fixture

    def fixture_users(self, path: str) -> list[str]:
        """The skills whose addyosmani case file names `path` (or a folder holding it) as an input file
        of a behavioral case: those files lie at the root's evals/fixtures/, outside every skill."""
        from harness.model import addyosmani_cases  # its reader only for a change touching a fixture

        prefix = addyosmani_cases.FIXTURES.as_posix() + "/"
        if not path.startswith(prefix):
            return []
        if self._fixtures is None:
            self._fixtures = self.read_fixtures()
        inner = path[len(prefix) :]
        return sorted(
            name
            for name, files in self._fixtures.items()
            if any(inner == file or inner.startswith(file + "/") for file in files)
        )

    def read_fixtures(self) -> dict[str, set[str]]:
        """Each skill read from a case file, with the fixture paths its cases copy into the workspace,
        read by the reader `behavioral` uses, so a plan leaves out no leg that command would run."""
        from harness.model import addyosmani_cases, catalog

        root = self._repo.root
        names = [name for name in self._case_files.values() if present(root / CASE_FILES / f"{name}.json")]
        loaded = catalog.load(self._repo, names, catalog.Negatives(builtin=False))
        fixtures = root / addyosmani_cases.FIXTURES
        return {
            name: {
                posixpath.normpath(file.replace("\\", "/"))
                for data in loaded.datasets.get(name, [])
                for case in data.cases
                if case.files_root == fixtures
                for file in case.files
            }
            for name in names
        }

    def owner(self, path: str) -> tuple[str | None, str]:
        """(skill, path relative to the skill's directory), or (None, path) when no skill owns it; a
        root case file evals/cases/<skill>.json is its skill's, as CASE_FILE."""
        parts = path.split("/")
        for depth in self._depths:
            if len(parts) >= depth:
                name = self._dirs.get("/".join(parts[:depth]))
                if name is not None:
                    return name, "/".join(parts[depth:])
        if path in self._case_files:
            return self._case_files[path], CASE_FILE
        return self._root_skill, path

    def removed_case_file(self, path: str) -> bool:
        """`path` is a root case file evals/cases/<name>.json that is gone, of no skill the repo holds now:
        the dataset of a removed skill (a present skill's case file is owned, see `owner`; one of no
        skill still on disk is nobody's)."""
        folder, _, name = path.rpartition("/")
        if folder != CASE_FILES.as_posix() or not name.endswith(".json") or path in self._case_files:
            return False
        return not (self._root / path).exists()

    def deleted_skill_folder(self, path: str) -> str | None:
        """The folder `path` lies in when it is a directory the skill globs name that holds no skill any
        more, else None.

        That is a directory that is gone, or one whose SKILL.md this very change touched; a directory
        that never had a SKILL.md is not a skill and is passed over, as everywhere else.
        """
        parts = path.split("/")
        for glob in self._globs:
            if len(parts) <= len(glob) or not _segments_match(parts[: len(glob)], glob):
                continue
            folder = "/".join(parts[: len(glob)])
            if parts[len(glob) - 1].startswith("."):
                continue
            if folder not in self._gone:
                self._gone[folder] = not (self._root / folder).is_dir()
            if self._gone[folder] or parts[len(glob) :] == ["SKILL.md"]:
                return folder
        return None


def _segments_match(parts: Sequence[str], glob: Sequence[str]) -> bool:
    return all(fnmatch.fnmatchcase(part, pattern) for part, pattern in zip(parts, glob, strict=True))


class InfraPaths:
    """--infra-paths: fnmatch globs over root-relative paths; a glob naming a directory covers its files."""

    def __init__(self, patterns: Iterable[str]):
        cleaned = [p.strip().replace("\\", "/").removeprefix("./").rstrip("/") for p in patterns]
        cleaned = [p for p in cleaned if p]
        self._regex = re.compile("|".join(fnmatch.translate(p) for p in cleaned)) if cleaned else None

    def touched(self, path: str) -> bool:
        if self._regex is None:
            return False
        candidate = path
        while True:
            if self._regex.match(candidate):
                return True
            cut = candidate.rfind("/")
            if cut <= 0:
                return False
            candidate = candidate[:cut]


def select_changed(
    paths: Sequence[str],
    repo: Repo,
    room: Sequence[str],
    options: PlanOptions,
    room_listed: Sequence[str] = (),
) -> Selection:
    """The owners of the changed paths, or every skill with a dataset when an infra path (--infra-paths,
    or one of the repo's settings files) changed.

    Routing runs only when a room member's SKILL.md or dataset changed, a skill the room held was
    removed, or the repo's shared negatives (or infra) changed: a reference file or a script changes
    what the skill does once it fires, not whether it fires. `room_listed` is --routing-room as given,
    which says whether a removed skill was in the room (`all` or `catalog` held it).
    """
    ownership = Ownership(repo)
    infra = InfraPaths([*options.infra_paths, *options.settings_files])
    room_members = set(room)
    routing_inputs = set(ROUTING_INPUTS) | ({EXTENDED_ROUTING_INPUT} if options.extended else set())
    # What a removed skill's routing inputs say of the room it left: `all` held it if it had a
    # dataset, `catalog` held it anyway; a room of names cannot name it once it is gone.
    keyword = room_listed[0].lower() if len(room_listed) == 1 else ""
    held_when_gone = {EVERY: routing_inputs - {"SKILL.md"}, CATALOG: routing_inputs}.get(keyword, set())
    negatives = set(normalise_paths(options.negatives))
    owners: dict[str, None] = {}
    unknown: list[str] = []
    infra_touched: list[str] = []
    routing_touched = False
    for path in paths:
        if infra.touched(path):
            infra_touched.append(path)
        routing_touched = routing_touched or path in negatives  # pooled with every room's cases
        name, inner = ownership.owner(path)
        if name is None:
            users = ownership.fixture_users(path)  # an input file of behavioral cases only: no routing
            owners.update(dict.fromkeys(users))
            folder = None if users else ownership.deleted_skill_folder(path)
            if folder is not None:
                unknown.append(path)
                routing_touched = routing_touched or path[len(folder) + 1 :] in held_when_gone
            elif not users and ownership.removed_case_file(path):  # a removed skill's dataset, at the root
                unknown.append(path)
                routing_touched = routing_touched or CASE_FILE in held_when_gone
            continue
        owners[name] = None
        routing_touched = routing_touched or (name in room_members and inner in routing_inputs)
    if infra_touched:
        return Selection(
            skills=repo.with_dataset(), routing=bool(room), unknown=sorted(unknown), infra=infra_touched
        )
    return Selection(skills=sorted(owners), routing=bool(room) and routing_touched, unknown=sorted(unknown))


def routes_with_every_dataset(
    selection: Selection, paths: Sequence[str] | None, repo: Repo, options: PlanOptions
) -> bool:
    """Whether a room of every skill with a dataset would route this change: the changed `paths` moving
    a routing decision, or (None) any skill named; with no room named the plan routes none."""
    if paths is None:
        return bool(selection.skills)
    return select_changed(paths, repo, repo.with_dataset(), options, [EVERY]).routing


def select_all(repo: Repo, room: Sequence[str]) -> Selection:
    return Selection(skills=repo.with_dataset(), routing=bool(room))


def select_names(names: Sequence[str], repo: Repo, room: Sequence[str], flag: str = "--names") -> Selection:
    """The named skills in listed order; a name that is not a skill with a dataset is an error."""
    with_dataset = set(repo.with_dataset())
    missing = [name for name in dict.fromkeys(names) if name not in with_dataset]
    if missing:
        absent = [name for name in missing if name not in repo.skill_dirs]
        bare = [name for name in missing if name in repo.skill_dirs]
        parts = []
        if absent:
            parts.append(f"no skill named {', '.join(absent)} under --skills-dir {','.join(repo.globs)}")
        if bare:
            parts.append(f"no eval dataset for {', '.join(bare)} (expected <skill>/evals/{dataset.EVALS})")
        raise UsageError(
            f"{flag}: {'; '.join(parts)}; skills with a dataset here: {name_list(repo.with_dataset())}."
        )
    return Selection(skills=list(dict.fromkeys(names)), routing=bool(room))
