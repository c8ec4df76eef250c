"""Every figure a report's schema lets be null renders as "not known", in every format: a saved real report
of each paid kind, with every number its schema allows to be null set to null at once, is shown again by
`show --format F` without an internal error. A renderer that formats such a figure as a number fails here."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from harness.report import schema_of
from tests.support import reports
from tests.support.saved_reports import PAID, load

FORMATS = ("text", "markdown", "junit", "sarif", "html")
MOST_PASSES = 50  # each pass puts back the numbers the schema refused as null


def numbers(node: object, path: tuple = ()) -> list[tuple]:
    """The path of every number (not a boolean) in `node`."""
    if isinstance(node, dict):
        return [found for key, value in node.items() for found in numbers(value, (*path, key))]
    if isinstance(node, list):
        return [found for i, value in enumerate(node) for found in numbers(value, (*path, i))]
    return [path] if isinstance(node, (int, float)) and not isinstance(node, bool) else []


def put(node: object, path: tuple, value: object) -> None:
    for step in path[:-1]:
        node = node[step]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]


def nulled(report: dict) -> tuple[dict, int]:
    """`report` with every number its schema allows to be null set to null, and how many were."""
    schema = schema_of(report)
    changed = copy.deepcopy(report)
    left = {path: get(report, path) for path in numbers(report)}
    for path in left:
        put(changed, path, None)
    for _ in range(MOST_PASSES):
        refused = [tuple(error.absolute_path) for error in schemas.errors(schema, changed)]
        if not refused:
            return changed, len(left)
        for where in refused:  # an error names the number, or the object holding it (a oneOf)
            for path in [p for p in left if p[: len(where)] == where]:
                put(changed, path, left.pop(path))
    raise AssertionError(f"{schema}: still refused after {MOST_PASSES} passes")


def get(node: object, path: tuple) -> object:
    for step in path:
        node = node[step]  # type: ignore[index]
    return node


KINDS = (*PAID, "tune")
# The free commands' reports that hold figures (a plan and a history report have none to null).
OFFLINE = {kind: reports.OFFLINE[kind] for kind in ("structural", "refs", "lexical", "tune-lexical", "sweep")}


@pytest.mark.parametrize("kind", [*KINDS, *OFFLINE])
def test_every_nullable_figure_set_to_null_still_renders_in_every_format(tmp_path: Path, kind: str):
    written = OFFLINE[kind](tmp_path / "run") if kind in OFFLINE else load(kind)
    report, count = nulled(written)
    assert count > 0, f"{kind}: the schema allows no figure to be null, so this case proves nothing"
    saved = tmp_path / f"{kind}.json"
    saved.write_text(json.dumps(report), encoding="utf-8")
    for fmt in FORMATS:
        ctx = Context(
            environ={}, cwd=tmp_path, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
        )
        code = main(["show", str(saved), "--format", fmt], ctx)
        assert code == 0, f"{kind} --format {fmt}: exit {code}: {ctx.stderr.getvalue()[-600:]}"
        assert ctx.stdout.getvalue().strip()
