"""Bad input git cannot hold (a 50 MB file, a chmod 000 file): findings, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

from harness import files
from tests.support.helpers import make_skill, rules, structural

FIFTY_MB = 50 * 1024 * 1024


def write_huge(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(FIFTY_MB)  # sparse: cheap to make, still 50 MB to a reader
    with open(path, "r+b") as handle:
        handle.write(b"---\nname: demo\n")


def test_a_50_mb_skill_md_is_one_unreadable_finding(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo")
    write_huge(folder / "SKILL.md")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1 and run.stderr == ""
    assert "skill-md-unreadable" in rules(report, "error")
    finding = next(f for f in report["findings"] if f["rule"] == "skill-md-unreadable")
    assert "MB" in finding["message"]


def test_a_50_mb_dataset_is_one_unreadable_finding(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo")
    write_huge(folder / "evals" / "evals.json")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1
    assert rules(report, "error") == ["dataset-unreadable"]


def test_read_text_reads_no_more_than_the_limit_plus_one_byte(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 101)
    try:
        files.read_text(path, limit=100)
    except files.UnreadableFile as exc:
        assert "larger than" in exc.reason
    else:
        raise AssertionError("a file over the limit was read")


def test_a_chmod_000_skill_md_is_read_only_by_a_user_allowed_to(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo")
    (folder / "SKILL.md").chmod(0)
    try:
        readable = os.access(folder / "SKILL.md", os.R_OK)  # root reads through chmod 000
        run, report = structural(tmp_path / "repo", tmp=tmp_path)
    finally:
        (folder / "SKILL.md").chmod(0o644)
    if readable:
        assert (run.code, rules(report, "error")) == (0, [])
    else:
        assert rules(report, "error") == ["skill-md-unreadable"]
        assert "ermission" in report["findings"][0]["message"]


def test_a_chmod_000_dataset_folder_is_a_finding_or_read_as_root(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo")
    (folder / "evals").chmod(0)
    try:
        readable = os.access(folder / "evals", os.R_OK | os.X_OK)
        run, report = structural(tmp_path / "repo", tmp=tmp_path)
    finally:
        (folder / "evals").chmod(0o755)
    assert run.stderr == ""
    if readable:
        assert rules(report, "error") == []
    else:
        assert rules(report, "error") == ["dataset-missing"]


def test_a_directory_named_skill_md_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo", skill_md=None)
    (folder / "SKILL.md").mkdir()
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1 and run.stderr == ""
    assert "skill-md-unreadable" in rules(report, "error")


def test_a_dangling_skill_md_symlink_is_passed_over_like_a_missing_file(tmp_path: Path) -> None:
    folder = make_skill(tmp_path / "repo", "demo", skill_md=None)
    (folder / "SKILL.md").symlink_to(tmp_path / "nowhere.md")
    make_skill(tmp_path / "repo", "real")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert report["skills"] == ["real"]


def test_a_permission_error_while_probing_counts_as_present_so_the_reader_reports_it(
    tmp_path: Path, monkeypatch
) -> None:
    # Root reads through chmod 000, so the non-root case is provoked directly: stat says EACCES.
    folder = make_skill(tmp_path / "repo", "demo")
    real_stat, real_open = os.stat, os.open
    locked = {str(folder / "SKILL.md"), str(folder / "evals" / "evals.json")}

    def stat(path, *args, **kwargs):
        if str(path) in locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    def guarded_open(path, *args, **kwargs):
        if str(path) in locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "open", guarded_open)  # files are opened with os.open, not to block on pipes
    assert files.present(folder / "SKILL.md")
    assert not files.present(folder / "missing.md")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.stderr == ""
    assert sorted(rules(report, "error")) == ["dataset-unreadable", "skill-md-unreadable"]
    assert all("Permission denied" in f["message"] for f in report["findings"])


def test_named_pipes_are_findings_not_a_wait_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO for reading blocks until something writes to it; nothing ever would."""
    folder = make_skill(tmp_path / "repo", "demo", files={"references/notes.md": "# Notes\n"})
    for name in ("SKILL.md", "references/notes.md", "evals/evals.json"):
        (folder / name).unlink()
        os.mkfifo(folder / name)
    os.mkfifo(folder / "evals" / "machine.yml")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1 and run.stderr == ""
    found = {(f["rule"], f["path"]) for f in report["findings"]}
    assert found >= {
        ("skill-md-unreadable", "demo/SKILL.md"),
        ("ref-unreadable", "demo/references/notes.md"),
        ("dataset-unreadable", "demo/evals/evals.json"),
        ("machine-unreadable", "demo/evals/machine.yml"),
    }
    unreadable = [f["message"] for f in report["findings"] if "unreadable" in f["rule"]]
    assert all("named pipe (FIFO), not a regular file" in message for message in unreadable)
