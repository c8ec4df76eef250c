"""`skillscope new NAME`: a skill folder to start from, without a checkout of skillscope."""

from __future__ import annotations

import argparse
import glob
from pathlib import Path

from harness.authoring import scaffold
from harness.cli import flags, resolve
from harness.context import Context
from harness.model.repo import default_globs, discover, find_root

HELP = "create NAME/SKILL.md and NAME/evals/evals.json from the template"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name", metavar="NAME", help="the skill's folder and frontmatter name (lowercase-with-hyphens)"
    )
    parser.add_argument(
        "--dir",
        metavar="DIR",
        help="where to create it (default: the folder the repo's skills-dir setting names, such as "
        "skills for skills/*; else the current directory)",
    )
    flags.add_skills_dir(parser)


def run(args: argparse.Namespace, ctx: Context) -> int:
    repo = find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    globs = resolve.skills_globs(args.skills_dir, ctx)
    if args.dir is not None:
        parent, shown_parent = ctx.cwd / args.dir, Path(args.dir)
    else:
        parent = ctx.cwd
        shown_parent = Path(".")
        home = one_folder(globs)
        if home is not None:
            parent, shown_parent = repo / home, Path(home)
    folder = scaffold.new_skill(parent, args.name, repo)
    shown = shown_parent / args.name
    ctx.out(
        f"created {shown}/SKILL.md and {shown}/evals/evals.json; replace the placeholder text and prompts,"
    )
    ctx.out("then run `skillscope structural` to check them.")
    looked = globs or default_globs(repo, ctx.cwd)
    if folder.resolve() not in {path.resolve() for path in discover(repo, looked).skill_dirs.values()}:
        # Every later command looks only where --skills-dir says: a skill elsewhere is never checked.
        ctx.err(
            f"note: {shown} is not under --skills-dir {','.join(looked)}, so skillscope commands here "
            "will not see it; move it there (or create it with --dir), or add its folder to skills-dir."
        )
    return 0 if folder.is_dir() else 1


def one_folder(globs: list[str]) -> str | None:
    """The folder of the one glob `folder/*` the skills live under, else None (several, or other shapes)."""
    if len(globs) != 1 or not globs[0].endswith("/*"):
        return None
    folder = globs[0][:-2].strip("/")
    return folder if folder and not glob.has_magic(folder) else None
