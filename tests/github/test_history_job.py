"""Both reusable workflows keep the run ledger between runs: the branch's ledger restored and saved
under one cache path, a pull request's base ledger restored first and set aside for --against, and the
script that adds this run's reports run with bash on a real folder."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
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
    assert base["with"]["restore-keys"] == "${{ steps.names.outputs.base }}"
    assert branch["with"]["restore-keys"] == "${{ steps.names.outputs.branch }}"
    assert branch["with"]["key"].startswith("${{ steps.names.outputs.branch }}")
    assert "github.run_attempt" in branch["with"]["key"]
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


# ---------------------------------------------------------------- one ledger per workflow

EXPRESSION = re.compile(r"\$\{\{ (.*?) \}\}")


def evaluate(text: str, context: dict) -> str:
    """The expressions these steps use: a dotted name, or names joined by || (the first non-empty)."""

    def one(match: re.Match) -> str:
        for name in match[1].split(" || "):
            value: object = context
            for part in name.strip().split("."):
                value = value.get(part, "") if isinstance(value, dict) else ""
            if value:
                return str(value)
        return ""

    return EXPRESSION.sub(one, text)


def ledger_keys(path: Path, tmp_path: Path, workflow: str, event: str, ref: str = "", pr: int = 0, name=""):
    """The history job's naming step run with the context GitHub gives it, then its cache steps' keys:
    {"base": (key, restore-keys) or None, "branch": (key, restore-keys)}."""
    found = steps(path)
    context = {
        "inputs": {"ledger_name": name},
        "github": {
            "workflow": workflow,
            "event_name": event,
            "ref_name": f"{pr}/merge" if pr else ref,
            "base_ref": "main" if pr else "",
            "event": {"pull_request": {"number": pr}} if pr else {},
            "run_id": "41",
            "run_attempt": "2",
        },
    }
    naming = found["Name the ledger"]
    assert naming["shell"] == "python"
    output = tmp_path / f"output-{len(list(tmp_path.iterdir()))}"
    env = {key: evaluate(str(value), context) for key, value in naming["env"].items()}
    env |= {"PATH": os.environ["PATH"], "GITHUB_OUTPUT": str(output)}
    subprocess.run([sys.executable, "-c", naming["run"]], env=env, check=True)
    context["steps"] = {
        "names": {"outputs": dict(line.split("=", 1) for line in output.read_text().splitlines())}
    }

    def keys(step: dict) -> tuple[str, str]:
        return evaluate(step["with"]["key"], context), evaluate(step["with"]["restore-keys"], context)

    base = found["Restore the base branch's ledger"]
    return {
        "base": keys(base) if event == "pull_request" else None,
        "branch": keys(found["Restore this branch's ledger"]),
    }


def test_every_ledger_cache_step_is_keyed_by_the_naming_step():
    """A sweep: whichever workflow restores or saves a ledger names it through its own naming step."""
    for path in WORKFLOWS:
        for job in load(path)["jobs"].values():
            cached = [
                s for s in job.get("steps", []) if s.get("with", {}).get("path") == ".skillscope-ledger"
            ]
            for step in cached:
                key = step["with"]["key"]
                assert key.startswith("${{ steps.names.outputs.") or key.startswith("${{ steps.ledger."), path
                if "restore-keys" in step["with"]:
                    assert step["with"]["restore-keys"].startswith("${{ steps.names.outputs."), path
            if cached:
                assert "names" in [s.get("id") for s in job["steps"]], path


def test_two_pipelines_in_one_repo_keep_two_ledgers_and_each_reads_its_own_base(tmp_path):
    reusable, pipeline = (
        next(p for p in CALLED if p.name == name) for name in ("reusable.yml", "skill-evals.yml")
    )
    # One caller workflow running both pipelines on pull request 7 (same workflow name, same event).
    a = ledger_keys(reusable, tmp_path, "skills", "pull_request", pr=7)
    b = ledger_keys(pipeline, tmp_path, "skills", "pull_request", pr=7)
    for one, other in ((a, b), (b, a)):
        assert not one["branch"][0].startswith(other["branch"][1])  # neither restores the other's runs
        assert not one["base"][0].startswith(other["base"][1])
    # Two callers of one pipeline, by workflow name or by the ledger_name input.
    c = ledger_keys(reusable, tmp_path, "plugins", "pull_request", pr=7)
    d = ledger_keys(reusable, tmp_path, "skills", "pull_request", pr=7, name="plugins")
    assert not c["branch"][0].startswith(a["branch"][1]) and d == c
    # The pull request's base prefix finds its own pipeline's main ledger, and only main's.
    for path, pr in ((reusable, a), (pipeline, b)):
        main = ledger_keys(path, tmp_path, "skills", "push", ref="main")["branch"][0]
        assert main.startswith(pr["base"][1])
        other = ledger_keys(path, tmp_path, "skills", "push", ref="main-2")["branch"][0]
        assert not other.startswith(pr["base"][1])
        named_like_the_pr = ledger_keys(path, tmp_path, "skills", "push", ref="pr-7")["branch"][0]
        assert not named_like_the_pr.startswith(pr["branch"][1])
    # A workflow name holding a comma still makes a key the cache accepts.
    odd = ledger_keys(reusable, tmp_path, "lint, test: all", "push", ref="main")["branch"]
    assert "," not in odd[0] + odd[1] and len(odd[0]) <= 512
