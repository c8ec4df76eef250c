"""JSON given on the command line: list flags and --runner-types."""

from __future__ import annotations

import json

from harness import nesting
from harness.errors import UsageError


def json_value(flag: str, text: str, fix: str) -> object:
    """The JSON a flag holds. Broken syntax, an int too long to convert, and nesting deeper than any
    hand-written flag needs (which would crash whatever walks it next) are usage errors ending in `fix`."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{flag}: invalid JSON ({exc.msg}, column {exc.colno}); {fix}") from None
    except (ValueError, RecursionError) as exc:
        reason = "nests too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise UsageError(f"{flag}: the JSON cannot be read ({reason}); {fix}") from None
    if nesting.deeper_than(value):
        raise UsageError(f"{flag}: the JSON nests more than {nesting.MAX_DEPTH} levels deep; {fix}")
    return value
