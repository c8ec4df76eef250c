"""Both reusable workflows keep the run ledger between runs: the branch's ledger restored and saved
under one cache path, a pull request's base ledger restored first and set aside for --against, and the
script that adds this run's reports run with bash on a real folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.yamlfiles import WORKFLOWS, load

CALLED = [p for p in WORKFLOWS if p.name in ("reusable.yml", "skill-evals.yml")]


def steps(path: Path) -> dict[str, dict]:
    return {s.get("name", s.get("uses")): s for s in load(path)["jobs"]["history"]["steps"]}


@pytest.mark.parametrize("path", CALLED, ids=lambda p: p.name)
def test_the_ledger_is_restored_extended_and_saved_and_a_pull_request_reads_its_base(path):
    found = steps(path)
    base, branch = found["Restore the base branch's ledger"], found["Restore this branch's ledger"]
    assert base["if"] == "github.event_name == 'pull_request'"
    assert (
        base["with"]["path"] == branch["with"]["path"] == found["Save this branch's ledger"]["with"]["path"]
    )
    assert base["with"]["restore-keys"] == "skillscope-ledger-${{ github.base_ref }}-"
    assert "pr-{0}" in branch["with"]["key"] and "github.run_attempt" in branch["with"]["key"]
    assert (
        found["Save this branch's ledger"]["with"]["key"] == "${{ steps.ledger.outputs.cache-primary-key }}"
    )
    history = found["History"]
    assert history["with"]["command"] == "history" and history.get("continue-on-error") is True
    assert "--against" in history["with"]["args"] and "github.base_ref" in history["with"]["args"]
    assert "history" not in load(path)["jobs"]["results"]["needs"]  # it reports, never gates


def test_the_add_step_copies_each_leg_s_reports_under_unique_names_and_keeps_the_newest_500(tmp_path):
    script = steps(CALLED[0])["Add this run's reports to the ledger"]["run"]
    new = tmp_path / "new"
    for leg in ("routing-alpha", "behavioral-alpha"):
        (new / leg / "logs").mkdir(parents=True)
        (new / leg / f"{leg}.json").write_text("{}")
        (new / leg / "logs" / "x.json").write_text("{}")  # a log folder's file is no report
    ledger = tmp_path / ".skillscope-ledger"
    ledger.mkdir()
    for n in range(505):
        old = ledger / f"old-{n:03d}.json"
        old.write_text("{}")
        os.utime(old, (1_000_000 + n, 1_000_000 + n))
    env = {"PATH": os.environ["PATH"], "NEW": str(new), "RUN": "7-1"}
    subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env, check=True)
    kept = sorted(p.name for p in ledger.iterdir())
    assert len(kept) == 500
    assert {"7-1-routing-alpha-routing-alpha.json", "7-1-behavioral-alpha-behavioral-alpha.json"} <= set(kept)
    assert "old-006.json" not in kept and "old-007.json" in kept  # the oldest seven went
