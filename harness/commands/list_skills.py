"""`skillscope list-skills`: the skills that have a dataset, as a JSON array."""

from __future__ import annotations

import argparse
import json

from harness.cli import collector, flags, resolve
from harness.context import Context

HELP = "print the skills with a dataset (evals/evals.json or another tool's), as a JSON array"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)


bounded = collector.always  # its work ends with the repo it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    repo = resolve.resolve_repo(args, ctx)
    ctx.out(json.dumps(repo.with_dataset(), separators=(",", ":")))
    return 0
