"""`skillscope show`: the logs a behavioral run kept with --keep-logs (the real claude CLI against the
scripted fake API), read back as a table and as one case's transcript; and what a bad LOGS gets."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import FakeAPI, hermetic_env
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import agent_of, endpoint_env, find_runtime
from tests.support.behavioral import SCENARIOS, Behave, verdicts, writer_passes
from tests.support.kept_probes import sharing_probes
from tests.support.reports import tune_lexical
from tests.support.routing import CaseRouter, route, skills_repo
from tests.support.saved_reports import load

pytestmark = pytest.mark.xdist_group("show-writer-run")  # one worker makes the module's run


def show(cwd: Path, *argv: str) -> tuple[int, str, str]:
    ctx = Context(environ={}, cwd=cwd, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main(["show", *argv], ctx)
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue()


def graded_column(table: str) -> dict[str, str]:
    """The table's last column (the case as the report graded it) by log."""
    rows = [line.split("|") for line in table.splitlines()[2:] if line.startswith("|")]
    return {row[1].strip(): row[-2].strip() for row in rows}


# What the agent of the module's run says last: a tag a page must not run, an escape a terminal must not.
LAST_WORD = "Wrote report.md <script>alert(1)</script> Done\x1b[31m red"
SHELL = "printf 'status-ok\\n\\033[2J'"  # its output clears a terminal that takes it as written


@pytest.fixture(scope="module")
def writer_run(tmp_path_factory, claude_bin, kept_probes) -> Behave:
    """One real behavioral run for the module, which every test of its logs and report reads: the
    writer scenario's report-writer-pass case, its logs kept in `logs` beside the skills (a relative
    --keep-logs), the text report printed. The agent writes report.md and prints an escape through the
    shell; the judge fails E1, so the case fails with one unmet expectation."""
    tmp = tmp_path_factory.mktemp("kept")
    repo = tmp / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    script = writer_passes()
    script["status report"][1:] = [R.tool_use("Bash", {"command": SHELL}), LAST_WORD]
    script[JUDGE_HEADER] = [verdicts(("E1", False), ("E2", True))]
    with FakeAPI() as api:
        api.script(script)
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        with sharing_probes(kept_probes, env):
            run = Behave(repo, claude_bin, env)(
                "--only", "report-writer-pass", "--keep-logs", "logs", "--format", "text"
            )
    assert run.code == 1, run.stderr
    return run


@pytest.fixture
def kept(writer_run, tmp_path) -> Path:
    """A copy of that run's logs in the test's own folder (`tmp_path/logs`), which the test may change."""
    return Path(shutil.copytree(writer_run.repo / "logs", tmp_path / "logs"))


def test_the_table_lists_every_kept_stream_of_a_run(kept, tmp_path):
    code, out, err = show(tmp_path, "logs")
    assert (code, err) == (0, "")
    rows = [line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| report-writer")]
    cells = [[cell.strip() for cell in row] for row in rows]
    assert [row[:3] for row in cells] == [
        ["report-writer-pass.agent.jsonl", "agent", "claude"],
        ["report-writer-pass.judge-1.jsonl", "judge attempt 1", "claude"],
    ]
    assert cells[0][4] == "2" and cells[0][6] == "result"  # Write and Bash, then the CLI's result
    assert "skillscope show logs CASE prints a case's transcript." in out


def test_a_case_prints_what_the_agent_did_and_what_the_judge_was_asked(kept, tmp_path):
    code, out, err = show(tmp_path, "logs", "report-writer-pass")
    assert (code, err) == (0, "")
    agent = out.split("== report-writer-pass.agent.jsonl: agent (claude, ")[1].split("\n== ")[0]
    lines = agent.splitlines()
    assert lines[1] == "skills offered: report-writer"
    assert lines[2].startswith("  1. Write writes ") and lines[2].endswith("/report.md")
    assert f"  2. Bash $ {SHELL}" in lines
    assert lines[lines.index(f"  2. Bash $ {SHELL}") + 1 :][:2] == ["     -> ok", "        status-ok"]
    assert "final message:\n  Wrote report.md <script>alert(1)</script> Done" in agent
    assert "ended: the CLI's result event" in agent
    judge = out.split("== report-writer-pass.judge.txt: judge exchange\n")[1]
    assert "BEGIN-EVIDENCE-" in judge
    assert "== report-writer-pass.judge-1.jsonl: judge attempt 1 (claude" in out


def test_one_log_file_can_be_shown_alone_and_cut_short(kept, tmp_path):
    log = kept / "report-writer-pass.agent.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(line for line in lines if json.loads(line)["type"] != "result"), encoding="utf-8")
    code, out, _ = show(kept, log.name)
    assert code == 0
    assert "ended: the log ends before the CLI's last event" in out
    code, out, _ = show(tmp_path, "logs")
    assert "| cut short " in out


def test_text_from_the_agent_cannot_drive_the_terminal(kept, tmp_path):
    code, out, _ = show(tmp_path, "logs", "report-writer-pass", "--full")
    assert code == 0 and "\x1b" not in out  # neither the shell's output nor the last word's
    assert "Done\\x1b[31m red" in out


def test_unreadable_logs_are_named_and_fail_the_command(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "alpha.jsonl").write_text("segmentation fault\n", encoding="utf-8")
    code, out, _ = show(tmp_path, "logs")
    assert code == 1
    assert "| unreadable (below) |" in out
    assert "alpha.jsonl: no agent CLI's stream opens this way" in out
    code, out, _ = show(tmp_path, "logs", "alpha")
    assert code == 1 and "error: " in out and "--agent" in out
    code, out, _ = show(tmp_path, "logs", "alpha", "--agent", "claude")
    assert code == 0 and "1 lines were not JSON, starting: segmentation fault" in out


# --- a report names its logs and grades its cases --------------------------------------------------


def test_a_routing_report_leads_to_its_logs_and_heads_each_case(tmp_path, claude_bin, fake_api, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-2": R.skill("beta")}))
    args = ("--routing-room", "alpha,beta", "--only", "alpha-pos-1,alpha-pos-2", "--skip-preflight")
    run = route(repo, env, *args, "--no-cache", "--keep-logs", "logs", "--format", "text")  # logs: relative
    assert run.code == 1, run.stderr
    assert "; its transcript: skillscope show logs alpha-pos-2" in run.stdout  # the miss says how to read it
    assert "show logs alpha-pos-1" not in run.stdout  # a pass needs no reading
    kept = sorted(p.name for p in (repo / "logs").iterdir())
    assert kept == ["alpha-pos-1.jsonl", "alpha-pos-2.jsonl", "skillscope-canary-wren.jsonl"]

    code, out, err = show(tmp_path, "routing-report.json")  # the folder is found from the repo's root
    assert (code, err) == (0, "")
    rows = graded_column(out)
    assert rows == {
        "alpha-pos-1.jsonl": "pass",
        "alpha-pos-2.jsonl": "fail",
        "skillscope-canary-wren.jsonl": "canary activated",  # the canary's log, headed as such
    }

    code, out, _ = show(tmp_path, "routing-report.json", "alpha-pos-2")
    assert code == 0
    head, transcript = out.split("\n\n", 1)
    assert head.splitlines()[0] == "-- case alpha-pos-2: fail (alpha, positive)"
    assert head.splitlines()[2] == "   expect alpha; observed beta; verdict wrong_skill"
    assert transcript.startswith("== alpha-pos-2.jsonl: run (claude") and "  1. Skill beta" in transcript

    code, out, _ = show(tmp_path, "routing-report.json", "alpha-pos-2", "--html", "page.html")
    assert (code, out) == (0, "HTML page: page.html (1 case(s), 1 log(s))\n")
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<title>skillscope routing: fail</title>" in html and "alpha-pos-1" not in html


def test_a_behavioral_report_shows_the_unmet_expectations_above_the_transcript(writer_run, tmp_path):
    assert "read what the agent did (skillscope show logs report-writer-pass)" in writer_run.stdout
    code, out, _ = show(tmp_path, str(writer_run.report_path), "report-writer-pass")
    assert code == 0
    head = out.split("\n\n", 1)[0].splitlines()
    assert head[0] == "-- case report-writer-pass: fail (report-writer)"
    assert head[1].startswith("   prompt: ") and "status report" in head[1]
    assert [line for line in head if line.startswith("   unmet ")] == [
        "   unmet expected_behavior `Writes the status report into report.md`: judge: scripted E1"
    ]


@pytest.mark.parametrize(
    ("report", "message"),
    [
        ("{", "is not valid JSON"),
        ('{"command": "structural"}', "not the report of a run that keeps agent logs"),
        # one of a run that kept none: the sentence is tests/agent/test_kept_cases.py's
        ('{"command": "routing", "settings": {"values": {"keep-logs": null}}}', "kept no agent logs"),
    ],
)
def test_a_report_that_leads_to_no_logs_says_why(tmp_path, report, message):
    (tmp_path / "run.json").write_text(report, encoding="utf-8")
    code, out, err = show(tmp_path, "run.json")
    assert (code, out) == (2, "")
    # "run.json:1:" where the JSON parser names the line it stopped at
    assert re.match(r"error: run\.json(:\d+)?: ", err) and message in err and err.count("\n") == 1


# --- one HTML page -----------------------------------------------------------------------------------


class PageText(HTMLParser):
    """The page's text by element, and whether any script or external asset got in."""

    def __init__(self):
        super().__init__()
        self.cells: list[str] = []
        self.pres: list[str] = []
        self.tags: set[str] = set()
        self.links: list[str] = []
        self._where: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.links += [value for name, value in attrs if name in ("src", "href")]
        self._where.append(tag)
        if tag in ("td", "pre"):
            (self.cells if tag == "td" else self.pres).append("")

    def handle_endtag(self, tag):
        if self._where and self._where[-1] == tag:
            self._where.pop()

    def handle_data(self, data):
        if "pre" in self._where:
            self.pres[-1] += data
        elif "td" in self._where:
            self.cells[-1] += data


def test_a_report_and_its_logs_become_one_page_nothing_can_script(writer_run, tmp_path):
    code, out, err = show(tmp_path, str(writer_run.report_path), "--html", "page.html")
    assert (code, err) == (0, "")
    assert out == "HTML page: page.html (1 case(s), 3 log(s))\n"
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert html.count("<script>") == 1  # the page's own filter script, and nothing the agent wrote
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = PageText()
    page.feed(html)
    assert page.tags.isdisjoint({"img", "iframe", "link"})
    assert page.links == []  # no external asset, no link out
    row = page.cells.index("report-writer-pass")
    assert page.cells[row : row + 3] == ["report-writer-pass", "report-writer", "fail"]
    judged = page.cells.index("Writes the status report into report.md")  # the check, its verdict, why
    assert page.cells[judged - 2 : judged + 3] == [
        "judge",
        "expected_behavior",
        "Writes the status report into report.md",
        "fail",
        "judge: scripted E1",
    ]
    prompt, workspace, agent, judge, exchange = page.pres  # logs in file order: judge-1 before judge.txt
    assert "status report" in prompt and workspace == "created: report.md"
    assert f"  2. Bash $ {SHELL}" in agent and "Wrote report.md <script>alert(1)</script>" in agent
    assert "BEGIN-EVIDENCE-" in exchange and judge.startswith("skills offered: ")


def test_an_html_path_that_cannot_be_written_is_refused_before_reading(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "taken").write_text("a file, not a folder")
    code, out, err = show(tmp_path, "logs", "--html", "taken/page.html")
    assert (code, out) == (2, "")
    assert err.startswith("error: --html ") and "pass another path" in err


def test_a_matrix_report_heads_each_agents_logs_with_that_agents_own_case(
    tmp_path, claude_bin, fake_api, env
):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    codex = find_runtime("codex")
    if codex is None:
        pytest.fail("the codex CLI is needed for this test", pytrace=False)
    env.update(SKILLSCOPE_CODEX=codex, **endpoint_env("codex", fake_api.base_url))

    def codex_misroutes(request):
        return R.skill_for(agent_of(request), "beta" if agent_of(request) == "codex" else "alpha")

    fake_api.script(CaseRouter({"alpha-pos-1": codex_misroutes}))
    args = ("--agent", "claude,codex", "--routing-room", "alpha,beta", "--only", "alpha-pos-1")
    run = route(
        repo,
        env,
        *args,
        "--skip-preflight",
        "--min-accuracy",
        "0",
        "--model",
        "fake-model",
        "--keep-logs",
        "logs",
    )
    assert run.code == 0, run.stderr[-3000:]

    code, out, err = show(tmp_path, "routing-report.json")
    assert code == 0, err
    rows = graded_column(out)
    canary = "skillscope-canary-wren.jsonl"  # each agent's canary ran first, its log headed as such
    assert rows == {
        "claude/alpha-pos-1.jsonl": "pass",
        "codex/alpha-pos-1.jsonl": "fail",
        f"claude/{canary}": "canary activated",
        f"codex/{canary}": "canary activated",
    }
    code, out, _ = show(tmp_path, "routing-report.json", "alpha-pos-1")
    assert code == 0
    claude, codex_part = out.split("-- case alpha-pos-1: ")[1:]
    assert claude.startswith("pass") and "verdict correct_trigger" in claude and "== claude/" in claude
    assert (
        codex_part.startswith("fail")
        and "verdict wrong_skill" in codex_part
        and "(reads skill beta)" in codex_part
    )
    code, out, _ = show(tmp_path, "routing-report.json", "--html", "page.html")
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert code == 0 and "Cases (1 differ between legs, listed first)" in page
    assert (
        "<td><b>differs</b> alpha-pos-1</td><td>alpha</td><td>alpha (correct_trigger)</td>"
        "<td>beta (wrong_skill)</td>" in page
    )
    assert page.count("transcript: claude/alpha-pos-1.jsonl") == page.count("transcript: codex/alpha") == 1


@pytest.mark.parametrize("kept", [None, "gone"])
def test_a_reports_page_is_written_when_its_run_kept_no_log(tmp_path, kept):
    # A run that took every case from the result cache, or had no --keep-logs, still gets its page.
    report = {**load("routing"), "repo": str(tmp_path)}
    report["settings"]["values"]["keep-logs"] = kept
    report["cases"] = [case for case in report["cases"] if case["id"] == "alpha-pos-2"]
    (tmp_path / "run.json").write_text(json.dumps(report), encoding="utf-8")
    code, out, err = show(tmp_path, "run.json", "--html", "page.html")
    assert (code, out, err) == (0, "HTML page: page.html (1 case(s), 0 log(s))\n", "")
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "no agent log was kept" in page
    assert "<td>alpha-pos-2</td><td>positive</td><td>alpha</td><td>beta</td>" in page


def test_a_page_is_of_a_report_its_schema_reads(tmp_path):
    # The page reads the report as its schema has it: a report missing a field is refused, as --format does.
    report = load("routing")
    del report["totals"]
    (tmp_path / "run.json").write_text(json.dumps(report), encoding="utf-8")
    code, _, err = show(tmp_path, "run.json", "--html", "page.html")
    assert code == 2 and "not a routing report this skillscope version can render" in err
    assert "'totals' is a required property" in err and not (tmp_path / "page.html").exists()


def test_a_tune_report_becomes_its_page(tmp_path):
    report = tune_lexical(tmp_path)  # written beside the repo as tune-report.json
    code, out, err = show(tmp_path, "tune-report.json", "--html", "page.html")
    assert (code, err) == (0, "")
    assert out == f"HTML page: page.html ({len(report['candidates'])} candidate(s), 0 log(s))\n"
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<title>skillscope tune: pass</title>" in page and "none beat noise" in page


# --- a report shows only the logs its own run wrote ------------------------------------------------

FIXTURE_LOG = Path(__file__).parents[1] / "badinput" / "corpus" / "show-html-into-a-file" / "logs" / "a.jsonl"


def test_a_case_the_run_replayed_from_the_cache_shows_no_other_runs_log_under_its_name(tmp_path):
    """A folder shared by runs (`--keep-logs logs` each time) holds a later run's log under the name of a
    case this run replayed from the cache: shown beside this report, that log was graded as this run's."""
    report = load("routing")
    report["settings"]["values"]["keep-logs"] = "logs"
    for case in report["cases"]:
        for sample in case["samples"]:
            sample["cached"] = case["id"] == "alpha-pos-2"
    (tmp_path / "run.json").write_text(json.dumps(report), encoding="utf-8")
    (tmp_path / "logs").mkdir()
    for case in ("alpha-pos-1", "alpha-pos-2"):
        shutil.copy(FIXTURE_LOG, tmp_path / "logs" / f"{case}.jsonl")

    code, out, err = show(tmp_path, "run.json")
    assert code == 0 and list(graded_column(out)) == ["alpha-pos-1.jsonl"]
    assert "1 log(s) in" in err and "replayed from the result cache" in err
    code, _, err = show(tmp_path, "run.json", "alpha-pos-2")
    assert code == 2
    assert "this run replayed alpha-pos-2 from the result cache, which keeps no transcript" in err
    code, out, _ = show(tmp_path, "run.json", "--html", "page.html")
    assert code == 0 and out.endswith(", 1 log(s))\n")


def test_a_later_run_in_the_same_folder_never_shows_as_an_earlier_reports_case(
    tmp_path, claude_bin, fake_api, env
):
    """Two runs keep their logs in one folder: the later writes over the earlier's log of the same case,
    and the earlier report refuses it rather than head the later run's transcript with its own verdict."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    args = ("--routing-room", "alpha,beta", "--only", "alpha-pos-1", "--skip-preflight", "--no-cache")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    first = route(repo, env, *args, "--keep-logs", "logs", output=tmp_path / "first.json")
    assert first.code == 0, first.stderr
    kept = json.loads((tmp_path / "first.json").read_text(encoding="utf-8"))["kept_logs"]
    assert sorted(kept) == ["alpha-pos-1.jsonl", "skillscope-canary-wren.jsonl"]

    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("beta")}))
    second = route(repo, env, *args, "--keep-logs", "logs", output=tmp_path / "second.json")
    assert second.code == 1, second.stderr
    assert (
        "[routing] --keep-logs logs: this run wrote over 2 log(s) an earlier run kept there, which that "
        "run's report now refuses to show; give each run a folder of its own to keep both.\n"
    ) in second.stderr

    code, out, err = show(tmp_path, "first.json", "alpha-pos-1")
    assert (code, out) == (2, "")
    log = repo / "logs" / "alpha-pos-1.jsonl"
    assert err == (
        f"error: {log}: another run has written over this log since the run of first.json kept it, so it "
        "is not what that run's case did; give each run a --keep-logs folder of its own, and run the case "
        "again to read its transcript\n"
    )
    code, out, _ = show(tmp_path, "second.json", "alpha-pos-1")  # the later report reads its own
    assert code == 0 and "observed beta" in out and "  1. Skill beta" in out


def test_a_report_that_records_its_logs_leaves_out_the_rest_of_a_shared_folder(tmp_path):
    report = load("routing")
    report["settings"]["values"]["keep-logs"] = "logs"
    (tmp_path / "logs").mkdir()
    for case in ("alpha-pos-1", "alpha-pos-2"):
        shutil.copy(FIXTURE_LOG, tmp_path / "logs" / f"{case}.jsonl")
    own = hashlib.sha256((tmp_path / "logs" / "alpha-pos-1.jsonl").read_bytes()).hexdigest()
    report["kept_logs"] = {"alpha-pos-1.jsonl": own}  # alpha-pos-2's log is another run's
    (tmp_path / "run.json").write_text(json.dumps(report), encoding="utf-8")

    code, out, err = show(tmp_path, "run.json")
    assert code == 0 and list(graded_column(out)) == ["alpha-pos-1.jsonl"]
    assert (
        err
        == f"[show] 1 log(s) in {tmp_path / 'logs'} are not ones this run wrote: another run's, left out.\n"
    )
    code, _, err = show(tmp_path, "run.json", "alpha-pos-2")
    assert code == 2 and "this run kept no log of alpha-pos-2 there" in err
    code, out, _ = show(tmp_path, "run.json", "--html", "page.html")
    assert code == 0 and out.endswith(", 1 log(s))\n")
