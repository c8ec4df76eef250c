"""harness.history.ledger.read_against: the branch's reports with the base branch's history behind them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from harness.history.ledger import read_against
from tests.support.synthetic_reports import routing_report


def folder_of(path: Path, *days: str) -> Path:
    path.mkdir()
    for number, day in enumerate(days, 1):
        report = {**routing_report(cases=6, samples=1, skills=2), "started_at": f"{day}T00:00:00+00:00"}
        (path / f"routing-{number}.json").write_text(json.dumps(report), encoding="utf-8")
    return path


def test_the_base_runs_come_first_and_are_marked_as_the_base(tmp_path: Path):
    branch = folder_of(tmp_path / "branch", "2026-01-03")
    base = folder_of(tmp_path / "base", "2026-01-01", "2026-01-02")
    ledger = read_against([branch], {branch: "branch"}, base, "main-runs")
    assert [(run.started_at[:10], run.base) for run in ledger.runs] == [
        ("2026-01-01", True),
        ("2026-01-02", True),
        ("2026-01-03", False),
    ]


def test_a_run_restored_into_both_is_the_branchs_copy(tmp_path: Path):
    branch = folder_of(tmp_path / "branch", "2026-01-02")
    base = tmp_path / "base"
    shutil.copytree(branch, base)
    ledger = read_against([branch], {branch: "branch"}, base, "main-runs")
    assert [run.base for run in ledger.runs] == [False]


def test_without_a_base_it_is_the_branchs_ledger_alone(tmp_path: Path):
    branch = folder_of(tmp_path / "branch", "2026-01-02")
    assert [run.base for run in read_against([branch], {branch: "branch"}, None, "").runs] == [False]
