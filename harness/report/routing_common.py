"""What the reports of both routing engines read alike: the notes the text format lifts under its
summary, and where a case is written."""

from __future__ import annotations

from harness.model import notes
from harness.model.dataset import located


def listing_notes(meta: dict) -> list[str]:
    """The note on the room skills the agent's model was not shown in full, then the note on the catalog
    skills the room left out; each empty when the run has none."""
    said = meta.get("notes") or []
    listing = next((note for note in said if note.startswith(notes.LISTING)), "")
    outside = next((note for note in said if notes.LEFT_OUT in note), "")
    return [listing, outside]


def where(case: dict) -> str:
    """`source:line` of a case, its source alone when no line is known, or the built-in set's name for
    one of skillscope's shared negatives (a file of the installed package, not of the repo)."""
    path, line = located(case["source"], case.get("line"))
    return "skillscope's built-in negatives" if path == "." else f"{path}:{line}" if line else path
