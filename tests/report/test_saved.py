"""harness.report.saved: a saved report rendered again from its JSON alone. A history report comes back
in each form its own command prints and is refused, in one sentence, in the forms it has none of; a
report's page says what it counts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from harness.report import saved
from tests.support import reports
from tests.support.reports import hostile_repo

pytestmark = pytest.mark.xdist_group("saved-history")  # one worker makes the module's ledger


def run(cwd: Path, *argv: str) -> tuple[int, str, str]:
    ctx = Context(environ={}, cwd=cwd, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main(list(argv), ctx)
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue()


@pytest.fixture(scope="module")
def ledger(tmp_path_factory) -> Path:
    """A repo whose ledger holds one lexical routing run (which history reads, and does not count), and
    the history report of it saved beside the repo."""
    repo = hostile_repo(tmp_path_factory.mktemp("history") / "repo")
    run(repo, "routing", "--engine", "lexical", "--routing-room", "all", "--repo", str(repo))
    code, out, err = run(repo, "history", "--repo", str(repo), "--format", "json")
    assert code == 0, err
    (repo.parent / "history.json").write_text(out, encoding="utf-8")
    return repo


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_a_history_report_prints_as_its_command_did(ledger, fmt):
    _, printed, _ = run(ledger, "history", "--repo", str(ledger), "--format", fmt)
    assert run(ledger, "show", "../history.json", "--format", fmt) == (0, printed, "")


def test_a_history_reports_page_is_the_one_its_command_wrote(ledger):
    assert run(ledger, "history", "--repo", str(ledger), "--html", "page.html")[0] == 0
    page = (ledger / "page.html").read_text(encoding="utf-8")
    assert run(ledger, "show", "../history.json", "--format", "html") == (0, page, "")


@pytest.mark.parametrize("fmt", ["junit", "sarif"])
def test_a_history_report_has_no_gate_to_print(ledger, fmt):
    code, out, err = run(ledger, "show", "../history.json", "--format", fmt)
    assert (code, out) == (2, "")
    assert f"../history.json: a history report has no {fmt} form; pass --format text, markdown or html" in err


def test_a_reports_page_counts_what_its_command_grades(tmp_path):
    structural = reports.structural(tmp_path)
    assert structural["findings"]
    page, counted = saved.report_page(structural, {}, kept_none=False)
    assert counted == f"{len(structural['findings'])} finding(s)" and saved.NO_LOG_KEPT not in page
    lexical = reports.lexical(tmp_path / "lexical")
    page, counted = saved.report_page(lexical, {}, kept_none=True)
    assert counted == f"{len(lexical['cases'])} case(s)" and saved.NO_LOG_KEPT in page
