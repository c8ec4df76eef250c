"""Whitespace that pushes text past what a reviewer or a scanner's window shows: thousands of blank
lines or spaces before (or between) what the agent will still read."""

from __future__ import annotations

import re

from harness.checks.security.content import SkillContent
from harness.model import findings
from harness.model.findings import Finding

RULE = "padding"
MOST_BLANK_LINES = 200
MOST_SPACES = 2000
BLANKS = (" ", "\t", "\r", "\f", "\v")  # the characters of RUN's [ \t\r\f\v]
# A run starts at a line end (a pattern free to start at every space would retry at each one).
RUN = re.compile(rf"\n(?:[ \t\r\f\v]*\n){{{MOST_BLANK_LINES},}}|[ \t\r\f\v]{{{MOST_SPACES},}}")


def scan(content: SkillContent) -> list[Finding]:
    out = []
    for text in content.texts:
        for match in text.finditer(RUN) if could_pad(text.text) else ():
            if not text.text[match.end() :].strip():
                continue  # trailing whitespace hides nothing
            first, resumes = text.line_at(match.start()), text.line_at(match.end())
            blank = match.group(0).count("\n")
            what = f"{blank} blank lines" if blank >= MOST_BLANK_LINES else f"{len(match.group(0))} spaces"
            made = findings.warning(
                RULE,
                text.rel,
                f"{what} from line {first} push the text at line {resumes} out of a reader's view (and past "
                "a scanner that reads only the start); remove the padding.",
                first,
            )
            out.append(content.finding(made, text))
            break  # one per file: the first hides the rest
    return out


def could_pad(text: str) -> bool:
    """Whether `text` holds enough line ends or blanks for RUN to match: counting them is one quick pass
    each, where the pattern tries every position of the text (most files are far too short)."""
    if text.count("\n") > MOST_BLANK_LINES:
        return True
    return len(text) >= MOST_SPACES and sum(text.count(blank) for blank in BLANKS) >= MOST_SPACES
