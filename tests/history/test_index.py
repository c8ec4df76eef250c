"""The ledger's index in the user's cache: a later answer reads what the first one indexed instead of
parsing each report again, and a report that changed, or an index that is damaged, is read afresh."""

from __future__ import annotations

import json
import os
from pathlib import Path

from harness.history.index import index_path
from tests.support.helpers import run_cli
from tests.support.synthetic_reports import routing_report


def ledger(folder: Path) -> Path:
    folder.mkdir()
    for number, day in enumerate(("2026-01-01", "2026-01-02"), 1):
        report = {**routing_report(cases=6, samples=1, skills=2), "started_at": f"{day}T00:00:00+00:00"}
        (folder / f"routing-{number}.json").write_text(json.dumps(report), encoding="utf-8")
    return folder


def answer(folder: Path, cache: Path) -> dict:
    done = run_cli(
        ["history", str(folder), "--format", "json"],
        cwd=folder.parent,
        environ={"XDG_CACHE_HOME": str(cache)},
    )
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)


def statuses(document: dict) -> dict[str, list[str]]:
    return {c["id"]: c["timeline"]["status"] for c in document["cases"]}


def flipped(file: Path) -> None:
    """The report's first passing case made a failure, its size and modification time kept."""
    before = file.stat()
    body = file.read_text(encoding="utf-8").replace('"status": "pass"', '"status": "fail"', 1)
    file.write_text(body, encoding="utf-8")
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_later_answer_reads_the_index_and_a_changed_report_is_read_again(tmp_path):
    folder, cache = ledger(tmp_path / "runs"), tmp_path / "cache"
    first = answer(folder, cache)
    assert index_path(cache / "skillscope", folder).is_file()
    assert answer(folder, cache) == first

    # Same size, same time: the index answers, so the edit is not seen (what proves it was read)...
    report = folder / "routing-2.json"
    flipped(report)
    assert statuses(answer(folder, cache)) == statuses(first)
    # ...until the report's time moves, when it is parsed again.
    os.utime(report, ns=(report.stat().st_atime_ns, report.stat().st_mtime_ns + 1_000_000_000))
    fresh = statuses(answer(folder, cache))
    assert fresh != statuses(first)
    assert fresh == statuses(answer(folder, tmp_path / "empty-cache"))  # the same as a first read


def test_a_damaged_index_is_an_empty_one_and_a_removed_report_leaves_it(tmp_path):
    folder, cache = ledger(tmp_path / "runs"), tmp_path / "cache"
    first = answer(folder, cache)
    index_path(cache / "skillscope", folder).write_bytes(b"\x00not an index")
    assert answer(folder, cache) == first
    (folder / "routing-1.json").unlink()
    assert len(answer(folder, cache)["runs"]) == 1
