"""harness.report.publish through `skillscope structural`: each --format on stdout, -q/-v, --output -,
the step summary whatever the format, latest-<command>.json, .skillscope/.gitignore, and runs at once."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from tests.support.helpers import make_skill, run_cli
from tests.support.nodes import kind_of, make_node
from tests.support.sarif import problems

LINE = re.compile(
    r"^(?P<path>[^:\s]+)(?::(?P<line>\d+))?: (?P<severity>error|warning): "
    r"(?P<rule>[a-z0-9-]+): (?P<message>.+)$"
)
SUMMARY = re.compile(r"^skillscope structural: (pass|fail|error): .+ \(\d+\.\ds\)$")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Two skills: `alpha` with two errors on line 2 of SKILL.md, `beta` with one warning."""
    root = tmp_path / "repo"
    make_skill(root, "alpha", frontmatter={"name": "Alpha", "description": "Does alpha."})
    make_skill(root, "beta", frontmatter={"name": "beta", "description": "Does beta.", "owner": "me"})
    return root


def structural(repo: Path, *extra: str, environ: dict | None = None):
    return run_cli(["structural", "--repo", str(repo), *extra], cwd=repo, environ=environ)


def runs(repo: Path) -> list[Path]:
    return sorted((repo / ".skillscope" / "runs").glob("structural-*.json"))


def test_text_is_a_line_per_finding_then_the_summary_and_the_report_path(repo: Path):
    run = structural(repo)
    assert run.code == 1 and run.stderr == ""
    *findings, summary, adopt, where = run.lines
    assert adopt.startswith("Adopting an existing catalog? `skillscope baseline`")  # no baseline yet
    assert [LINE.match(line).group("path", "line", "rule") for line in findings] == [
        ("alpha/SKILL.md", "2", "name-format"),
        ("alpha/SKILL.md", "2", "name-mismatch"),
        ("beta/SKILL.md", "4", "unknown-key"),
    ]
    assert SUMMARY.match(summary) and "2 skill(s)" in summary and "2 error(s), 1 warning(s)" in summary
    assert where == f"JSON report: {runs(repo)[0]}"
    assert "\x1b[" not in run.stdout  # not a terminal


def test_quiet_keeps_the_errors_and_the_summary(repo: Path):
    run = structural(repo, "-q")
    assert [line.split(": ")[1:3] for line in run.lines[:-1]] == [
        ["error", "name-format"],
        ["error", "name-mismatch"],
    ]
    assert SUMMARY.match(run.lines[-1])


def test_verbose_adds_each_skill_with_its_status(repo: Path):
    run = structural(repo, "--verbose")
    assert "FAIL alpha" in run.lines and "PASS beta" in run.lines


def test_quiet_and_verbose_together_are_a_usage_error(repo: Path):
    run = structural(repo, "-q", "-v")
    assert run.code == 2 and "not allowed with" in run.stderr


def colour_run(repo: Path, environ: dict) -> str:
    ctx = Context(environ=environ, cwd=repo, stdin=io.StringIO(), stdout=Terminal(), stderr=io.StringIO())
    main(["structural", "--repo", str(repo)], ctx)
    return ctx.stdout.getvalue()


def test_colour_on_a_terminal_unless_no_color(repo: Path):
    assert "\x1b[31m" in colour_run(repo, {})
    assert "\x1b[" not in colour_run(repo, {"NO_COLOR": "1"})


def test_output_dash_puts_the_json_report_on_stdout_and_nothing_else(repo: Path):
    run = structural(repo, "--output", "-", environ={"GITHUB_ACTIONS": "true"})
    report = json.loads(run.stdout)
    assert run.code == 1 and report["command"] == "structural" and report["status"] == "fail"
    assert not (repo / ".skillscope").exists()


def test_output_dash_needs_no_writable_folder(repo: Path, tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        run = run_cli(["structural", "--repo", str(repo), "--output", "-"], cwd=locked)
    finally:
        locked.chmod(0o755)
    assert run.code == 1 and json.loads(run.stdout)["command"] == "structural"


def test_output_dash_with_another_format_is_a_usage_error(repo: Path):
    run = structural(repo, "--output", "-", "--format", "sarif")
    assert run.code == 2 and "--output -" in run.stderr and run.stdout == ""
    assert structural(repo, "--output", "-", "--format", "json").code == 1


def test_format_json_prints_the_report_it_also_saves(repo: Path):
    run = structural(repo, "--format", "json")
    assert json.loads(run.stdout) == json.loads(runs(repo)[0].read_text())


def test_format_junit_prints_what_junit_writes(repo: Path, tmp_path: Path):
    run = structural(repo, "--format", "junit", "--junit", str(tmp_path / "j.xml"))
    assert run.stdout == (tmp_path / "j.xml").read_text(encoding="utf-8")
    suite = ET.fromstring(run.stdout).find("testsuite")
    assert (suite.attrib["tests"], suite.attrib["failures"]) == ("2", "1")


def test_format_sarif_is_valid_and_locates_every_finding(repo: Path):
    run = structural(repo, "--format", "sarif", environ={"GITHUB_ACTIONS": "true"})
    log = json.loads(run.stdout)  # no annotation lines mixed in
    assert problems(log) == []
    located = [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in log["runs"][0]["results"]
    ]
    assert located == [("name-format", 2), ("name-mismatch", 2), ("unknown-key", 4)]


@pytest.mark.parametrize("chosen", ["text", "json", "sarif"])
def test_the_step_summary_gets_markdown_whatever_the_format(repo: Path, tmp_path: Path, chosen: str):
    summary = tmp_path / "summary.md"
    structural(repo, "--format", chosen, environ={"GITHUB_STEP_SUMMARY": str(summary)})
    assert summary.read_text().startswith("## Structural check")


def test_latest_is_the_newest_report_and_skillscope_is_ignored_by_git(repo: Path):
    structural(repo)
    newest = structural(repo, "--skills-dir", "beta").lines[-1].removeprefix("JSON report: ")
    latest = repo / ".skillscope" / "runs" / "latest-structural.json"
    assert len(runs(repo)) == 2 and latest.read_text() == Path(newest).read_text()
    assert json.loads(latest.read_text())["skills"] == ["beta"]
    assert (repo / ".skillscope" / ".gitignore").read_text().splitlines()[0] == "*"


def test_git_ignores_the_reports_but_not_the_baseline(repo: Path):
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    structural(repo)
    (repo / ".skillscope" / "baseline.json").write_text("{}\n")
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", ".skillscope"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout.splitlines() == ["?? .skillscope/baseline.json"]


def test_a_gitignore_already_there_is_left_alone(repo: Path):
    (repo / ".skillscope").mkdir()
    (repo / ".skillscope" / ".gitignore").write_text("runs/\n")
    structural(repo)
    assert (repo / ".skillscope" / ".gitignore").read_text() == "runs/\n"


def test_a_file_where_the_reports_folder_goes_is_a_clear_error(repo: Path):
    (repo / ".skillscope").write_text("not a folder")
    run = structural(repo)
    assert run.code == 1 and run.stderr.startswith("error: cannot write the JSON report to")
    assert "Traceback" not in run.stderr


def test_runs_at_the_same_time_each_keep_their_own_report(repo: Path):
    count = 6
    start, results = threading.Barrier(count), {}

    def one(index: int) -> None:
        start.wait()
        results[index] = structural(repo, "--skills-dir", "alpha" if index % 2 else "beta")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    saved = runs(repo)
    named = {line.removeprefix("JSON report: ") for r in results.values() for line in r.lines[-1:]}
    assert len(saved) == count and named == {str(path) for path in saved}
    assert sorted(json.loads(p.read_text())["skills"][0] for p in saved) == ["alpha"] * 3 + ["beta"] * 3
    latest = json.loads((repo / ".skillscope" / "runs" / "latest-structural.json").read_text())
    assert latest in [json.loads(p.read_text()) for p in saved]
    leftovers = [p.name for p in (repo / ".skillscope").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.parametrize("flag", ["--output", "--junit", "--summary"])
def test_a_report_flag_naming_a_character_device_writes_into_it(
    repo: Path, tmp_path: Path, monkeypatch, flag
):
    """A report flag naming the null device, run as root, once replaced the device with the report:
    every report flag, on a private node of that device made in the test's folder, leaves it as it was."""
    device = make_node(tmp_path, "char-device", monkeypatch)
    before = kind_of(device)
    run = structural(repo, flag, str(device))
    assert run.code == 1, run.stderr  # the fixture's findings, graded as ever
    assert "error: cannot" not in run.stderr
    assert kind_of(device) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["char-device", "repo"]


@pytest.mark.parametrize("kind", ["block-device", "socket"])
@pytest.mark.parametrize("flag", ["--output", "--junit", "--summary"])
def test_a_report_flag_naming_no_file_is_a_usage_error_before_any_work(
    repo: Path, tmp_path: Path, monkeypatch, flag, kind
):
    node = make_node(tmp_path, kind, monkeypatch)
    before = kind_of(node)
    run = structural(repo, flag, str(node))
    assert run.code == 2
    assert run.stderr.count("\n") == 1 and f"{flag} {node} cannot be used (it is a" in run.stderr
    assert "name a file, or - for stdout" in run.stderr
    assert kind_of(node) == before


@pytest.mark.parametrize("flag", ["--output", "--junit", "--summary"])
def test_a_report_flag_through_a_link_of_the_repo_leading_out_is_refused_before_any_work(
    repo: Path, tmp_path: Path, flag: str
):
    """A pull request can commit `summary.md -> ../../home/you/.bashrc`; no report is written through it."""
    outside = tmp_path / "outside.md"
    outside.write_text("theirs\n")
    link = repo / "report.out"
    link.symlink_to("../outside.md")
    run = structural(repo, flag, str(link))
    assert run.code == 2 and run.stdout == ""
    assert run.stderr == (
        f"error: {flag} {link}: {os.path.realpath(link.parent)}/report.out is a symlink leading out of "
        f"{os.path.realpath(repo)} (to {os.path.realpath(outside)}); replace the link with a plain file "
        "or point it inside.\n"
    )
    assert outside.read_text() == "theirs\n" and link.is_symlink()


@pytest.mark.parametrize("flag", ["--output", "--junit", "--summary"])
def test_a_report_flag_through_a_link_inside_the_repo_writes_where_it_leads(repo: Path, flag: str):
    (repo / "reports").mkdir()
    link = repo / "report.out"
    link.symlink_to("reports/kept.out")
    run = structural(repo, flag, str(link))
    assert run.code == 1, run.stderr  # the fixture's findings
    assert link.is_symlink() and "alpha" in (repo / "reports" / "kept.out").read_text()


def test_a_report_path_named_outside_the_repo_is_the_users_own(repo: Path, tmp_path: Path):
    """--output /tmp/x.json is legitimate, and so is a link the user keeps outside the repo."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "latest.json").symlink_to("run-1.json")
    run = structural(repo, "--output", str(tmp_path / "mine" / "latest.json"))
    assert run.code == 1, run.stderr
    assert json.loads((tmp_path / "mine" / "run-1.json").read_text())["command"] == "structural"


def test_a_reports_folder_that_is_a_link_leading_out_is_refused(repo: Path, tmp_path: Path):
    (tmp_path / "elsewhere").mkdir()
    (repo / ".skillscope").symlink_to("../elsewhere")
    run = structural(repo)
    assert run.code == 1 and run.stderr.count("\n") == 1
    assert run.stderr.startswith(
        f"error: refused to write the JSON report to {repo / '.skillscope' / 'runs'}:"
    )
    assert "is a symlink leading out of" in run.stderr and "Traceback" not in run.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []
