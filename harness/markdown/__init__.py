"""The markdown stack: links and anchors with exact lines, sections, and the parse fast path."""
