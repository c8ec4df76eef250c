"""Fresh temp workspaces with skills installed as real project skills."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from harness.files import UnreadableFile, opened

SKILLS_SUBDIR = Path(".claude") / "skills"
AGENTS_SKILLS_SUBDIR = Path(".agents") / "skills"  # where Copilot, Codex, Gemini and OpenCode all look
# Agent CLIs also load project skills from a workspace's ancestors: none may hold either folder.
SKILL_FOLDERS = (SKILLS_SUBDIR, AGENTS_SKILLS_SUBDIR)
ANSWER_KEY_DIR = "evals"  # a skill's dataset: the agent must never see it
ANSWER_KEY_FILES = ("evals.json", "extended_evals.json")  # never copied from a fixture either
_FALLBACK_TEMP_PARENTS = ("/var/tmp", "/dev/shm")


class WorkspaceError(Exception):
    """The workspace cannot be isolated (a message naming the fix)."""


def skills_ancestor(path: Path) -> Path | None:
    """The nearest directory at or above `path` holding `.claude/skills` or `.agents/skills`.

    Agent CLIs load project skills from the ancestors of their cwd, so such a
    directory would add skills to the room.
    """
    for directory in (path, *path.parents):
        if any((directory / folder).is_dir() for folder in SKILL_FOLDERS):
            return directory
    return None


def clean_temp_parent(parent: Path | None = None) -> Path:
    """A directory for temp workspaces with no `.claude/skills` above it."""
    if parent is not None:
        parent = Path(parent).resolve()
        leak = skills_ancestor(parent)
        if leak is not None:
            folder = next(leak / f for f in SKILL_FOLDERS if (leak / f).is_dir())
            raise WorkspaceError(
                f"{folder} would leak skills into every run under {parent}: "
                "choose a temp directory with no .claude/skills or .agents/skills above it"
            )
        return parent
    candidates = [Path(tempfile.gettempdir()), *map(Path, _FALLBACK_TEMP_PARENTS)]
    for candidate in candidates:
        resolved = candidate.resolve()
        if resolved.is_dir() and os.access(resolved, os.W_OK) and skills_ancestor(resolved) is None:
            return resolved
    raise WorkspaceError(
        "every temp directory has a .claude/skills or .agents/skills above it, which would leak skills into "
        "the run: set TMPDIR to a clean directory"
    )


def installed_skills(workspace: Path, skills_subdir: Path = SKILLS_SUBDIR) -> dict[str, Path]:
    """Skill id -> directory, for every `<workspace>/<skills_subdir>/<id>/SKILL.md`."""
    root = Path(workspace) / skills_subdir
    if not root.is_dir():
        return {}
    return {d.name: d for d in sorted(root.iterdir()) if (d / "SKILL.md").is_file()}


@contextlib.contextmanager
def stage_workspace(
    skills: Mapping[str, Path],
    parent: Path | None = None,
    fixture: Path | None = None,
    skills_subdir: Path = SKILLS_SUBDIR,
) -> Iterator[Path]:
    """Yield a fresh workspace with each skill at `<skills_subdir>/<name>/` (claude's
    `.claude/skills` unless a runtime reads another folder); always removed.

    Skills are copied without their `evals/` folder, and symlinks never lead
    out of the skill. `fixture`'s contents, if given, land in the workspace root.
    """
    workspace = Path(tempfile.mkdtemp(prefix="skillscope-ws-", dir=clean_temp_parent(parent)))
    try:
        for name, source in skills.items():
            source = Path(source)
            if not (source / "SKILL.md").is_file():
                raise WorkspaceError(f"cannot install skill {name!r}: {source}/SKILL.md not found")
            copy_tree(source, workspace / skills_subdir / name, skip_top=(ANSWER_KEY_DIR,))
        if fixture is not None:
            if not Path(fixture).is_dir():
                raise WorkspaceError(f"workspace fixture directory not found: {fixture}")
            copy_tree(Path(fixture), workspace, skip_names=ANSWER_KEY_FILES)
        yield workspace
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def copy_tree(
    source: Path,
    target: Path,
    skip_top: tuple[str, ...] = (),
    skip_names: tuple[str, ...] = (),
    within: Path | None = None,
) -> None:
    """Copy `source` into `target`, keeping symlinks that stay inside `source`.

    A link pointing inside is re-created relative (so it points into the copy);
    a link pointing outside, or into a skipped top-level folder, is left out.
    With `within` (a case's input folder, copied because the case named it), nothing is left out:
    a link to a file elsewhere under `within` is copied as that file, and any other link that leaves
    `source` is refused (WorkspaceError).
    """
    root = source.resolve()
    skipped = [root / name for name in skip_top]
    target.mkdir(parents=True, exist_ok=True)
    for current, dirs, files in os.walk(root):
        here = Path(current)
        rel = here.relative_to(root)
        if here == root:
            dirs[:] = [d for d in dirs if d not in skip_top]
        for name in list(dirs):
            if (here / name).is_symlink():
                dirs.remove(name)  # os.walk does not follow it; handle it as a link
                if within is not None and not _inside(here / name, root):
                    raise WorkspaceError(_leaves(here / name, root, source.name))
                _copy_link(here / name, target / rel / name, root, skipped)
            else:
                (target / rel / name).mkdir(exist_ok=True)
        for name in files:
            if name in skip_names:
                continue
            path = here / name
            if path.is_symlink():
                if within is None or _inside(path, root):
                    _copy_link(path, target / rel / name, root, skipped)
                    continue
                if not _inside(path, within.resolve()):
                    raise WorkspaceError(_leaves(path, root, source.name))
            try:  # read through the one reader: a pipe or device is refused, not waited on or read forever
                with opened(path) as original:
                    info = os.fstat(original.fileno())
                    with open(target / rel / name, "wb") as copy:
                        shutil.copyfileobj(original, copy)
            except UnreadableFile as exc:
                raise WorkspaceError(
                    f"{path} cannot be copied into the workspace: {exc.reason}; a skill or fixture "
                    "folder may hold only plain files, folders and links"
                ) from None
            os.chmod(target / rel / name, stat.S_IMODE(info.st_mode))
            os.utime(target / rel / name, ns=(info.st_atime_ns, info.st_mtime_ns))


def _inside(link: Path, root: Path) -> bool:
    resolved = link.resolve()
    return resolved == root or root in resolved.parents


def _leaves(link: Path, root: Path, name: str) -> str:
    rel = f"{name}/{link.relative_to(root).as_posix()}"
    return (
        f"{rel} is a link leading out of {name}/; replace it with what it points at, or name that in `files`"
    )


def _copy_link(link: Path, dest: Path, root: Path, skipped: list[Path]) -> None:
    resolved = link.resolve()
    inside = resolved == root or root in resolved.parents
    if not inside or any(resolved == s or s in resolved.parents for s in skipped):
        return
    os.symlink(os.path.relpath(resolved, link.parent.resolve()), dest)
