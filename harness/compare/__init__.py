"""compare: two versions of a skill (or with and without it) graded on the same cases, side by side."""
