"""`skillscope rules`: every rule id the harness reports, with its severity and what it asks, so a
--warn, --error or baseline entry can be checked against the installed harness (the docs site's
rules page is not part of an installed package or the repo under test)."""

from __future__ import annotations

import argparse
import textwrap

from harness.context import Context
from harness.model import rules as rule_table

TYPE_CHECKING = False
if TYPE_CHECKING:
    from markdown_it import MarkdownIt

HELP = "print every rule id a finding can carry, with its severity and the bar it asks for"
INDENT = "    "
NARROWEST = 40  # below this a wrapped description is more breaks than words
NO_BREAK = "\N{NO-BREAK SPACE}"  # between a code span's words while wrapping: a command stays whole
INTRO = (
    "Each rule a finding can carry: its id and severity (an error fails the run, a warning is reported "
    "and lets it pass), then what it checks and the bar it asks for. --warn RULES reports the rules "
    "named as warnings, --error RULES as errors."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No flags: the rules are the same for every repo."""


def run(args: argparse.Namespace, ctx: Context) -> int:
    known = rule_table.table()
    width = max(ctx.columns, NARROWEST)
    read = rule_table.reader()
    blocks = [block(rule, known[rule], width, read) for rule in sorted(known)]
    ctx.out("\n\n".join([fill(INTRO, width, indent=""), *blocks]))
    return 0


def block(rule: str, about: dict[str, str], width: int, read: MarkdownIt) -> str:
    """A rule's id and severity, then what it checks, indented below."""
    text = rule_table.plain(rule_table.described(about), code_space=NO_BREAK, read=read)
    return f"{rule}  {about['severity']}\n{fill(text, width, INDENT).replace(NO_BREAK, ' ')}"


def fill(text: str, width: int, indent: str) -> str:
    """`text` wrapped to `width` columns; flags, rule ids and paths are never broken at their hyphens."""
    return textwrap.fill(
        text,
        width=width - 1,  # a column spare, as argparse leaves: some consoles wrap a line that fills the last
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
