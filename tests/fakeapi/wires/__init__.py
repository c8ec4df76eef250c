"""The wire protocols the fake model speaks, one module each, chosen by request path.

Every wire reads the same scripted `Reply` and encodes it its own way, and tells
the recorder where a request keeps its prompt, system text and tool results.
"""

from __future__ import annotations

from .anthropic import ANTHROPIC
from .base import Wire
from .chat import CHAT
from .gemini import GEMINI
from .responses import RESPONSES

WIRES: tuple[Wire, ...] = (ANTHROPIC, RESPONSES, CHAT, GEMINI)


def wire_for(path: str) -> Wire | None:
    """The wire a POST to `path` speaks, or None for a path no wire serves."""
    route = path.split("?")[0]
    return next((wire for wire in WIRES if wire.serves(route)), None)


__all__ = ["ANTHROPIC", "CHAT", "GEMINI", "RESPONSES", "WIRES", "Wire", "wire_for"]
