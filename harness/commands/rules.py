"""`skillscope rules`: every rule id the harness reports, with its severity and what it asks, so a
--warn, --error or baseline entry can be checked against the installed harness (the docs site's
rules page is not part of an installed package or the repo under test)."""

from __future__ import annotations

import argparse
import json
import re

from harness.context import Context
from harness.files import packaged_text

HELP = "print every rule id a finding can carry, with its severity and the bar it asks for"
# A markdown link in a table cell, printed as its text: the target names a page of the docs site.
LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No flags: the rules are the same for every repo."""


def run(args: argparse.Namespace, ctx: Context) -> int:
    rules = json.loads(packaged_text("data", "rules.json"))
    width = max(map(len, rules))
    for rule in sorted(rules):
        entry = rules[rule]
        about = LINK.sub(r"\1", f"{entry['what']}: {entry['bar']}").replace("`", "")
        ctx.out(f"{rule:<{width}}  {entry['severity']:<7}  {about}")
    return 0
