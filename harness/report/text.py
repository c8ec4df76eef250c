"""The terminal report: one line per finding, `path:line: error|warning: rule: message` (what editors
and terminals turn into links), then a one-line summary. Colour only on a terminal, and never under
NO_COLOR: the word says whether a line fails the run where no colour does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS
from harness.model.findings import Finding

RED, YELLOW, GREEN, BOLD, RESET = "\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[1m", "\x1b[0m"
WORD_COLOURS = {PASS: GREEN, FAIL: RED, ERROR: YELLOW, BLOCKED: YELLOW}


def wants_colour(stream, environ: Mapping[str, str]) -> bool:
    """On a terminal, unless NO_COLOR is set to anything but the empty string (no-color.org)."""
    if environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, colour: str, on: bool) -> str:
    return f"{colour}{text}{RESET}" if on and colour else text


def one_line(text: str) -> str:
    """Every run of whitespace, newlines and control characters included, as one space: a line per
    finding stays one line, and a message cannot move the cursor or recolour the terminal."""
    if not text.isprintable():  # most messages are: then only their whitespace runs change
        text = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(text.split())


def finding_line(finding: Finding, colour: bool = False) -> str:
    """`path:line: error|warning: rule: message`, red when it fails the run."""
    message = one_line(finding.message) + adoption_note(finding)
    return f"{lead(finding, colour)}: {message}"


def lead(finding: Finding, colour: bool) -> str:
    """`path:line: error|warning: rule`: an error is what fails the run (not known, not demoted)."""
    word, tint = ("error", RED) if finding.fails else ("warning", YELLOW)
    return f"{paint(one_line(finding.location), BOLD, colour)}: {paint(word, tint, colour)}: {finding.rule}"


def finding_lines(found: Iterable[Finding], colour: bool = False) -> list[str]:
    """A line per finding, each message said in full once: a later finding of the same rule with the
    same message (nineteen skills without a dataset) names the first one's place instead of repeating it."""
    first: dict[tuple[str, str, str], str] = {}
    lines = []
    for finding in found:
        key = (finding.rule, finding.message, adoption_note(finding))
        if key not in first:
            first[key] = one_line(finding.location)
            lines.append(finding_line(finding, colour))
            continue
        lines.append(f"{lead(finding, colour)}: the same as {first[key]} above{key[2]}")
    return lines


def adoption_note(finding: Finding) -> str:
    """Why an error does not fail the run: the repo's baseline records it, or --warn demoted its rule."""
    if finding.baseline:
        return " (known: in the baseline)"
    return " (demoted by --warn)" if finding.demoted else ""


def unit_line(name: str, word: str, colour: bool = False) -> str:
    """A graded unit (skill, file, case) and its status word, for --verbose."""
    return f"{paint(word.upper(), WORD_COLOURS.get(word, ''), colour)} {one_line(name)}"


def summary_line(document: dict, headline: str, colour: bool = False) -> str:
    """One line from the envelope: the command, how it went, the command's own headline, the time."""
    word = document["status"]
    return (
        f"skillscope {document['command']}: {paint(word, WORD_COLOURS.get(word, ''), colour)}: "
        f"{headline} ({document['elapsed_s']:.1f}s)"
    )
