"""A field a report's schema leaves optional is read as optional by every renderer: a real report of each
kind the report package renders, with one key the schema does not require removed at a time, either fails
the check `show` makes first (a usage error) or renders in every format `show --format` offers. A
renderer that reads such a field directly raises KeyError here, which a user sees as a traceback."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest

from harness import schemas
from harness.context import Context
from harness.errors import UsageError
from harness.report import FORMATS, saved, schema_of
from tests.support import reports
from tests.support.saved_reports import PAID, load

ITEMS = 3  # of each array, walked: the items of one array are shaped alike
SWEPT = Path(__file__).resolve().parent.parent / "sweep" / "clause_cut"


def optional_paths(schema: object, node: object, path: tuple = ()) -> list[tuple]:
    """The path of each key of `node` its (inlined) schema declares but does not require, at every level."""
    if not isinstance(schema, dict):
        return []
    found: list[tuple] = []
    # Every branch is walked: a key one branch leaves optional is tried, and the check refuses what the
    # report's own branch requires.
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key, []):
            found += optional_paths(branch, node, path)
    for key in ("if", "then", "else"):
        found += optional_paths(schema.get(key), node, path)
    if isinstance(node, dict):
        declared = schema.get("properties", {})
        required = set(schema.get("required", []))
        for key, value in node.items():
            # A record's key it does not require, declared or not (an undeclared one is read too); a
            # map's keys (no `properties`) are its data, not its fields.
            found += [(*path, key)] if declared and key not in required else []
            if key in declared:
                found += optional_paths(declared[key], value, (*path, key))
            elif isinstance(schema.get("additionalProperties"), dict):
                found += optional_paths(schema["additionalProperties"], value, (*path, key))
    if isinstance(node, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(node[:ITEMS]):
            found += optional_paths(schema["items"], item, (*path, i))
    return list(dict.fromkeys(found))


def without(report: dict, path: tuple) -> dict:
    """`report` without the key at `path`: only the objects and arrays along it are copied (a deep copy of
    a large report for each key cost more than its check), the rest shared, as renderers only read."""
    trimmed = copy.copy(report)
    node: Any = trimmed
    for step in path[:-1]:
        node[step] = copy.copy(node[step])
        node = node[step]
    del node[path[-1]]
    return trimmed


OFFLINE = reports.OFFLINE
KINDS = (*PAID, "tune", *OFFLINE)


def failures(report: dict, where: Path) -> tuple[list[str], int]:
    """What raised, per removed key and format, and how many trimmed reports passed the check."""
    schema = schemas.inline_refs(schemas.load(schema_of(report)))
    ctx = Context(environ={}, cwd=where, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    failed, rendered = [], 0
    # `command` names the schema: `show` refuses a report without it before any check (read_report).
    for path in [p for p in optional_paths(schema, report) if p != ("command",)]:
        try:
            trimmed = saved.checked(without(report, path), "run.json")
        except UsageError:
            continue  # refused before any renderer reads it: what the user sees is one sentence
        rendered += 1
        for fmt in FORMATS:
            try:
                saved.again(trimmed, fmt, where / "run.json", ctx, "run.json")
            except UsageError:
                pass  # a format this kind has no form in
            except Exception as exc:  # noqa: BLE001  # any other is a traceback for the user
                failed.append(f"without {'.'.join(map(str, path))}: --format {fmt}: {exc!r}")
    return failed, rendered


@pytest.mark.parametrize("kind", KINDS)
def test_a_report_without_any_one_optional_field_renders_or_is_refused(tmp_path: Path, kind: str):
    report = OFFLINE[kind](tmp_path / "run") if kind in OFFLINE else load(kind)
    failed, rendered = failures(report, tmp_path)
    assert rendered > 0, f"{kind}: no optional field passed the check, so this case proves nothing"
    assert not failed, "\n".join(failed)
