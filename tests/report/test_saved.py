"""harness.report.saved: a saved report rendered again from its JSON alone. A history report comes back
in each form its own command prints and is refused, in one sentence, in the forms it has none of; a
report's page says what it counts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from harness.report import saved, schema_of
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


def report_kinds() -> list[tuple[str, dict]]:
    """(command, its report schema's properties) for every JSON report the harness writes."""
    kinds = []
    for path in sorted((Path(__file__).parents[2] / "schema").glob("*.schema.json")):
        properties = json.loads(path.read_text(encoding="utf-8")).get("properties", {})
        command = properties.get("command", {}).get("const")
        if command and path.name == f"{schema_of({'command': command})}.schema.json":  # a report show reads
            kinds.append((command, properties))
    return kinds


@pytest.mark.parametrize(("command", "properties"), report_kinds(), ids=[kind for kind, _ in report_kinds()])
def test_the_pages_count_line_reads_a_field_every_kind_of_report_has(command, properties):
    """A sweep report's `cases` is a count, not an array, and a cost report has none: the line said
    `0 case(s)` for both. Each kind's counted field is one its schema holds, an array or a count."""
    key, _ = saved.COUNTED.get(command, ("cases", "case(s)"))
    field = properties.get(key, {})
    counted = field.get("properties", {}).get("total", field)  # an envelope's counts: their total
    assert counted.get("type") in ("array", "integer"), (command, key)


def test_a_sweeps_count_line_says_how_many_cases_it_grades():
    assert saved.counted({"command": "sweep", "cases": 63, "findings": []}) == "63 case(s)"
    assert saved.counted({"command": "cost", "runs": [{}, {}]}) == "2 run(s)"
    assert saved.counted({"command": "select", "counts": {"total": 3}}) == "3 skill(s) planned"
