"""The skill listing a real agent CLI sent its model, cut out of the recorded request exactly as sent,
the skills folder's path written as {root}: what the golden and recorded listings under tests/agent hold."""

from __future__ import annotations

import re
from typing import Any

from harness.model.listing import listing_rule
from tests.fakeapi.recorded import LISTING_HEADER, RecordedRequest

ROOT = "{root}"  # the skills folder's path in a recorded listing (it differs from run to run)
XML_ENTRY = re.compile(r"  <skill>\n.*?\n  </skill>", re.S)


def request_text(value: Any) -> str:
    """Every string of a request body, in order, one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(request_text(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(request_text(v) for v in value)
    return ""


def entry_name(entry: str) -> str:
    return entry.split("<name>", 1)[1].split("</name>", 1)[0]


def listing_text(runtime: str, request: RecordedRequest, root: str) -> str:
    """The block of skill entries the CLI sent, exactly, with the skills folder's path as {root}."""
    if runtime == "claude":
        text = request_text(request.body)
        start = text.index(LISTING_HEADER) + len(LISTING_HEADER) + 2  # the header, then a blank line
        ends = [text.find(end, start) for end in ("\n\n", "\n</system-reminder>")]
        return text[start : min(end for end in ends if end >= 0)]
    text = request.system_text
    if runtime == "codex":
        start = text.index("### Available skills\n") + len("### Available skills\n")
        return text[start : text.index("\n</skills_instructions>", start)]
    start = text.index("<available_skills>\n") + len("<available_skills>\n")
    block = text[start : text.index("\n</available_skills>", start)].replace(root, ROOT)
    if listing_rule(runtime).order == "any":  # gemini lists in the order its folder reads: ours sorts
        block = "\n".join(sorted(XML_ENTRY.findall(block), key=entry_name))
    return block
