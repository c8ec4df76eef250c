"""The wording of the run notes that the text format lifts under its summary line: routing writes the
notes with these words, and the report finds them again by the same words in the JSON report."""

from __future__ import annotations

LISTING = "Listing (predicted"  # how a note on what the agent's listing left out begins
LEFT_OUT = "were left out of the room"  # how the note on catalog skills outside the room reads
