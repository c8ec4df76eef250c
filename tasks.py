"""Shortcuts for skill authors: `inv --list` shows them, `inv --help <task>` their flags.

Each task is a thin wrapper over `skillscope`, run in the directory you call it from. A task's option
has the name of the command's flag it passes on, so the command's errors name the option the task takes.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from invoke import task

# The console script when it is on PATH, else the harness installed beside invoke.
SKILLSCOPE = shutil.which("skillscope") or f"{shlex.quote(sys.executable)} -m harness"
# `test` and `lint` serve skillscope's own checkout, wherever they are called from (a skills repo has
# no noxfile of its own).
NOX = f"nox -f {shlex.quote(str(Path(__file__).resolve().with_name('noxfile.py')))}"


@task(
    help={
        "name": "the skill's folder and frontmatter name (lowercase-with-hyphens)",
        "dir": "where to create it (default: the folder the skills-dir setting names, as `skillscope new`)",
    }
)
def new_skill(c, name, dir=""):
    """Scaffold NAME/SKILL.md and NAME/evals/evals.json from the dataset template (`skillscope new`)."""
    # No --dir of its own: `new` puts the skill where the repo's settings look for skills.
    c.run(_command("new", {"--dir": dir}, name))
    with c.cd(dir or "."):  # without settings, structural's default skills are the folders where it runs
        c.run(f"{SKILLSCOPE} structural", warn=True)


@task(help={"external": "also fetch external URLs"})
def check(c, external=False):
    """Fast offline checks: structural (format, datasets, internal links) and references."""
    structural = c.run(f"{SKILLSCOPE} structural", warn=True)
    refs = c.run(f"{SKILLSCOPE} refs" + ("" if external else " --no-external"), warn=True)
    failed = next((run for run in (structural, refs) if not run.ok), None)
    if failed is not None:  # both ran, so one pass shows every finding; the task still fails
        raise SystemExit(failed.exited)


@task(
    help={
        "routing_room": "skills installed side by side: a,b or all (blank: the only skill)",
        "only": "case ids or skill names",
        "keep_logs": "keep each case's transcript here",
    }
)
def route(c, routing_room="", only="", keep_logs=""):
    """Routing: does each prompt fire the right skill, with the room installed side by side?"""
    c.run(_command("routing", {"--routing-room": routing_room, "--only": only, "--keep-logs": keep_logs}))


@task(
    help={
        "skill": "the skill whose cases run",
        "only": "one case id (or several, comma-separated)",
        "keep_logs": "keep each case's trace and judge exchange here",
    }
)
def behave(c, skill="", only="", keep_logs=""):
    """Behavioral: run cases end to end and grade what the agent did."""
    c.run(_command("behavioral", {"--skill": skill, "--only": only, "--keep-logs": keep_logs}))


@task(
    help={
        "skill": "the skills whose two versions are compared",
        "baseline": "a git ref, the skill's folder, or none (default: HEAD)",
        "mode": "routing, behavioral or both (default: both when a case carries an expectation)",
        "repeat": "runs of each case on each side (default: 3)",
        "reports": "two report files 'OLD NEW' to compare offline instead",
    }
)
def compare(c, skill="", baseline="", mode="", repeat="", reports=""):
    """Compare: did my edit make the skill better or worse? Regressions and improvements, case by case."""
    if reports:
        c.run(_command("compare", {}, "--reports", *shlex.split(reports)))
        return
    c.run(_command("compare", {"--skill": skill, "--baseline": baseline, "--mode": mode, "--repeat": repeat}))


@task(
    help={
        "skill": "also run without this skill, side by side",
        "room": "skills installed for the run: a,b",
        "repeat": "runs of each side (default: 1)",
    }
)
def cost(c, prompt, skill="", room="", repeat=""):
    """Cost: run one prompt to completion and measure time, turns, tokens and dollars."""
    c.run(_command("cost", {"--skill": skill, "--room": room, "--repeat": repeat}, prompt))


@task(
    help={
        "logs": "the folder a route, behave, compare or cost run kept with --keep-logs, or its JSON report",
        "case": "case ids whose transcripts to print, comma-separated (default: a table of every log)",
        "full": "print tool answers and messages whole",
    }
)
def show(c, logs, case="", full=False):
    """Show: read what the agent did in a run kept with --keep-logs, call by call."""
    c.run(
        _command("show", {}, logs, *(word for word in case.split(",") if word)) + (" --full" if full else "")
    )


@task(help={"since": "the branch or commit the change is measured from (default: main, else master)"})
def plan(c, since=""):
    """The CI plan for your branch: `select --since BASE HEAD`, the plan CI would make of it."""
    base = since or _default_branch(c)
    # select asks git itself, so a missing base, a shallow clone or a folder outside git is its clear
    # error (stderr shown, exit code kept), not a git failure dumped by invoke.
    result = c.run(f"{SKILLSCOPE} select --since {shlex.quote(base)} HEAD", hide="out", warn=True)
    if not result.ok:
        raise SystemExit(result.exited)
    plan = json.loads(result.stdout.strip().splitlines()[-1])
    listed = result.stderr.split("Changed files:", 1)[-1].splitlines()
    changed = [line for line in listed if line.startswith("  ") and line.strip() != "(none)"]
    print(result.stdout.strip())
    print(f"\nchanged since {base}: {len(changed)} path(s)")
    print(f"routing: {'yes' if plan['routing'] else 'no'}")
    for leg in plan["default"] + plan["scoped"]:
        where = f" (environment {leg['environment']})" if leg.get("environment") else ""
        print(f"behavioral: {leg['skill']} on {leg['os']} -> {', '.join(json.loads(leg['runner']))}{where}")
    for leg in plan["skipped"]:
        print(f"skipped: {leg['skill']} on {leg['os']} until the PR has label {leg['gate']}")
    for name in plan["no_behavior"]:
        print(f"no behavioral case: {name}")
    for path in plan["unknown"]:
        print(f"not planned: {path} (its skill is gone)")


@task(help={"args": "extra pytest arguments"})
def test(c, args=""):
    """skillscope's own test suite (real claude CLI against the scripted local API)."""
    c.run(f"{NOX} -s tests -- {args}" if args else f"{NOX} -s tests", pty=False)


@task
def lint(c):
    """skillscope's own lint: ruff, mypy, actionlint and the GitHub workflow schemas."""
    c.run(f"{NOX} -s lint")


def _command(name: str, flags: dict[str, str], *words: str) -> str:
    """`skillscope NAME WORDS... --flag value...`, leaving out the flags left blank."""
    given = [shlex.quote(word) for word in words]
    given += [f"{flag} {shlex.quote(value)}" for flag, value in flags.items() if value]
    return " ".join([SKILLSCOPE, name, *given])


def _default_branch(c) -> str:
    for candidate in ("main", "master"):
        if c.run(f"git rev-parse --verify --quiet {candidate}", hide=True, warn=True).ok:
            return candidate
    raise SystemExit("error: no main or master branch here; pass --since REF.")
