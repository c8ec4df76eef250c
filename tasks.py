"""Shortcuts for skill authors: `inv --list` shows them, `inv --help <task>` their flags.

Each task is a thin wrapper over `skillscope`, run in the directory you call it from.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from invoke import task

# The console script when it is on PATH, else the harness installed beside invoke.
SKILLSCOPE = shutil.which("skillscope") or f"{shlex.quote(sys.executable)} -m harness"
NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

SKILL_MD = """---
name: {name}
description: Say what this skill does and when to use it, in the words a user would type.
---

# {title}

Write the instructions an agent should follow once this skill is chosen.
"""


@task(help={"name": "the skill's folder and frontmatter name (lowercase-with-hyphens)",
            "dir": "where to create it (default: the current directory)"})
def new_skill(c, name, dir="."):
    """Scaffold NAME/SKILL.md and NAME/evals/evals.json from the dataset template."""
    if not NAME.match(name):
        raise SystemExit(f"error: '{name}' is not lowercase-with-hyphens; try '{_slug(name)}'.")
    folder = Path(dir) / name
    if folder.exists():
        raise SystemExit(f"error: {folder} already exists; pick another name or delete it first.")
    template = json.loads(subprocess.run([*shlex.split(SKILLSCOPE), "template"], check=True, capture_output=True,
                                         text=True).stdout)
    for case in template["evaluations"]:
        case["id"] = case["id"].replace("my-skill", name, 1)
    (folder / "evals").mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL_MD.format(name=name, title=name.replace("-", " ").capitalize()))
    (folder / "evals" / "evals.json").write_text(json.dumps(template, indent=2) + "\n")
    print(f"created {folder}/SKILL.md and {folder}/evals/evals.json; now replace the placeholder prompts.")
    with c.cd(dir):
        c.run(f"{SKILLSCOPE} structural", warn=True)


@task(help={"external": "also fetch external URLs"})
def check(c, external=False):
    """Fast offline checks: structural (format, datasets, internal links) and references."""
    c.run(f"{SKILLSCOPE} structural")
    c.run(f"{SKILLSCOPE} refs" + ("" if external else " --no-external"))


@task(help={"args": "extra pytest arguments"})
def test(c, args=""):
    """This repo's test suite (real claude CLI against the scripted local API)."""
    c.run(f"nox -s tests -- {args}" if args else "nox -s tests", pty=False)


@task
def lint(c):
    """ruff, actionlint and the GitHub workflow schemas."""
    c.run("nox -s lint")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "my-skill"
