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
    root: Path
    globs: list[str]
    skill_dirs: dict[str, Path] = field(default_factory=dict)
    problems: list[findings.Finding] = field(default_factory=list)

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


# The files a skill's cases are read from (skill-creator's trigger set is read in place too).
DATASET_FILES = ("evals.json", "eval_set.json")
CASE_FILES = Path("evals") / "cases"  # addyosmani's, one per skill, read in place


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
