"""`skillscope new NAME`: a skill folder to start from, without a checkout of skillscope."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.authoring import scaffold
from harness.context import Context
from harness.model.repo import find_root

HELP = "create NAME/SKILL.md and NAME/evals/evals.json from the template"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name", metavar="NAME", help="the skill's folder and frontmatter name (lowercase-with-hyphens)"
    )
    parser.add_argument(
        "--dir", metavar="DIR", default=".", help="where to create it (default: the current directory)"
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    repo = find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    folder = scaffold.new_skill(ctx.cwd / args.dir, args.name, repo)
    shown = Path(args.dir) / args.name
    ctx.out(
        f"created {shown}/SKILL.md and {shown}/evals/evals.json; replace the placeholder text and prompts,"
    )
    ctx.out("then run `skillscope structural` to check them.")
    return 0 if folder.is_dir() else 1
