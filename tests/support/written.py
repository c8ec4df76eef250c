"""What the renderers read: a result's JSON report as it is written to disk, so a test that builds a
result object renders it the way `publish` and `show --format` do."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from harness.report.jsontext import readable


def written(result: Any) -> dict:
    """`result`'s JSON report, laid out and read back as a reader of the file gets it."""
    return json.loads(readable(result.to_json()))


class FromResult:
    """A renderer module whose functions take a result object here and read its written report."""

    def __init__(self, module: ModuleType):
        self.module = module

    def __getattr__(self, name: str) -> Any:
        render = getattr(self.module, name)
        return lambda result, *args: render(written(result), *args)
