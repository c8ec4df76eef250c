"""`skillscope template`: a dataset to start from, in Tier 0's shape, whose placeholders structural flags."""

from __future__ import annotations

import argparse

from harness.context import Context
from harness.model import dataset

HELP = "print a starting evals/evals.json in Tier 0's shape; replace every placeholder"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No flags: the template is the same for every skill."""


def run(args: argparse.Namespace, ctx: Context) -> int:
    ctx.stdout.write(dataset.template_text())
    ctx.stdout.flush()
    return 0
