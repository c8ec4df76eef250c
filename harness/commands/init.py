"""`skillscope init`: adopt skillscope in a skills repo (workflow, .gitignore, settings, a first skill)."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.authoring import scaffold
from harness.cli import settings
from harness.context import Context
from harness.errors import UsageError
from harness.model.repo import find_root

HELP = "write a CI workflow, the .gitignore entry and skills-dir setting, and (with --skill) a first skill"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skills-dir",
        metavar="GLOB",
        default="skills/*",
        help="where the skills live, written to the workflow and skillscope.toml (default: skills/*)",
    )
    parser.add_argument("--skill", metavar="NAME", help="also create a first skill of this name there")
    parser.add_argument(
        "--force", action="store_true", help="overwrite an existing .github/workflows/skills.yml"
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    root = find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    glob = args.skills_dir.strip().strip("/") or "*"
    if "," in glob or glob.startswith("["):
        raise UsageError(
            "init --skills-dir takes one glob, such as 'skills/*'; add others to skillscope.toml."
        )
    workflow = root / scaffold.WORKFLOW
    if workflow.exists() and not args.force:
        raise UsageError(f"{workflow} already exists; delete it or pass --force to replace it.")
    workflow.parent.mkdir(parents=True, exist_ok=True)
    workflow.write_text(scaffold.caller_workflow(glob), encoding="utf-8")
    ctx.out(f"wrote {scaffold.WORKFLOW}: the reusable workflow grades {glob} on every pull request")
    if scaffold.ignore_reports(root):
        ctx.out(
            f"added {' and '.join(scaffold.IGNORED)} to .gitignore: run reports stay out of commits, "
            "the baseline can be committed"
        )
    if settings.load(root).path is None:
        (root / settings.OWN_FILE).write_text(scaffold.settings_file(glob), encoding="utf-8")
        ctx.out(f"wrote {settings.OWN_FILE}: skillscope commands here look at {glob}")
    if args.skill:
        parent = root / Path(glob).parent
        folder = scaffold.new_skill(parent, args.skill)
        ctx.out(f"created {folder.relative_to(root)}: replace its placeholder text and prompts")
    ctx.out("next: add the ANTHROPIC_API_KEY secret, then run `skillscope structural`.")
    return 0
