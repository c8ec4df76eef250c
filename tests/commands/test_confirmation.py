"""Every paid command asks a person at a terminal before its first paid request: the plan its dry run
prints and the spend cap on stderr, then `[y/N]`; nothing is sent without a yes. `--yes`, a stream that is
not a terminal, or CI never ask. (tune's own question is tested in test_tune.py.) A yes starts the run on
the real claude CLI; the runs that are never asked about are the harness's own gate, so their runtime is
scripted (tests/support/scripted.py)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.behavioral import SCENARIOS
from tests.support.routing import CaseRouter, skills_repo

pytestmark = pytest.mark.usefixtures("clean_runs")

QUESTION = "Start the paid run? [y/N] "
DECLINED = "nothing was sent: the plan was not confirmed."


class Terminal(io.StringIO):
    """A stream a person sits at."""

    def isatty(self) -> bool:
        return True


def command_line(name: str, tmp_path: Path) -> tuple[Path, list[str], str]:
    """A repo, the argv of one small paid run of `name` on it, and the heading of its dry run."""
    if name == "behavioral":
        repo = tmp_path / "writer"
        shutil.copytree(SCENARIOS / "writer", repo)
        argv = ["behavioral", "--skills-dir", "*", "--only", "report-writer-pass"]
        return repo, argv, "## Behavioral dry run: nothing was sent"
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    if name == "routing":
        return (
            repo,
            ["routing", "--routing-room", "alpha,beta", "--only", "alpha-pos-1"],
            "## Routing dry run",
        )
    if name == "compare":
        held = shutil.copytree(repo / "alpha", tmp_path / "alpha-before")
        argv = ["compare", "--skill", "alpha", "--mode", "routing", "--only", "alpha-pos-1", "--repeat", "1"]
        return repo, [*argv, "--baseline", str(held)], "## Compare dry run: nothing was sent"
    return repo, ["cost", "Please do the alpha job.", "--skill", "alpha"], "## Cost dry run: nothing was sent"


def run(
    name: str, tmp_path: Path, env: dict, *args: str, answer: str | None = "n\n"
) -> tuple[int, str, str, Path]:
    """The command at a terminal answering `answer` (None: stdin and stderr are not terminals)."""
    repo, argv, heading = command_line(name, tmp_path)
    output = tmp_path / "report.json"
    stdin, stderr = (io.StringIO(), io.StringIO()) if answer is None else (Terminal(answer), Terminal())
    ctx = Context(environ=dict(env), cwd=repo, stdin=stdin, stdout=io.StringIO(), stderr=stderr)
    code = main([*argv, "--repo", str(repo), "--skip-preflight", "--output", str(output), *args], ctx)
    return code, heading, ctx.stderr.getvalue(), output


@pytest.mark.parametrize("name", ["routing", "behavioral", "compare", "cost"])
def test_at_a_terminal_the_plan_is_shown_and_nothing_is_sent_without_a_yes(name, tmp_path, env, fake_api):
    code, heading, stderr, output = run(name, tmp_path, env)
    assert code == 1 and not output.exists()
    assert fake_api.requests == []
    # The plan is the dry run's, on stderr; then the spend cap, the question, and what became of it.
    assert stderr.index(heading) < stderr.index("Spend cap: none (set --max-run-usd).")
    assert stderr.index("Spend cap") < stderr.index(QUESTION) < stderr.index(f"[{name}] {DECLINED}")


def test_a_yes_at_the_terminal_starts_the_run(tmp_path, env, fake_api):
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    code, _, stderr, output = run(
        "routing", tmp_path, env, "--no-canary", "--max-run-usd", "2", answer="yes\n"
    )
    assert "Spend cap: $2 (--max-run-usd)." in stderr and QUESTION in stderr
    assert DECLINED not in stderr
    assert fake_api.requests and json.loads(output.read_text(encoding="utf-8"))["command"] == "routing"
    assert code == 0, stderr


@pytest.mark.parametrize(
    ("args", "answer", "ci"),
    [(("--yes",), "n\n", None), ((), None, None), ((), "n\n", "true")],
    ids=["--yes", "not-a-terminal", "ci"],
)
def test_nothing_is_asked_with_yes_off_a_terminal_or_in_ci(tmp_path, scripted, args, answer, ci):
    scripted.script(lambda ran: S.fires("alpha"))  # the one case, alpha-pos-1, fires alpha
    env = {"HOME": str(tmp_path / "home"), "PATH": "", "ANTHROPIC_API_KEY": "test-key"}
    environ = {**env, "CI": ci} if ci else env
    code, _, stderr, output = run("routing", tmp_path, environ, "--no-canary", *args, answer=answer)
    assert QUESTION not in stderr and DECLINED not in stderr
    assert code == 0 and scripted.case_runs() and output.exists(), stderr
