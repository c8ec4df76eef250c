"""`skillscope import skill-creator`: a dataset of ours from Anthropic's skill-creator files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness.authoring import importing, skill_creator
from harness.authoring.skill_creator import Converted
from harness.cli import flags, resolve
from harness.context import Context
from harness.errors import HarnessError, UsageError
from harness.model.repo import Repo
from harness.writer import write_text, writing

HELP = "convert another tool's eval files into an evals/evals.json (skill-creator, addyosmani)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        choices=importing.SOURCES,
        help="the format to convert from: skill-creator's (also the specification's evals shape) or "
        "addyosmani/agent-skills' case files",
    )
    parser.add_argument(
        "--evals",
        metavar="FILE",
        help="skill-creator's evals file (evals/evals.json), or addyosmani's case file "
        "(evals/cases/<skill>.json)",
    )
    parser.add_argument("--triggers", metavar="FILE", help="skill-creator's trigger eval set (a JSON list)")
    parser.add_argument("--skill", required=True, metavar="NAME", help="the skill the cases belong to")
    parser.add_argument(
        "--output",
        metavar="PATH",
        help="write the dataset here and copy eval input files into <skill>/fixtures/<id>/ "
        "(default: print the dataset to stdout)",
    )
    flags.add_skills_dir(parser)


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.source == "addyosmani" and (args.triggers or not args.evals):
        raise UsageError(
            "import addyosmani takes the case file as --evals FILE (its triggers are inside it)."
        )
    if not args.evals and not args.triggers:
        raise UsageError("import skill-creator needs --evals FILE, --triggers FILE or both.")
    repo = resolve.resolve_repo(args, ctx)
    skill_dir = repo.skill_dirs.get(args.skill)
    if skill_dir is None:
        raise UsageError(not_found(args.skill, repo.globs, repo.names))
    converted = importing.converted(
        args.source,
        args.skill,
        args.evals,
        args.triggers,
        cwd=ctx.cwd,
        skill_dir=skill_dir,
        root=repo.root,
        stage_files=bool(args.output),
    )
    if not converted.dataset["evaluations"]:
        # An empty dataset fails structural and grades nothing: write none, and say what was left out.
        for sentence in converted.left_out:
            ctx.err(f"[import] not carried over: {sentence}")
        given = " and ".join(f for f in (args.evals, args.triggers) if f)
        raise HarnessError(f"{given}: no case to convert, so nothing was written.")
    written(args, ctx, repo, skill_dir, converted)
    for sentence in converted.left_out:
        ctx.err(f"[import] not carried over: {sentence}")
    cases = converted.dataset["evaluations"]
    missing = " (e.g. negatives)" if all(c["skill_should_trigger"] for c in cases) else ""
    ctx.err(f"[import] next: run `skillscope structural` to see what the dataset still needs{missing}.")
    return 0


def written(
    args: argparse.Namespace, ctx: Context, repo: Repo, skill_dir: Path, converted: Converted
) -> None:
    """The dataset written to --output, its input files copied beside the skill; else printed."""
    text = json.dumps(converted.dataset, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        # The input files first: a dataset is never left naming fixtures that were not copied.
        for folder in skill_creator.write_fixtures(converted, skill_dir, repo.root):
            ctx.err(f"[import] copied input files into {repo.rel(folder)}/")
        target = ctx.cwd / args.output
        with writing("the dataset", target, "fix --output"):
            write_text(target, text, repo.root)
        ctx.err(f"[import] wrote {len(converted.dataset['evaluations'])} case(s) to {args.output}")
    else:
        ctx.out(text.rstrip("\n"))


def not_found(skill: str, globs: list[str], found: list[str]) -> str:
    """Where the skill was looked for, and the two ways to point there (F6: never a duplicate skill)."""
    where = ",".join(globs)
    seen = ", ".join(found[:8]) + (" ..." if len(found) > 8 else "") if found else "none"
    return (
        f"--skill {skill}: no skill of that name under --skills-dir {where} (skills found there: {seen}). "
        f"If it lives deeper, name its folders, such as --skills-dir 'skills/*', or run `skillscope init` "
        f"to record them; if it does not exist yet, create it (skillscope new {skill})."
    )
