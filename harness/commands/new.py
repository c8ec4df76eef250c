"""`skillscope new NAME`: a skill folder to start from, without a checkout of skillscope."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.authoring import scaffold
from harness.cli import flags, resolve, settings
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
        help="where to create it (default: the folder the repo's skills-dir setting names first, such as "
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
        home = scaffold.skills_folder(globs)
        if home is not None:
            parent, shown_parent = repo / home, Path(home)
    files, sections = policy(repo)
    folder = scaffold.new_skill(parent, args.name, repo, files, sections)
    shown = shown_parent / args.name
    made = [f"{shown}/SKILL.md", f"{shown}/evals/evals.json", *(f"{shown}/{file}" for file in files)]
    ctx.out(f"created {', '.join(made[:-1])} and {made[-1]}; replace the placeholder text and prompts,")
    if files:
        ctx.out(f"  ({', '.join(files)}: every skill here ships them, says the skill-files setting)")
    ctx.out("then run `skillscope structural` to check them.")
    looked = globs or default_globs(repo, ctx.cwd)
    if folder.resolve() not in {path.resolve() for path in discover(repo, looked).skill_dirs.values()}:
        # Every later command looks only where --skills-dir says: a skill elsewhere is never checked.
        ctx.err(
            f"note: {shown} is not under --skills-dir {','.join(looked)}, so skillscope commands here "
            "will not see it; move it there (or create it with --dir), or add its folder to skills-dir."
        )
    return 0 if folder.is_dir() else 1


def policy(repo: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The files (and their sections) the repo's settings ask every skill to ship: a scaffold without
    them would fail the repo's own structural run at once."""
    values = settings.load(repo).values
    found = []
    for key in ("skill-files", "skill-sections"):
        raw = values.get(key)
        found.append(tuple(flags.parse_list(key, raw if isinstance(raw, (str, list)) else None)))
    return found[0], found[1]
