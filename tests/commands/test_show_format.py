"""`skillscope show REPORT --format F`: any saved report rendered again from its JSON alone, the same
text the run itself printed in that format; an old or foreign report is one sentence and exit 2."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from harness.report import REPORTS, html
from tests.fakeapi.server import FakeAPI
from tests.support import reports
from tests.support.kept_probes import sharing_probes
from tests.support.reports import hostile_repo
from tests.support.routing import routing_env

FORMATS = ("text", "markdown", "junit", "sarif")


def run(cwd: Path, env: dict[str, str], *argv: str) -> tuple[int, str, str]:
    ctx = Context(environ=env, cwd=cwd, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main(list(argv), ctx)
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue()


def printed_and_shown(repo: Path, env: dict[str, str], argv: list[str], fmt: str) -> tuple[str, str]:
    """What `argv --format fmt` printed, and what `show` prints of the report it wrote."""
    report = repo.parent / f"{argv[0]}-{fmt}.json"
    _, printed, _ = run(repo, env, *argv, "--repo", str(repo), "--output", str(report), "--format", fmt)
    code, shown, err = run(repo, env, "show", str(report), "--format", fmt)
    assert code == 0, err
    return printed, shown


OFFLINE = {
    "structural": ["structural"],
    "refs": ["refs", "--no-external"],
    "lexical": ["routing", "--engine", "lexical", "--routing-room", "all"],
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", sorted(OFFLINE))
def test_show_prints_an_offline_report_as_its_run_did(tmp_path, kind, fmt):
    repo = hostile_repo(tmp_path / "repo")
    if kind != "lexical":  # a finding to locate (routing's structural gate would refuse it)
        skill_md = repo / "beta" / "SKILL.md"
        skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nSee [gone](missing.md).\n", "utf-8")
    printed, shown = printed_and_shown(repo, {}, OFFLINE[kind], fmt)
    assert shown == printed
    assert printed.strip()


def test_show_prints_a_tune_report_and_its_page(tmp_path):
    report = tmp_path / "tune.json"
    report.write_text(json.dumps(reports.tune_lexical(tmp_path)), encoding="utf-8")
    code, text, _ = run(tmp_path, {}, "show", str(report), "--format", "markdown")
    assert code == 0 and "## Tuning `alpha`'s description" in text
    code, page, _ = run(tmp_path, {}, "show", str(report), "--format", "html")
    assert code == 0 and page.startswith("<!doctype html>") and "Content-Security-Policy" in page


def test_show_prints_an_agent_routing_report_as_its_run_did(tmp_path, claude_bin, kept_probes):
    """The real claude CLI against the scripted API: every format of the paid report, again from disk."""
    repo = hostile_repo(tmp_path / "repo")
    with FakeAPI() as api:
        api.script(reports.routing_router())
        env = routing_env(api.base_url, claude_bin, tmp_path / "home")
        report = tmp_path / "routing.json"
        argv = ["routing", "--routing-room", "all", "--only", "alpha-pos-1,alpha-pos-2,beta-neg-1"]
        argv += ["--skip-preflight", "--no-cache", "--repo", str(repo), "--output", str(report)]
        with sharing_probes(kept_probes, env):
            _, printed, _ = run(repo, env, *argv, "--format", "junit")
    for fmt in FORMATS:
        code, shown, err = run(repo, {}, "show", str(report), "--format", fmt)
        assert code == 0, err
        if fmt == "junit":
            assert shown == printed
    assert "routing case `alpha-pos-2`" in run(repo, {}, "show", str(report), "--format", "text")[1]


def old(report: dict) -> dict:
    """The report as an earlier version wrote it: without the fields its renderers read today."""
    del report["folders"]
    return report


@pytest.mark.parametrize(
    ("body", "said"),
    [
        pytest.param(lambda r: json.dumps(old(r)), "'folders' is a required property", id="older-version"),
        pytest.param(lambda r: json.dumps({"x": 1}), "not a report skillscope writes", id="not-a-report"),
        pytest.param(lambda r: "{not json", "pass a JSON report skillscope wrote", id="not-json"),
    ],
)
def test_a_report_it_cannot_render_is_one_sentence_naming_the_file_and_exit_2(tmp_path, body, said):
    repo = hostile_repo(tmp_path / "repo")
    report = tmp_path / "run.json"
    run(repo, {}, "structural", "--repo", str(repo), "--output", str(report))
    report.write_text(body(json.loads(report.read_text(encoding="utf-8"))), encoding="utf-8")
    code, out, err = run(tmp_path, {}, "show", "run.json", "--format", "text")
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "run.json" in line and said in line and "Traceback" not in err


def test_format_is_for_a_whole_report(tmp_path):
    shutil.copytree(hostile_repo(tmp_path / "repo"), tmp_path / "copy")
    report = tmp_path / "run.json"
    run(tmp_path / "copy", {}, "structural", "--repo", str(tmp_path / "copy"), "--output", str(report))
    code, _, err = run(tmp_path, {}, "show", "run.json", "alpha-pos-1", "--format", "text")
    assert code == 2 and "drop the CASE ids" in err


def select_plan(repo: Path) -> str:
    code, plan, err = run(repo, {}, "select", "--all", "--routing-room", "all", "--repo", str(repo))
    assert code == 0, err
    return plan


PAGELESS = {"select": select_plan}  # the reports with no page of their own: every other kind has one


# A kind is a command's report, or an engine's (routing-lexical): the page is the command's.
PAGED = {kind for kind in REPORTS if kind.removesuffix("-lexical") in html.SECTIONS}


@pytest.mark.parametrize("kind", sorted(set(REPORTS) - PAGED))
def test_a_report_without_a_page_renders_in_every_other_format_and_refuses_html(tmp_path, kind):
    repo = hostile_repo(tmp_path / "repo")
    saved = tmp_path / f"{kind}.json"
    saved.write_text(PAGELESS[kind](repo), encoding="utf-8")
    for fmt in FORMATS:
        code, out, err = run(tmp_path, {}, "show", saved.name, "--format", fmt)
        assert code == 0 and out.strip(), f"{kind} --format {fmt}: exit {code}: {err}"
    code, out, err = run(tmp_path, {}, "show", saved.name, "--format", "html")
    assert code == 2 and out == "" and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert saved.name in line and "has no page" in line and "--format text" in line
