"""Routing on every agent CLI: time to decision and model requests per case, per agent.

    python benchmarks/agents_bench.py [--agents claude,copilot,codex,gemini,opencode] [--cases 6]

Each agent's CLI is found as the tests find it ($SKILLSCOPE_TEST_<AGENT>, else its name on PATH).
Everything runs against the scripted fake model API (tests/fakeapi) on 127.0.0.1, which answers
each agent in its own wire protocol. The repo has two skills; half the cases should fire one, half
none. The fake fires the owning skill in the agent's own skill tool (Codex: a `cat` of its SKILL.md)
and answers in text otherwise.

Figures printed per agent: median and worst seconds from the CLI's start to the routing decision
(the harness stops there; a case without a skill runs to its end), model requests per case (what the
stop at the decision leaves), and the report's accuracy. Printed, never asserted. The routing canary is
off (`--no-canary`): its one request is per run, not per case, and would count against the cases.

Each agent runs in a fresh home, so skillscope probes its CLI (`--version`, `--help`) before the
cases, and Copilot CLI unpacks its package there on its first start; neither is in a figure.
`--kept-probes DIR` starts each home with the probe answers an earlier run kept in DIR (the test
suite's), and a $COPILOT_CACHE_HOME set here is Copilot's unpacked package: each agent then starts its
CLI for its cases only, as on a machine that has run skillscope before.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi and tests.support live beside the package

from harness.agent.probes import PROBES  # noqa: E402
from harness.cli import main  # noqa: E402
from harness.context import Context  # noqa: E402
from harness.memo import user_cache  # noqa: E402
from tests.fakeapi import FakeAPI  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.fakeapi.cli import find_claude  # noqa: E402
from tests.fakeapi.runtimes import agent_of, endpoint_env, find_runtime  # noqa: E402
from tests.support.helpers import make_skill  # noqa: E402
from tests.support.kept_probes import copy_missing  # noqa: E402

AGENTS = ("claude", "copilot", "codex", "gemini", "opencode")


def router(request):
    """Fire `alpha` or `beta` when the prompt names its job, in the asking agent's own tool."""
    if request.tool_results:
        return "done."
    for name in ("alpha", "beta"):
        if f"the {name} job" in request.prompt:
            return R.skill_for(agent_of(request), name)
    return "I can answer that directly."


def bench(agent: str, cases: int, work: Path, kept: Path | None) -> dict:
    repo = work / agent / "repo"
    for name in ("alpha", "beta"):
        make_skill(repo, name)
    only = [f"{name}-pos-{n}" for name in ("alpha", "beta") for n in (1, 2, 3)]
    only += [f"{name}-neg-{n}" for name in ("alpha", "beta") for n in (1, 2)]
    only = only[:cases]
    output = work / agent / "report.json"
    with FakeAPI(router) as api:
        environ = {"PATH": os.environ["PATH"], "HOME": str(work / agent / "home")}
        (work / agent / "home").mkdir(parents=True, exist_ok=True)
        if kept is not None:
            copy_missing(kept, user_cache(environ) / PROBES)
        if os.environ.get("COPILOT_CACHE_HOME"):
            environ["COPILOT_CACHE_HOME"] = os.environ["COPILOT_CACHE_HOME"]
        if agent == "claude":
            environ.update(
                ANTHROPIC_BASE_URL=api.base_url,
                ANTHROPIC_API_KEY="bench-key",
                SKILLSCOPE_CLAUDE=find_claude() or "claude",
            )
        else:
            environ.update(endpoint_env(agent, api.base_url))
            environ[f"SKILLSCOPE_{agent.upper()}"] = find_runtime(agent) or agent
        ctx = Context(
            environ=environ, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
        )
        argv = [
            "routing",
            "--repo",
            str(repo),
            "--routing-room",
            "all",
            "--agent",
            agent,
            "--only",
            ",".join(only),
            "--skip-preflight",
            "--no-canary",
            "--min-accuracy",
            "0",
            "--jobs",
            "1",
            "--output",
            str(output),
            "--model",
            "gemini-2.5-flash" if agent == "gemini" else "fake-model",
        ]
        code = main(argv, ctx)
        requests = len([r for r in api.requests if r.method == "POST"])
    if code != 0 or not output.exists():
        return {"agent": agent, "error": ctx.stderr.getvalue()[-500:]}
    report = json.loads(output.read_text())
    times = [c["elapsed_s"] for c in report["cases"]]
    return {
        "agent": agent,
        "version": report["meta"]["agent_version"],
        "median_s": statistics.median(times),
        "worst_s": max(times),
        "requests_per_case": requests / len(times),
        "accuracy": report["totals"]["accuracy"],
    }


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--cases", type=int, default=6)
    parser.add_argument(
        "--kept-probes", type=Path, help="a folder of CLI probe answers an earlier run kept (see above)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agents-bench-") as temp:
        rows = [bench(agent, args.cases, Path(temp), args.kept_probes) for agent in args.agents.split(",")]
    print(
        f"{'agent':10} {'version':10} {'decision median s':>18} {'worst s':>8} {'requests/case':>14} accuracy"
    )
    for row in rows:
        if "error" in row:
            print(f"{row['agent']:10} failed: {row['error']}")
            continue
        print(
            f"{row['agent']:10} {row['version']:10} {row['median_s']:18.2f} {row['worst_s']:8.2f} "
            f"{row['requests_per_case']:14.2f} {row['accuracy']}"
        )


if __name__ == "__main__":
    main_bench()
