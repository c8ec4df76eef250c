"""Both reusable workflows keep the run ledger between runs: the branch's ledger restored and saved
under one cache path, a pull request's base ledger restored first and set aside for --against, and the
script that adds this run's reports run with bash on a real folder."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.support.helpers import run_cli
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


# The History step's one expression, as GitHub evaluates it on a pull request into main.
AGAINST = (
    "${{ github.event_name == 'pull_request' && format('--against ''{0}/skillscope-base-ledger'' "
    "--against-name ''{1}''', runner.temp, github.base_ref) || '' }}"
)


@pytest.mark.parametrize("path", CALLED, ids=lambda p: p.name)
def test_a_pull_request_s_first_run_with_no_ledger_of_main_posts_no_all_clear(path, tmp_path):
    """The job's own steps, in order, on the first pull request of a repo: no base ledger was restored
    and no leg left a report; the summary says there is no history of main, never "nothing regressed"."""
    found = steps(path)
    temp, work = tmp_path / "runner-temp", tmp_path / "work"
    temp.mkdir()
    work.mkdir()
    env = {"PATH": os.environ["PATH"], "BASE_LEDGER": str(temp / "skillscope-base-ledger")}
    aside = found["Set the base's ledger aside"]["run"]
    subprocess.run(["bash", "-euo", "pipefail", "-c", aside], cwd=work, env=env, check=True)
    add = found["Add this run's reports to the ledger"]["run"]
    env = {"PATH": os.environ["PATH"], "NEW": str(temp / "skillscope-new"), "RUN": "7-1"}
    subprocess.run(["bash", "-euo", "pipefail", "-c", add], cwd=work, env=env, check=True)
    args = found["History"]["with"]["args"]
    assert AGAINST in args
    given = args.replace(AGAINST, f"--against '{temp}/skillscope-base-ledger' --against-name 'main'")
    summary = tmp_path / "summary.md"
    shown = run_cli(
        ["history", *shlex.split(given)],
        cwd=work,
        environ={"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTIONS": "true"},
    )
    assert shown.code == 0, shown.stderr
    posted = summary.read_text(encoding="utf-8")
    assert posted.startswith("## skillscope history: against main: no history of main yet; no case graded")
    assert "nothing regressed" not in posted + shown.stdout
