"""A scripted Anthropic Messages API for driving the real `claude` CLI in tests."""

from .cli import CliRun, find_claude, hermetic_env, run_claude, write_skill
from .recorded import RecordedRequest, listing_aliases, parse_skill_listing
from .replies import DONE, Reply, ToolUse, error, hang, malformed, skill, text, tool_use
from .server import FakeAPI

__all__ = [
    "DONE",
    "CliRun",
    "FakeAPI",
    "RecordedRequest",
    "Reply",
    "ToolUse",
    "error",
    "find_claude",
    "hang",
    "hermetic_env",
    "listing_aliases",
    "malformed",
    "parse_skill_listing",
    "run_claude",
    "skill",
    "text",
    "tool_use",
    "write_skill",
]
