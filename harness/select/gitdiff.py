"""The paths a change touched, asked of git: what `select --since BASE HEAD` plans for."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.errors import HarnessError


@dataclass(frozen=True)
class Diff:
    paths: list[str]
    base: str  # the commit the paths were diffed from: the merge base, or BASE itself without one
    merge_base: bool


def changed_since(root: Path, base: str, head: str) -> Diff:
    """Paths (relative to `root`) changed between the merge base of `base` and `head`, and `head`.

    Two commits with no common history are diffed directly, the only comparison left to make; in a
    shallow clone a missing merge base is the clone's cut, not unrelated histories, and an error.
    """
    inside = _git(root, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0 and "not a git repository" not in inside.stderr:
        # Most often git's safe.directory refusal in a CI container: its own words name the fix.
        raise HarnessError(f"--since: git refuses to read {root}: {_reason(inside.stderr)}.")
    if inside.returncode != 0:
        raise HarnessError(
            f"--since: {root} is not inside a git repository; run select from a clone, or "
            "pipe the changed paths into `select --changed`."
        )
    for ref in (base, head):
        if _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
            raise HarnessError(
                f"--since: '{ref}' is not a commit in {root}; fetch it first (a shallow "
                "clone needs fetch-depth: 0) or check the name."
            )
    found = _git(root, "merge-base", base, head)
    merge_base = found.returncode == 0 and bool(found.stdout.strip())
    if found.returncode not in (0, 1):
        raise HarnessError(f"--since: git merge-base {base} {head} failed: {_tail(found.stderr)}.")
    if not merge_base and _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        # A cut history hides the fork point: the plain diff would plan everything BASE changed since.
        raise HarnessError(
            f"--since: {base} and {head} share no commit in this shallow clone, so where {head} "
            "branched off cannot be told; fetch the whole history (actions/checkout with "
            "fetch-depth: 0, or `git fetch --unshallow`)."
        )
    start = found.stdout.strip() if merge_base else base
    # --no-renames lists a moved file under both names, so the skill it left is planned too.
    diff = _git(root, "diff", "--name-only", "--no-renames", "--relative", "-z", start, head)
    if diff.returncode != 0:
        raise HarnessError(f"--since: git diff {start} {head} failed: {_tail(diff.stderr)}.")
    paths = [path for path in diff.stdout.split("\0") if path]
    return Diff(paths=paths, base=start, merge_base=merge_base)


def text_at(root: Path, commit: str, path: str) -> str | None:
    """The text of root-relative `path` at `commit`, or None when the file was not there."""
    shown = _git(root, "show", f"{commit}:./{path}")
    return shown.stdout if shown.returncode == 0 else None


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *args],
            cwd=root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
    except FileNotFoundError:
        raise HarnessError(
            "--since needs git on PATH; install git, or pipe the changed paths into "
            "`select --changed` instead."
        ) from None
    except OSError as exc:
        raise HarnessError(f"--since could not run git in {root}: {exc.strerror or exc}.") from None


def _tail(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _reason(stderr: str) -> str:
    """git's whole message on one line, without its `fatal:` prefix."""
    text = " ".join(stderr.split()).removeprefix("fatal: ")
    return text.rstrip(".") or "no message"
