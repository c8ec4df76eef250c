"""The repo under test: its root, the skill globs, and the skills they name."""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from harness.errors import HarnessError, UsageError
from harness.files import RealPaths, is_inside, present, rel_to
from harness.model import findings
from harness.model.suite_folders import case_folders


def find_root(explicit: str | None, environ: Mapping[str, str], cwd: Path) -> Path:
    """--repo, else $SKILLSCOPE_REPO, else the nearest ancestor holding .git, else cwd."""
    for source, value in (("--repo", explicit), ("SKILLSCOPE_REPO", environ.get("SKILLSCOPE_REPO"))):
        if value:
            path = (cwd / value).resolve()
            if not path.is_dir():
                raise UsageError(f"{source} is '{value}', which is not a directory.")
            return path
    for candidate in (cwd, *cwd.parents):
        if (candidate / ".git").exists():
            return candidate.resolve()
    return cwd.resolve()


def default_globs(root: Path, cwd: Path) -> list[str]:
    """Every directory in the one the command ran from, written root-relative."""
    try:
        rel = cwd.resolve().relative_to(root)
    except ValueError:
        return ["*"]
    return ["*"] if rel == Path(".") else [f"{rel.as_posix()}/*"]


@dataclass
class Repo:
    """The repo under test: its root, the --skills-dir globs and the skill folders they found."""

    root: Path
    globs: list[str]
    skill_dirs: dict[str, Path] = field(default_factory=dict)
    problems: list[findings.Finding] = field(default_factory=list)
    # Filled only when the globs are the default: globs one level further down that hold skills too.
    elsewhere: dict[str, int] = field(default_factory=dict)

    def rel(self, path: str | os.PathLike[str]) -> str:
        return rel_to(self.root, path)

    @property
    def names(self) -> list[str]:
        return sorted(self.skill_dirs)

    def with_dataset(self) -> list[str]:
        """Skills with a dataset: our evals.json (or skill-creator's, same name), a trigger set, a
        Claude Code plugin eval suite under evals/, or an addyosmani case file at the root's
        evals/cases/<skill>.json."""
        return [
            name
            for name in self.names
            if any(present(self.skill_dirs[name] / "evals" / file) for file in DATASET_FILES)
            or case_folders(self.skill_dirs[name] / "evals")
            or present(self.root / CASE_FILES / f"{name}.json")
        ]

    def where_to_look(self) -> str:
        """The --skills-dir to pass: the folders found holding skills, else an example."""
        if not self.elsewhere:
            return "pass the globs naming your skill folders, such as --skills-dir 'skills/*'"
        counted = ", ".join(f"{glob} holds {n}" for glob, n in self.elsewhere.items())
        return f"{counted}: pass --skills-dir '{','.join(self.elsewhere)}'"

    def missed_note(self) -> str | None:
        """When the default globs found skills but folders further down hold more, which a new user
        running from a catalog's root would otherwise never learn were left ungraded."""
        if not self.elsewhere or not self.skill_dirs:
            return None
        below = sum(self.elsewhere.values())
        return (
            f"note: {len(self.skill_dirs)} skill(s) found in the folders here (--skills-dir defaults to "
            f"{', '.join(self.globs)}); the {below} one level down are not graded ({self.where_to_look()}), "
            "or run `skillscope init` to write it to skillscope.toml."
        )


def skills_below(root: Path, globs: list[str]) -> dict[str, int]:
    """Globs one level below `globs` whose folders hold SKILL.md files, with how many: `skills/*` for a
    catalog run from its root. Discovery never recurses, so these are what the default would miss."""
    below: dict[str, int] = {}
    for pattern in globs:
        for folder in sorted(root.glob(pattern.rstrip("/") or ".")):
            if folder.name.startswith(".") or folder.name in VENDORED or not folder.is_dir():
                continue
            if present(folder / "SKILL.md"):
                continue  # a skill's own subfolders are its resources, not more skills
            held = sum(
                1
                for child in folder.iterdir()
                if not child.name.startswith(".") and present(child / "SKILL.md")
            )
            if held:
                below[f"{rel_to(root, folder)}/*"] = held
    return dict(sorted(below.items(), key=lambda item: -item[1]))


# The files a skill's cases are read from (skill-creator's trigger set is read in place too).
DATASET_FILES = ("evals.json", "eval_set.json")
CASE_FILES = Path("evals") / "cases"  # addyosmani's, one per skill, read in place
# Folders of other tools' installs, never a catalog's own skills.
VENDORED = frozenset({"node_modules", "venv", ".venv", "__pycache__"})


def discover(root: Path, globs: list[str]) -> Repo:
    """Directories one level down each glob that hold a SKILL.md; never recurses further."""
    repo = Repo(root=root, globs=globs)
    realpath = RealPaths()
    for pattern in globs:
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise UsageError(f"--skills-dir: '{pattern}' must be a glob relative to the repo root.")
        if "**" in pattern:  # pathlib would recurse into every folder, vendored copies included
            raise UsageError(
                f"--skills-dir: '{pattern}' uses `**`, which searches every level; skills are found "
                "one level down a glob, so name their parent, such as 'skills/*'."
            )
        refuse_unlistable(root, pattern)
        for path in sorted(root.glob(pattern.rstrip("/") or ".")):
            if path.name.startswith(".") or not path.is_dir() or not present(path / "SKILL.md"):
                continue
            _add(repo, path, realpath)
    return repo


def refuse_unlistable(root: Path, pattern: str) -> None:
    """pathlib's glob passes over a folder it may not list as if it were empty, and the run would then
    say "no skill found"; the folder a glob lists is named instead, with the reason."""
    parts = Path(pattern).parts
    literal = list(itertools.takewhile(lambda part: not any(c in part for c in "*?["), parts))
    folder = root.joinpath(*literal[: len(parts) - 1])  # the folder the glob's first pattern lists
    try:
        os.listdir(folder)
    except PermissionError:
        raise HarnessError(
            f"--skills-dir {pattern}: {folder} cannot be listed (permission denied); give the user running "
            "skillscope read access to it."
        ) from None
    except OSError:
        pass  # missing or not a folder: the glob matches nothing, and no-skill says so


def _add(repo: Repo, path: Path, realpath: RealPaths) -> None:
    rel = repo.rel(path)
    if not is_inside(path, repo.root, realpath):
        repo.problems.append(
            findings.error(
                "skill-outside-repo",
                rel,
                "this skill directory is a symlink leading outside the repository; "
                "copy the skill into the repo instead of linking to it.",
            )
        )
        return
    if not is_inside(path / "SKILL.md", repo.root, realpath):
        repo.problems.append(
            findings.error(
                "skill-outside-repo",
                f"{rel}/SKILL.md",
                "SKILL.md is a symlink leading outside the repository, which an installed skill cannot "
                "follow; copy the file into the skill folder instead of linking to it.",
            )
        )
        return
    known = repo.skill_dirs.get(path.name)
    if known is not None and known.resolve() != path.resolve():
        raise UsageError(
            f"two skills are both named '{path.name}' ({repo.rel(known)} and {rel}); a skill's "
            "directory name is its identity, so narrow --skills-dir or rename one."
        )
    repo.skill_dirs[path.name] = path
