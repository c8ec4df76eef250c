"""The one JSON loader for repo files and reports: read through the one reader (a regular file, within a
size limit), parsed, and refused when it nests deeper than any hand-written or harness-written file
does (see nesting). Every failure is a JsonProblem naming the file, never another exception; its reason
says what is wrong, and the caller adds the fix."""

from __future__ import annotations

import json
from pathlib import Path

from harness import nesting
from harness.errors import FileProblem
from harness.files import MAX_TEXT_BYTES, UnreadableFile, read_text


class JsonProblem(FileProblem):
    """The file is unreadable, not JSON, or nested too deeply; `line` is 1-based where known."""


def load(path: Path, name: str | None = None, *, limit: int = MAX_TEXT_BYTES, depth: int = nesting.MAX_DEPTH):
    """The JSON value in `path` (named `name` in messages, default the path as given)."""
    name = str(path) if name is None else name
    try:
        text = read_text(path, limit)
    except UnreadableFile as exc:
        raise JsonProblem(name, f"cannot be read: {exc.reason}") from None
    return loads(text, name, depth=depth)


def loads(text: str | bytes, name: str, *, depth: int = nesting.MAX_DEPTH, constants: bool = True):
    """The JSON value of `text`, which came from `name`. `constants=False` refuses NaN and Infinity,
    which JSON itself does not have."""
    try:
        value = json.loads(text, parse_constant=None if constants else _refuse_constant)
    except json.JSONDecodeError as exc:
        raise JsonProblem(name, f"is not valid JSON ({exc.msg}, column {exc.colno})", exc.lineno) from None
    except RecursionError:
        raise JsonProblem(name, too_deep(depth)) from None
    except (ValueError, TypeError) as exc:  # a 5,000-digit int, a refused constant, bytes not UTF-8
        reason = " ".join(str(exc).split(";")[0].split())[:120]
        raise JsonProblem(name, f"is not valid JSON ({reason})") from None
    if nesting.deeper_than(value, depth):
        raise JsonProblem(name, too_deep(depth))
    return value


def too_deep(depth: int) -> str:
    return f"nests more than {depth} levels deep, far beyond any shape the harness reads"


def _refuse_constant(word: str) -> None:
    raise ValueError(f"{word} is not a JSON number")
