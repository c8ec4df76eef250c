"""The wording of the run notes that the text format lifts under its summary line: routing writes the
notes with these words, and the report finds them again by the same words in the JSON report."""

from __future__ import annotations

LISTING = "Listing (predicted"  # how a note on what the agent's listing left out begins
LEFT_OUT = "were left out of the room"  # how the note on catalog skills outside the room reads


def ungraded(totals: dict[str, object]) -> str:
    """The cases a run did not grade, in words (", 2 errored and 1 not run: not graded"); "" if none.
    Read from the JSON totals, so a run's headline and a re-rendered report say the same."""
    parts = []
    if totals.get("errors"):
        parts.append(f"{totals['errors']} errored")
    if totals.get("not_run"):
        parts.append(f"{totals['not_run']} not run")
    return f", {' and '.join(parts)}: not graded" if parts else ""


def left_out(gated: dict[str, object]) -> str:
    """The graded cases the gate did not count, in words; "" when it counted them all."""
    parts = []
    if gated.get("provisional_left_out"):
        parts.append(f"{gated['provisional_left_out']} provisional case(s) not counted without --strict")
    if gated.get("quarantined_left_out"):
        parts.append(f"{gated['quarantined_left_out']} quarantined case(s) not counted")
    return "; ".join(parts)
