"""How deep parsed data nests, measured without recursion.

JSON and YAML parsers accept structures nested close to the interpreter's recursion limit, and anything
that walks them recursively afterwards (jsonschema, repr in a message) then crashes. Hand-written
datasets and frontmatter are a few levels deep; checks refuse anything past MAX_DEPTH up front.
"""

from __future__ import annotations

MAX_DEPTH = 32
# A report the harness wrote holds agents' tool inputs as the agent gave them: deeper, yet far from the
# interpreter's recursion limit, which anything walking it recursively would hit.
REPORT_DEPTH = 100


def deeper_than(data: object, limit: int = MAX_DEPTH) -> bool:
    """True when lists/dicts in `data` nest more than `limit` levels (the top level counts as 1)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            children = list(value.keys()) + list(value.values()) if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False
