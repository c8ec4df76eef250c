"""`skillscope template`: a dataset to start from, which itself clears Tier 0."""

from __future__ import annotations

import argparse

from harness.context import Context
from harness.model import dataset

HELP = "print a starting evals/evals.json that passes Tier 0"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No flags: the template is the same for every skill."""


def run(args: argparse.Namespace, ctx: Context) -> int:
    ctx.stdout.write(dataset.template_text())
    ctx.stdout.flush()
    return 0
