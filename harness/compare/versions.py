"""The two versions compared: a skill at a git ref, in a folder, or not installed at all.

A git ref is read with `git archive` into a temp dir: the working tree, its index and its stash are
never touched, so comparing against `origin/main` is safe in the middle of an edit.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from harness.errors import HarnessError, UsageError
from harness.model.dataset import Case
from harness.model.repo import Repo

NONE = "none"
WORKING_TREE = "working tree"


@contextmanager
def materialised(
    spec: str | None, skill_dir: Path, cwd: Path, flag: str, environ: Mapping[str, str]
) -> Iterator[Path | None]:
    """The skill folder `spec` names for the skill at `skill_dir`: None for `none`, the working tree
    for a blank spec, a folder as given, else the skill as of git ref `spec` (removed on exit)."""
    if spec is None:
        yield skill_dir
        return
    if spec == NONE:
        yield None
        return
    folder = cwd / spec
    if folder.is_dir():
        if not (folder / "SKILL.md").is_file():
            raise UsageError(f"{flag} {spec}: the folder has no SKILL.md; give the skill's own folder.")
        yield folder
        return
    temp = Path(tempfile.mkdtemp(prefix="skillscope-compare-"))
    try:
        yield extract(spec, skill_dir, temp, Git(flag, spec, environ))
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def extract(ref: str, skill_dir: Path, into: Path, git: Git) -> Path:
    """The skill's folder as of `ref`, written under `into` from `git archive`."""
    top = git.run(skill_dir, "rev-parse", "--show-toplevel").decode().strip()
    prefix = git.run(skill_dir, "rev-parse", "--show-prefix").decode().strip()
    git.run(skill_dir, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    archive = git.run(Path(top), "archive", "--format=tar", ref, "--", prefix or ".")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:  # Python before 3.10.12 and 3.11.4 has no extraction filters
            tar.extractall(into, members=[m for m in tar.getmembers() if stays_in(m, into)])
    found = into / prefix
    if not (found / "SKILL.md").is_file():
        raise HarnessError(
            f"{git.flag} {ref}: the skill {skill_dir.name} has no SKILL.md at that ref; use --baseline none "
            "to compare with the skill not installed."
        )
    return found


def stays_in(member: tarfile.TarInfo, into: Path) -> bool:
    """Whether `member` is a folder, a file or a link that extracting writes and points under `into`
    (what the "data" filter lets through, for a Python without it)."""
    root = into.resolve()
    target = (root / member.name).resolve()
    if not target.is_relative_to(root):
        return False
    if member.issym():
        return (target.parent / member.linkname).resolve().is_relative_to(root)
    if member.islnk():
        return (root / member.linkname).resolve().is_relative_to(root)
    return member.isfile() or member.isdir()


@dataclass(frozen=True)
class Git:
    """git run for one flag's ref: its failures name the flag and the ref."""

    flag: str
    ref: str
    environ: Mapping[str, str]

    def run(self, where: Path, *args: str) -> bytes:
        try:
            done = subprocess.run(
                ["git", *args], cwd=where, env=dict(self.environ), capture_output=True, check=False
            )
        except OSError as exc:
            raise HarnessError(
                f"{self.flag} {self.ref}: cannot run git ({exc.strerror or exc}); install git."
            ) from None
        if done.returncode != 0:
            detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise UsageError(
                f"{self.flag} {self.ref}: not a folder and not a git ref of the repo at {where} "
                f"({detail[-1] if detail else 'git failed'}); give a folder, a ref such as origin/main, "
                "or none."
            )
        return done.stdout


def at_home(cases: list[Case], repo: Repo, candidate: Mapping[str, Path | None]) -> list[Case]:
    """Cases read from a candidate outside the working tree (a ref, a folder), located at the working
    tree's dataset instead, where annotations and readers look for them."""
    moved = {
        repo.rel(path) + "/": repo.rel(repo.skill_dirs[name]) + "/"
        for name, path in candidate.items()
        if path is not None and path != repo.skill_dirs[name]
    }
    out = []
    for case in cases:
        there = next((prefix for prefix in moved if case.source.startswith(prefix)), None)
        out.append(case if there is None else replace(case, source=moved[there] + case.source[len(there) :]))
    return out
