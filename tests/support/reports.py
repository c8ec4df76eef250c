"""Real reports for the report page's tests: each graded command run in-process (the paid ones in the
real claude CLI against the scripted API) on a small repo, its JSON report returned.

Not a conftest: the page tests import what they use. Hostile text (markup, a bidi override, an escape
sequence) rides in a case id and a prompt, as a dataset or an agent could put it there.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from harness.tune.propose import HEADER as PROPOSAL_HEADER
from tests.fakeapi import replies as R
from tests.fakeapi.server import FakeAPI
from tests.support.behavioral import SCENARIOS, verdicts
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import NO_SKILL_TEXT, CaseRouter, routing_env
from tests.support.select import select

HOSTILE = '<script>alert("x")</script>\u202eevil\x1b[2J'
HOSTILE_ID = "alpha-hostile"


def hostile_repo(root: Path, case_id: str = HOSTILE_ID) -> Path:
    """Skills alpha, beta and gamma; alpha's dataset holds a case whose prompt carries markup (and its
    id too, when `case_id` says so: structural reports the id it refuses)."""
    for name in ("beta", "gamma"):
        make_skill(root, name)
    dataset = evals_for("alpha")
    dataset["evaluations"].append(
        {"id": case_id, "prompt": f"Please do the alpha job {HOSTILE}", "skill_should_trigger": True}
    )
    make_skill(root, "alpha", evals=dataset)
    return root


def run(cwd: Path, env: dict[str, str], *argv: str) -> dict:
    """`skillscope ARGV` in-process; the JSON report it wrote to cwd/../report.json."""
    output = cwd.parent / f"{argv[0]}-report.json"
    output.unlink(missing_ok=True)
    ctx = Context(environ=env, cwd=cwd, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main([*argv, "--repo", str(cwd), "--output", str(output)], ctx)
    if not output.exists():
        raise AssertionError(f"{argv[0]} wrote no report (exit {code}): {ctx.stderr.getvalue()[-2000:]}")
    return json.loads(output.read_text(encoding="utf-8"))


def routing_router() -> CaseRouter:
    """alpha-pos-1 right, alpha-pos-2 lost to beta, alpha-pos-3 flaky, beta-neg-1 a false trigger, the
    hostile case right; the rest answer alone."""
    return CaseRouter(
        {
            "alpha-pos-1": R.skill("alpha"),
            "alpha-pos-2": R.skill("beta"),
            "alpha-pos-3": [R.skill("alpha"), "I can answer that directly."],
            "beta-pos-1": R.skill("beta"),
            "beta-pos-2": R.skill("beta"),
            "beta-pos-3": R.skill("beta"),
            "gamma-pos-1": R.skill("gamma"),
            "near beta that it should not answer, variant 1.": R.skill("beta"),
            "alpha job <script>": R.skill("alpha"),
        }
    )


ROUTING_CASES = (
    "alpha-pos-1,alpha-pos-2,alpha-pos-3,beta-pos-1,beta-neg-1,gamma-pos-1,gamma-neg-1,alpha-hostile"
)
SMALL_ROUTING_CASES = "alpha-pos-2,alpha-hostile"  # a case lost to beta (a matrix cell), the hostile one


def routing(
    tmp: Path, api: FakeAPI, claude: str, *extra: str, only: str = ROUTING_CASES, repeat: int = 2
) -> dict:
    api.script(routing_router())
    return routing_in(tmp, routing_env(api.base_url, claude, tmp / "home"), *extra, only=only, repeat=repeat)


def routing_in(
    tmp: Path, env: dict[str, str], *extra: str, only: str = ROUTING_CASES, repeat: int = 2
) -> dict:
    """`routing`'s run in `env`, whatever answers its agent runs."""
    repo = hostile_repo(tmp / "repo")
    args = ("--routing-room", "all", "--only", only, "--repeat", str(repeat), "--min-accuracy", "0.9")
    return run(repo, env, "routing", *args, "--skip-preflight", "--no-cache", *extra)


def lexical(tmp: Path) -> dict:
    repo = hostile_repo(tmp / "repo")
    return run(repo, {}, "routing", "--engine", "lexical", "--routing-room", "all")


def structural(tmp: Path) -> dict:
    repo = hostile_repo(tmp / "repo", f"alpha-{HOSTILE}")
    (repo / "alpha" / "SKILL.md").write_text(
        (repo / "alpha" / "SKILL.md").read_text(encoding="utf-8") + "\nSee [gone](missing.md).\n",
        encoding="utf-8",
    )
    return run(repo, {}, "structural")


def refs(tmp: Path) -> dict:
    repo = hostile_repo(tmp / "repo")
    (repo / "beta" / "SKILL.md").write_text(
        (repo / "beta" / "SKILL.md").read_text(encoding="utf-8") + "\nSee [gone](missing.md#x).\n",
        encoding="utf-8",
    )
    return run(repo, {}, "refs")


BEHAVIORAL_CASES = "report-writer-pass,report-writer-unmet"


def behavioral(
    tmp: Path,
    api: FakeAPI,
    claude: str,
    env: dict[str, str],
    only: str = BEHAVIORAL_CASES,
    models: str = "claude-fake-1",
) -> dict:
    api.script(
        {
            JUDGE_HEADER: [verdicts(("E1", False), ("E2", True))],
            "status report": [
                R.tool_use("Write", {"file_path": "{{cwd}}/report.md", "content": "# Week\n"}),
                R.tool_use("Bash", {"command": "echo status-ok"}),
                f"Wrote report.md {HOSTILE}",
            ],
        }
    )
    return behavioral_in(tmp, {**env, "SKILLSCOPE_CLAUDE": claude}, only, models)


def behavioral_in(
    tmp: Path, env: dict[str, str], only: str = BEHAVIORAL_CASES, models: str = "claude-fake-1"
) -> dict:
    """`behavioral`'s run in `env`, whatever answers its agent and judge runs."""
    repo = tmp / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    args = ("--skills-dir", "*", "--only", only, "--skip-preflight", "--model", models)
    return run(repo, env, "behavioral", *args)


def cost(tmp: Path, api: FakeAPI, claude: str) -> dict:
    repo = hostile_repo(tmp / "repo")

    def agent(request):
        if request.tool_results:
            return "Done with alpha."
        return R.skill("alpha") if "Does the alpha job" in json.dumps(request.body) else "I answer myself."

    api.script(agent)
    env = routing_env(api.base_url, claude, tmp / "home")
    prompt = "Please do the alpha job, variant 1."
    return run(repo, env, "cost", prompt, "--skill", "alpha", "--room", "beta", "--skip-preflight")


def compare(tmp: Path, api: FakeAPI, claude: str, *extra: str, repeat: int = 2) -> dict:
    """alpha with and without itself installed (--baseline none): beta takes alpha-pos-2 without it.
    `extra` may narrow the cases (`--only`)."""

    def router(request):
        if request.tool_results:
            return "done."
        installed = "Does the alpha job" in json.dumps(request.body)
        if "variant 2." in request.prompt and not installed:
            return R.skill("beta")
        if "the alpha job" in request.prompt:
            return R.skill("alpha") if installed else "I will answer myself."
        return "I can answer that directly."

    api.script(router)
    return compare_in(tmp, routing_env(api.base_url, claude, tmp / "home"), *extra, repeat=repeat)


def compare_in(tmp: Path, env: dict[str, str], *extra: str, repeat: int = 2) -> dict:
    """`compare`'s run in `env`, whatever answers its agent runs."""
    return run(
        hostile_repo(tmp / "repo"),
        env,
        "compare",
        "--skill",
        "alpha",
        "--baseline",
        "none",
        "--mode",
        "routing",
        "--routing-room",
        "alpha,beta",
        "--repeat",
        str(repeat),
        "--skip-preflight",
        "--no-cache",
        *extra,
    )


TUNE_ROOM = Path(__file__).resolve().parent.parent / "tune" / "room"  # alpha files invoices, beta ledgers
TUNE_TOPICS = {"receipt", "ledger", "weather"}
TUNE_BAD = "Reads the weather forecast and the ledger, and answers questions about both."
TUNE_STEALER = "Reads a receipt or a ledger and works out its total."
TUNE_GOOD = f"Reads a receipt and works out its total. Use for any receipt. {HOSTILE}"


def tune(tmp: Path, api: FakeAPI, claude: str) -> dict:
    """`tune alpha` in the real claude CLI: the proposer's call answers TUNE_GOOD (hostile text riding
    in it, so in the diff), routing fires the skill sharing the most topic words with the prompt. From
    the file: one candidate stopped early, one stealing beta's cases, one too long for structural."""
    repo = tmp / "repo"
    shutil.copytree(TUNE_ROOM, repo)

    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z]+", text.lower()))

    def router(request):
        if request.tool_results:
            return "done."
        if PROPOSAL_HEADER in request.prompt:
            return json.dumps([TUNE_GOOD])
        asked = words(request.prompt) & TUNE_TOPICS
        shared = {name: len(words(text) & asked) for name, text in sorted(request.skill_listing.items())}
        best = max(shared, key=lambda name: shared[name], default=None)
        return R.skill(best) if best and shared[best] else NO_SKILL_TEXT

    api.script(router)
    (repo / "mine.json").write_text(json.dumps([TUNE_BAD, TUNE_STEALER, "x" * 1500]), encoding="utf-8")
    env = routing_env(api.base_url, claude, tmp / "home")
    args = ("--skip-preflight", "--no-builtin-negatives", "--confidence", "0.8", "--propose", "1")
    return run(repo, env, "tune", "alpha", *args, "--candidates", "mine.json")


def tune_lexical(tmp: Path) -> dict:
    """`tune alpha` on the lexical engine (offline, free) with one candidate no better than the current
    description: none beats noise, nothing goes to final, there is no diff."""
    repo = tmp / "repo"
    shutil.copytree(TUNE_ROOM, repo)
    (repo / "mine.json").write_text(json.dumps([TUNE_BAD]), encoding="utf-8")
    return run(
        repo,
        {"HOME": str(tmp / "home"), "PATH": ""},
        "tune",
        "alpha",
        "--engine",
        "lexical",
        "--candidates",
        "mine.json",
    )


SWEPT = Path(__file__).resolve().parent.parent / "sweep" / "clause_cut"


def sweep(tmp: Path) -> dict:
    repo = Path(shutil.copytree(SWEPT, tmp / "repo"))
    sizes = ("--sizes", "3,10", "--repeat", "2")
    return run(repo, {}, "sweep", "--skills-dir", "skills/*", "--agent", "codex", *sizes)


def plan(tmp: Path) -> dict:
    return select(hostile_repo(tmp / "repo"), "--all", "--routing-room", "all").plan


def history(tmp: Path) -> dict:
    """The history of a ledger holding one lexical routing run (history reads it, and counts none)."""
    repo = hostile_repo(tmp / "repo")
    run(repo, {}, "routing", "--engine", "lexical", "--routing-room", "all")
    ctx = Context(environ={}, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    assert main(["history", "--repo", str(repo), "--format", "json"], ctx) == 0, ctx.stderr.getvalue()
    return json.loads(ctx.stdout.getvalue())


OFFLINE = {  # the free commands' reports, written by real in-process runs
    "structural": structural,
    "refs": refs,
    "lexical": lexical,
    "tune-lexical": tune_lexical,
    "sweep": sweep,
    "select": plan,
    "history": history,
}
