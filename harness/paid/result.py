"""A command's result as a paid run hands it to be published, and the edge's writer of its reports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Result(Protocol):
    """A command's result as the run hands it to be published: its reports are the edge's to render."""

    @property
    def command(self) -> str: ...

    @property
    def passed(self) -> bool: ...

    def to_json(self) -> dict: ...


# Writes every report of a result where the command's report flags say (the edge's renderers).
Publish = Callable[[Result], object]
