"""What the reports of both routing engines read alike: the notes the text format lifts under its
summary, and where a case is written."""

from __future__ import annotations

from harness.model import notes


def listing_notes(meta: dict) -> list[str]:
    """The note on the room skills the agent's model was not shown in full, then the note on the catalog
    skills the room left out; each empty when the run has none."""
    said = meta.get("notes") or []
    listing = next((note for note in said if note.startswith(notes.LISTING)), "")
    outside = next((note for note in said if notes.LEFT_OUT in note), "")
    return [listing, outside]


def where(case: dict) -> str:
    """`source:line` of a case, or its source alone when no line is known."""
    return f"{case['source']}:{case['line']}" if case.get("line") else case["source"]
