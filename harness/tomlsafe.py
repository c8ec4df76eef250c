"""The one TOML loader (skillscope.toml, pyproject.toml): read through the one reader, parsed, and refused
when it nests deeper than settings ever do. Every failure is a TomlProblem naming the file."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from harness import nesting
from harness.errors import FileProblem
from harness.files import MAX_TEXT_BYTES, UnreadableFile, read_text


class TomlProblem(FileProblem):
    """The file is unreadable, not TOML, or nested too deeply; `line` is 1-based where known."""


def read(path: Path, name: str | None = None, *, limit: int = MAX_TEXT_BYTES) -> str:
    """The text of `path`, for a caller that looks at it before parsing (is its table there at all?)."""
    try:
        return read_text(path, limit)
    except UnreadableFile as exc:
        raise TomlProblem(str(path) if name is None else name, f"cannot be read: {exc.reason}") from None


def load(path: Path, name: str | None = None, *, limit: int = MAX_TEXT_BYTES) -> dict[str, Any]:
    """The TOML table in `path` (named `name` in messages, default the path as given)."""
    name = str(path) if name is None else name
    return loads(read(path, name, limit=limit), name)


def loads(text: str, name: str, *, depth: int = nesting.MAX_DEPTH) -> dict[str, Any]:
    """The TOML table of `text`, which came from `name`."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlProblem(name, f"is not valid TOML ({exc})", _line_of(exc)) from None
    except RecursionError:
        raise TomlProblem(name, _too_deep(depth)) from None
    except ValueError as exc:  # an integer too long to convert, which the parser passes on
        reason = " ".join(str(exc).split(";")[0].split())[:120]
        raise TomlProblem(name, f"is not valid TOML ({reason})") from None
    if nesting.deeper_than(value, depth):
        raise TomlProblem(name, _too_deep(depth))
    return value


def _too_deep(depth: int) -> str:
    return f"nests more than {depth} levels deep, far beyond flat keys and short lists"


def _line_of(exc: Exception) -> int | None:
    found = re.search(r"at line (\d+)", str(exc))  # tomllib says where only in its message
    return int(found.group(1)) if found else None
