"""Adopting rules step by step on a catalog shaped like a real one: `skillscope baseline`, known and
fixed findings, --warn, and the paid commands' structural gate honouring both."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import writer
from tests.fakeapi import replies as R
from tests.support.helpers import make_skill, run_cli, structural
from tests.support.routing import CaseRouter, route

CATALOG = Path(__file__).parent / "catalogs" / "adopting"
FILE_SIZE_LIMIT = 64  # bytes: far below any baseline


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(CATALOG, root)
    (root / ".git").mkdir()
    return root


def rules(report: dict, **marks) -> list[tuple[str, str]]:
    return [
        (f["rule"], f["path"]) for f in report["findings"] if all(f.get(k) == v for k, v in marks.items())
    ]


def test_the_catalog_fails_on_one_tier0_behavior_error_before_adoption(repo: Path, tmp_path: Path):
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 1
    assert rules(report, severity="error") == [("tier0-behavior", "release-notes/evals/evals.json")]


def test_baseline_then_structural_passes_with_one_known_finding(repo: Path, tmp_path: Path):
    wrote = run_cli(["baseline"], cwd=repo)
    assert wrote.code == 0 and "recorded 1 finding(s)" in wrote.stdout
    recorded = json.loads((repo / ".skillscope" / "baseline.json").read_text(encoding="utf-8"))
    assert [(e["rule"], e["path"], e["count"]) for e in recorded["findings"]] == [
        ("tier0-behavior", "release-notes/evals/evals.json", 1)
    ]
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 0
    assert rules(report, baseline="known") == [("tier0-behavior", "release-notes/evals/evals.json")]
    assert report["baseline"] == {
        "file": ".skillscope/baseline.json",
        "known": 1,
        "fixed": [],
        "demoted_rules": [],
        "demoted": 0,
        "raised_rules": [],
    }
    assert "1 known finding(s) recorded in `.skillscope/baseline.json`" in run.stdout
    assert "error (known)" in run.stdout


def test_a_new_finding_still_fails_and_a_fixed_one_is_reported(repo: Path, tmp_path: Path):
    assert run_cli(["baseline"], cwd=repo).code == 0
    pdf = repo / "pdf-forms" / "SKILL.md"
    pdf.write_text(
        pdf.read_text(encoding="utf-8").replace("name: pdf-forms", "name: PDF_forms"), encoding="utf-8"
    )
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 1 and ("name-format", "pdf-forms/SKILL.md") in rules(report, severity="error")
    assert ("name-format", "pdf-forms/SKILL.md") not in rules(report, baseline="known")

    pdf.write_text(
        pdf.read_text(encoding="utf-8").replace("name: PDF_forms", "name: pdf-forms"), encoding="utf-8"
    )
    data = repo / "release-notes" / "evals" / "evals.json"
    cases = json.loads(data.read_text(encoding="utf-8"))
    cases["evaluations"][0]["expected_behavior"] = ["Groups the changes by kind"]
    data.write_text(json.dumps(cases, indent=2), encoding="utf-8")
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 0 and report["baseline"]["known"] == 0
    assert [(e["rule"], e["path"]) for e in report["baseline"]["fixed"]] == [
        ("tier0-behavior", "release-notes/evals/evals.json")
    ]
    assert "skillscope baseline --prune" in run.stdout
    pruned = run_cli(["baseline", "--prune"], cwd=repo)
    assert pruned.code == 0 and "kept 0 finding(s), dropped 1" in pruned.stdout


def test_the_fingerprint_survives_an_unrelated_edit_that_moves_lines(repo: Path, tmp_path: Path):
    assert run_cli(["baseline"], cwd=repo).code == 0
    data = repo / "release-notes" / "evals" / "evals.json"
    data.write_text("\n\n\n" + data.read_text(encoding="utf-8"), encoding="utf-8")
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 0 and report["baseline"]["known"] == 1


def test_warn_demotes_a_rule_and_says_so(repo: Path, tmp_path: Path):
    run, report = structural(repo, "--warn", "tier0-behavior", tmp=tmp_path)
    assert run.code == 0
    assert rules(report, severity="warning", demoted=True) == [
        ("tier0-behavior", "release-notes/evals/evals.json")
    ]
    assert report["baseline"]["demoted_rules"] == ["tier0-behavior"] and report["baseline"]["demoted"] == 1
    assert "Demoted to warnings by --warn: `tier0-behavior`" in run.stdout


def test_a_broken_baseline_file_names_itself(repo: Path, tmp_path: Path):
    (repo / ".skillscope").mkdir()
    (repo / ".skillscope" / "baseline.json").write_text('{"findings": [', encoding="utf-8")
    run, _ = structural(repo, tmp=tmp_path)
    assert run.code == 2 and "baseline.json:1: is not valid JSON" in run.stderr


def test_routing_starts_once_the_baseline_records_the_finding(
    repo: Path, tmp_path: Path, fake_api, claude_bin, env
):
    refused = route(repo, env, "--routing-room", "all", "--skip-preflight", "--only", "pdf-forms-pos-1")
    assert refused.code == 1 and "structural error(s)" in refused.stderr and fake_api.requests == []

    assert run_cli(["baseline"], cwd=repo).code == 0
    fake_api.script(CaseRouter({"W-9": R.skill("pdf-forms")}))
    started = route(
        repo, env, "--routing-room", "all", "--skip-preflight", "--only", "pdf-forms-pos-1", "--no-canary"
    )
    assert started.code == 0, started.stderr
    report = json.loads(started.output.read_text(encoding="utf-8"))
    assert report["cases"][0]["verdict"] == "correct_trigger"


def test_a_new_broken_link_whose_name_differs_by_a_digit_from_a_fixed_one_fails(tmp_path: Path):
    """`step1.md` recorded, then created; `step2.md` newly broken: a new defect, not the known one."""
    root = tmp_path / "digits"
    make_skill(root, "alpha", body="# Alpha\n\nSee [notes](notes.md).\n")
    (root / "alpha" / "notes.md").write_text("# Notes\n\nThen [step one](step1.md).\n")
    (root / ".git").mkdir()
    assert run_cli(["baseline"], cwd=root).code == 0
    (root / "alpha" / "step1.md").write_text("# Step one\n")
    (root / "alpha" / "notes.md").write_text("# Notes\n\nThen [step one](step1.md) and [two](step2.md).\n")
    run, report = structural(root, tmp=tmp_path)
    assert run.code == 1, run.stdout
    broken = [f for f in report["findings"] if f["severity"] == "error" and f.get("baseline") is None]
    assert broken and all("step2.md" in f["message"] for f in broken)


def test_a_baseline_of_an_older_harness_is_read_by_todays_fingerprint(repo: Path, tmp_path: Path):
    assert run_cli(["baseline"], cwd=repo).code == 0
    written = repo / ".skillscope" / "baseline.json"
    data = json.loads(written.read_text(encoding="utf-8"))
    for entry in data["findings"]:
        entry["fingerprint"] = "0" * 20  # what another version's rule may have made of it
    written.write_text(json.dumps(data), encoding="utf-8")
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 0 and report["baseline"]["known"] == 1


@pytest.mark.parametrize("command", ["structural", "refs"])
def test_a_stale_entry_is_said_in_the_terminal_too(tmp_path: Path, command: str):
    root = tmp_path / "stale"
    make_skill(root, "alpha", body="# Alpha\n\nSee [notes](notes.md).\n")
    (root / ".git").mkdir()
    assert run_cli(["baseline"], cwd=root).code == 0
    (root / "alpha" / "notes.md").write_text("# Notes\n")
    run = run_cli([command, "--format", "text", "--output", str(tmp_path / "r.json")], cwd=root)
    assert run.code == 0, run.stdout + run.stderr
    summary = run.stdout.splitlines()[-2]
    assert "1 recorded finding(s) no longer occur: run `skillscope baseline --prune`" in summary


def test_refs_calls_no_structural_entry_fixed(repo: Path, tmp_path: Path):
    """refs checks links only: a recorded structural error it could not see is neither said to be gone
    nor offered to `baseline --prune`, which would keep it (a remedy that does nothing)."""
    assert run_cli(["baseline"], cwd=repo).code == 0
    recorded = json.loads((repo / ".skillscope" / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert recorded and not any(e["rule"].startswith("ref-") for e in recorded)
    output = tmp_path / "refs.json"
    run = run_cli(["refs", "--no-external", "--format", "text", "--output", str(output)], cwd=repo)
    assert run.code == 0, run.stdout + run.stderr
    assert "no longer occur" not in run.stdout
    assert json.loads(output.read_text(encoding="utf-8"))["baseline"]["fixed"] == []
    assert run_cli(["baseline", "--prune"], cwd=repo).code == 0
    kept = json.loads((repo / ".skillscope" / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert len(kept) == len(recorded)


@pytest.mark.parametrize(
    ("typed", "meant"), [("tier0-behaviour", "tier0-behavior"), ("name-formats", "name-format")]
)
def test_a_misspelt_warn_rule_is_a_usage_error_naming_the_rule_it_resembles(
    repo: Path, tmp_path, typed, meant
):
    """Accepted silently, it demoted nothing and the run failed with no hint why."""
    run, _ = structural(repo, "--warn", f"{typed},tier0-negatives", tmp=tmp_path)
    assert run.code == 2
    assert f"--warn {typed}: no rule of that name; did you mean {meant}?" in run.stderr


def test_a_warn_rule_like_no_rule_names_the_command_that_lists_the_rules(repo: Path, tmp_path):
    """It pointed at docs/rules.md, a page only the built docs site has; `skillscope rules` answers
    wherever the harness is installed, and lists the rule."""
    run, _ = structural(repo, "--warn", "zzz-nothing", tmp=tmp_path)
    assert run.code == 2
    assert "--warn zzz-nothing: no rule of that name; `skillscope rules` lists them." in run.stderr
    listed = run_cli(["rules"], cwd=repo)
    assert listed.code == 0 and "\ntier0-behavior " in listed.stdout


# --- a run that found no skill is never adopted -----------------------------------------------------------


@pytest.mark.parametrize("prune", [False, True])
def test_a_baseline_is_never_written_from_a_run_that_found_no_skill(repo: Path, prune: bool):
    """A mistyped --skills-dir once recorded `no-skill` (or, with --prune, emptied the baseline): every
    later run of that mistake then passed, graded nothing, as `pass: 0 skill(s)`."""
    assert run_cli(["baseline"], cwd=repo).code == 0
    written = repo / ".skillscope" / "baseline.json"
    before = written.read_text(encoding="utf-8")
    run = run_cli(["baseline", "--skills-dir", "skills/*", *(["--prune"] if prune else [])], cwd=repo)
    assert run.code == 1 and run.stdout == ""
    assert "no skill found: no directory matched by --skills-dir skills/*" in run.stderr
    assert "Nothing was recorded; .skillscope/baseline.json is left as it was." in run.stderr
    assert written.read_text(encoding="utf-8") == before


def test_a_recorded_no_skill_error_still_fails_and_cannot_be_demoted(tmp_path: Path):
    repo = Path(shutil.copytree(CATALOG.parent / "no-skill-baselined", tmp_path / "repo"))
    (repo / ".git").mkdir()
    run, report = structural(repo, tmp=tmp_path)
    assert run.code == 1 and report["status"] == "fail"
    assert [(f["rule"], f.get("baseline")) for f in report["findings"]] == [("no-skill", None)]
    assert report["baseline"]["fixed"] == []  # neither known nor gone: the run looked at nothing
    assert "skillscope baseline" not in run.stdout  # no remedy that would adopt it
    demoted, _ = structural(repo, "--warn", "no-skill", tmp=tmp_path)
    assert demoted.code == 2
    assert "--warn no-skill: a run that finds no skill graded nothing" in demoted.stderr


@pytest.mark.parametrize(
    "narrowing", [("--skill", "csv-cleaner"), ("--only", "csv-cleaner"), ("--skills-dir", "csv-cleaner")]
)
def test_a_narrowed_run_calls_no_finding_of_a_skill_it_left_out_fixed(repo: Path, tmp_path: Path, narrowing):
    """`structural --skill csv-cleaner` never looked at release-notes: its recorded finding is not gone.
    Nor when --skills-dir reached only csv-cleaner, where the run once said to prune it, and `baseline
    --prune` over that folder dropped it."""
    assert run_cli(["baseline"], cwd=repo).code == 0
    run, report = structural(repo, *narrowing, tmp=tmp_path)
    assert run.code == 0 and report["skills"] == ["csv-cleaner"]
    assert report["baseline"]["fixed"] == [] and "no longer occur" not in run.stdout
    assert run_cli(["baseline", "--prune", "--skills-dir", "csv-cleaner"], cwd=repo).code == 0
    whole, report = structural(repo, tmp=tmp_path)
    assert whole.code == 0 and report["baseline"]["known"] == 1


# --- where the baseline is written (harness.writer) -----------------------------------------------------


def test_a_committed_baseline_link_climbing_out_of_the_repo_is_refused_and_its_target_left_alone(
    repo: Path, tmp_path: Path
):
    (tmp_path / "home").mkdir()
    victim = tmp_path / "home" / "notes.txt"
    victim.write_text("the user's own file\n")
    (repo / ".skillscope").mkdir()
    (repo / ".skillscope" / "baseline.json").symlink_to("../../home/notes.txt")
    run = run_cli(["baseline"], cwd=repo)
    assert run.code == 1 and run.stdout == ""
    link, real = repo / ".skillscope" / "baseline.json", Path(os.path.realpath(repo))
    assert run.stderr == (
        f"error: refused to write the baseline to {link}: {real}/.skillscope/baseline.json is a symlink "
        f"leading out of {real} (to {os.path.realpath(victim)}); replace the link with a plain file or "
        "point it inside.\n"
    )
    assert victim.read_text() == "the user's own file\n"
    assert (repo / ".skillscope" / "baseline.json").is_symlink()


def test_a_baseline_link_inside_the_repo_is_written_through_and_kept(repo: Path):
    (repo / "policy").mkdir()
    (repo / ".skillscope").mkdir()
    (repo / ".skillscope" / "baseline.json").symlink_to("../policy/baseline.json")
    assert run_cli(["baseline"], cwd=repo).code == 0
    assert (repo / ".skillscope" / "baseline.json").is_symlink()
    assert json.loads((repo / "policy" / "baseline.json").read_text())["findings"]


def test_a_baseline_write_cut_short_by_a_full_disk_keeps_the_earlier_baseline(repo: Path, monkeypatch):
    assert run_cli(["baseline"], cwd=repo).code == 0
    path = repo / ".skillscope" / "baseline.json"
    earlier = path.read_bytes()
    real_beside = writer.beside

    def full_disk(real: str, private: bool, mode=None):
        temp, handle = real_beside(real, private, mode)
        handle.write(b'{"format": 1, "findi')  # part of it went through

        def no_space(data):
            raise OSError(errno.ENOSPC, "No space left on device")

        handle.write = no_space
        return temp, handle

    monkeypatch.setattr(writer, "beside", full_disk)
    run = run_cli(["baseline"], cwd=repo)
    assert run.code == 1
    assert run.stderr == (
        f"error: cannot write the baseline to {path} (No space left on device); fix --baseline.\n"
    )
    assert path.read_bytes() == earlier
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_baseline_write_past_the_file_size_limit_keeps_the_earlier_baseline(repo: Path):
    """The audit's probe: a real process whose writes stop at a file-size limit (as a full disk stops
    them) once truncated the baseline in place."""
    assert run_cli(["baseline"], cwd=repo).code == 0
    path = repo / ".skillscope" / "baseline.json"
    earlier = path.read_bytes()
    assert len(earlier) > FILE_SIZE_LIMIT

    def limited() -> None:  # Python ignores SIGXFSZ, so a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))

    done = subprocess.run(
        [sys.executable, "-m", "harness", "baseline"],
        cwd=repo,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=limited,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"error: cannot write the baseline to {path} (File too large); fix --baseline.\n"
    assert path.read_bytes() == earlier
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
