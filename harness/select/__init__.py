"""select: which graders a change needs, on which runners, as one JSON plan for a CI matrix."""
