"""Builders for the select tests: skill folders shaped for planning, in-process runs, real git repos."""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness import schemas
from harness.cli import main
from harness.context import Context

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def dataset(name: str, behavior: bool = True, pin: str | None = None) -> dict:
    """Three positives and two near misses; the first positive asserts behavior unless told not to."""
    cases: list[dict] = [
        {"id": f"{name}-{i}", "skill_should_trigger": True, "prompt": f"Do {name} {i}."} for i in range(3)
    ]
    if behavior:
        cases[0]["expected_behavior"] = ["Does the job"]
    cases += [
        {"id": f"{name}-no-{i}", "skill_should_trigger": False, "prompt": f"Not {name} {i}."}
        for i in range(2)
    ]
    data: dict = {"evaluations": cases}
    if pin is not None:
        data["skillscope_version"] = pin
    return data


def skill(
    root: Path,
    rel: str,
    *,
    behavior: bool = True,
    evals: dict | str | None | bool = True,
    extended: dict | None = None,
    machine: str | None = None,
    pin: str | None = None,
    files: Mapping[str, str] | None = None,
) -> Path:
    """A skill folder at `root/rel`; `evals=None` leaves the dataset out, a string is written verbatim."""
    folder = root / rel
    name = folder.name
    front = f"---\nname: {name}\ndescription: Does {name}. Use for {name}.\n---\n"
    write(folder / "SKILL.md", f"{front}# {name}\n")
    if evals is True:
        evals = dataset(name, behavior=behavior, pin=pin)
    if evals is not None:
        write(folder / "evals" / "evals.json", evals if isinstance(evals, str) else json.dumps(evals))
    if extended is not None:
        write(folder / "evals" / "extended_evals.json", json.dumps(extended))
    if machine is not None:
        write(folder / "evals" / "machine.yml", machine)
    for path, text in (files or {}).items():
        write(folder / path, text)
    return folder


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    @property
    def plan(self) -> dict:
        lines = self.stdout.splitlines()
        assert len(lines) == 1, f"expected one line of JSON, got {self.stdout!r} (stderr {self.stderr!r})"
        data = json.loads(lines[0])
        assert_valid_plan(data)
        return data


def select(
    root: Path, *args: str, stdin: str = "", environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Run:
    """`skillscope select` in-process against the repo at `root`."""
    ctx = Context(
        environ=dict(environ or {}),
        cwd=cwd or root,
        stdin=io.StringIO(stdin),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    code = main(["select", "--repo", str(root), *args], ctx)
    return Run(code=code, stdout=ctx.stdout.getvalue(), stderr=ctx.stderr.getvalue())


ENVELOPE = ("command", "harness_version", "repo", "started_at", "elapsed_s", "passed", "status", "counts")


def without_envelope(data: dict) -> dict:
    """The plan's own keys: what the workflows read, free of the run's time and place."""
    return {key: value for key, value in data.items() if key not in ENVELOPE}


def assert_valid_plan(data: dict) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in schemas.validator("plan").iter_errors(data)]
    assert not errors, errors


def legs(plan: dict, key: str = "default") -> list[tuple]:
    """(skill, os, runner labels, gate) per leg, for compact assertions."""
    return [(leg["skill"], leg["os"], json.loads(leg["runner"]), leg["gate"]) for leg in plan[key]]


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, env={**os.environ, **GIT_ENV}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def init_repo(root: Path, branch: str = "main") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", branch)
    return root


def commit(
    root: Path, message: str, files: Mapping[str, str] | None = None, remove: Sequence[str] = ()
) -> str:
    for rel, text in (files or {}).items():
        write(root / rel, text)
    for rel in remove:
        git(root, "rm", "-q", "-r", rel)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")
