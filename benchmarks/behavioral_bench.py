"""Behavioral speed: judge calls per case whatever the number of statements, and the harness's
overhead per case against a bare `claude -p` run of the same scripted conversation.

    SKILLSCOPE_CLAUDE=/path/to/claude python benchmarks/behavioral_bench.py [--cases 3] [--rounds 3]
        [--statements 1,5,20] [--latency 0]

Everything runs against the scripted fake API (tests/fakeapi) on 127.0.0.1. The fake agent writes
report.md, runs one shell command and finishes (three model turns); the fake judge answers `pass` for
every statement id it is shown.

Figures printed:
- judge calls per case for cases with 1, 5 and 20 judged statements, counted from the fake server's
  log (distinct CLI sessions whose prompt is a judge prompt), with the statements in each call.
- bare: the command line the harness builds for the agent (same isolation, a fresh config dir, the
  prompt on stdin, the skill installed in a fresh workspace), run --cases times one after another.
- harness: `skillscope behavioral` in-process over --cases cases that carry only logs_contain and
  files_exist (no judge), preflight skipped; the whole command's wall time per case, and the mean
  of the report's per-case elapsed_s (workspace, snapshots, run, grading).
- overhead = harness per case / bare per case - 1, for both harness figures.

The timing rounds talk to a fake API served from a separate process: in-process, its threads would
share the interpreter lock with the in-process harness (and not with a bare subprocess), which would
bill the fake's own slowness to the harness.

Rounds alternate which side goes first, since a loaded machine drifts. Targets (issue 6): 1 judge
call per case for any number of statements; overhead <= 10 %. Printed, never asserted; medians over
--rounds.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_machine import find_claude

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi and tests.support.helpers live beside the package

from harness import agent  # noqa: E402
from harness.behavioral.judge import JUDGE_HEADER  # noqa: E402
from harness.behavioral.runner import AGENT_TOOLS, PERMISSION_MODE  # noqa: E402
from harness.cli import main  # noqa: E402
from harness.context import Context  # noqa: E402
from tests.fakeapi import FakeAPI, RecordedRequest, hermetic_env  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.support.helpers import make_skill  # noqa: E402

SKILL = "bench-writer"
MODEL = "claude-fake-1"
STATEMENT_ID = re.compile(r"^- (E\d+) \(", re.MULTILINE)
TARGET_OVERHEAD = 0.10


def fake_model(latency: float):
    """The scripted conversation: the agent writes, runs, finishes; the judge passes every id."""

    def answer(request: RecordedRequest):
        prompt = request.prompt
        if prompt.startswith(JUDGE_HEADER):
            ids = STATEMENT_ID.findall(prompt.split("BEGIN-EVIDENCE-", 1)[0])
            verdicts = [{"id": i, "pass": True, "reason": "seen in the trace"} for i in ids]
            return R.text(json.dumps({"verdicts": verdicts}), delay_s=latency)
        step = len(request.tool_results)
        if step == 0:
            return R.tool_use(
                "Write", {"file_path": "{{cwd}}/report.md", "content": "# Report\nok\n"}, delay_s=latency
            )
        if step == 1:
            return R.tool_use("Bash", {"command": "echo bench-done"}, delay_s=latency)
        return R.text("Wrote report.md.", delay_s=latency)

    return answer


def serve(latency: float, ports, stop) -> None:
    """The fake API in its own process, for the timing rounds."""
    with FakeAPI(fake_model(latency)) as api:
        ports.put(api.port)
        stop.wait()


def build_repo(root: Path, cases: int, statements: list[int]) -> dict[str, int]:
    """One skill: `cases` deterministic cases, and one judged case per statement count."""
    evaluations = [
        {
            "id": f"plain-{n}",
            "skill_should_trigger": True,
            "prompt": f"Write the report, take {n}.",
            "logs_contain": ["bench-done"],
            "files_exist": ["report.md"],
        }
        for n in range(cases)
    ]
    judged = {}
    for count in statements:
        half = (count + 1) // 2
        evaluations.append(
            {
                "id": f"judged-{count}",
                "skill_should_trigger": True,
                "prompt": f"Write the report ({count}).",
                "expected_behavior": [f"Does step {n}" for n in range(half)],
                "unexpected_behavior": [f"Skips step {n}" for n in range(count - half)],
            }
        )
        judged[f"judged-{count}"] = count
    evaluations += [
        {"id": f"neg-{n}", "skill_should_trigger": False, "prompt": f"Unrelated {n}."} for n in range(2)
    ]
    make_skill(root, SKILL, evals={"evaluations": evaluations})
    return judged


def behave(root: Path, env: dict[str, str], claude: str, only: str) -> tuple[float, dict]:
    ctx = Context(
        environ={**env, "SKILLSCOPE_CLAUDE": claude},
        cwd=root,
        stdin=io.StringIO(),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    output = root.parent / "report.json"
    started = time.perf_counter()
    code = main(
        [
            "behavioral",
            "--repo",
            str(root),
            "--skills-dir",
            "*",
            "--skip-preflight",
            "--model",
            MODEL,
            "--only",
            only,
            "--output",
            str(output),
        ],
        ctx,
    )
    wall = time.perf_counter() - started
    if not output.exists():
        sys.exit(f"error: behavioral wrote no report (exit {code}): {ctx.stderr.getvalue()[-500:]}")
    return wall, json.loads(output.read_text())


def judge_calls(api: FakeAPI) -> list[list[str]]:
    """Statement ids shown in each judge session, in order."""
    sessions: dict[str, list[str]] = {}
    for request in api.agent_turns():
        if request.prompt.startswith(JUDGE_HEADER):
            head = request.prompt.split("BEGIN-EVIDENCE-", 1)[0]
            sessions.setdefault(request.session_id or "", STATEMENT_ID.findall(head))
    return list(sessions.values())


def bare_runs(cli: agent.LocatedCLI, env: dict[str, str], skill_dir: Path, cases: int) -> list[float]:
    isolation = agent.isolation_for(env)
    times = []
    for n in range(cases):
        with agent.stage_workspace({SKILL: skill_dir}) as workspace:
            spec = agent.RunSpec(
                f"Write the report, take {n}.",
                workspace,
                model=MODEL,
                max_budget_usd=5.0,
                permission_mode=PERMISSION_MODE,
                allowed_tools=AGENT_TOOLS,
            )
            argv, _notes = agent.build_argv(cli, spec, isolation)
            with isolation.config_dir() as config_dir:
                started = time.perf_counter()
                done = subprocess.run(
                    argv,
                    input=spec.prompt.encode(),
                    cwd=workspace,
                    capture_output=True,
                    env=isolation.env(env, config_dir),
                )
                times.append(time.perf_counter() - started)
            if done.returncode != 0 or not (workspace / "report.md").is_file():
                sys.exit(f"error: the bare run failed ({done.returncode}): {done.stderr.decode()[-300:]}")
    return times


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3, help="cases per timing run (default: 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds, medians printed (default: 3)")
    parser.add_argument("--statements", default="1,5,20", help="judged statement counts (default: 1,5,20)")
    parser.add_argument("--latency", type=float, default=0.0, help="delay of each fake reply (default: 0)")
    args = parser.parse_args()
    counts = [int(n) for n in args.statements.split(",")]
    if args.cases < 1 or args.cases + len(counts) < 3:
        parser.error("the skill needs at least 3 positives (Tier 0): raise --cases or add --statements")
    claude = find_claude()
    scratch = Path(tempfile.mkdtemp(prefix="behavioral-bench-"))
    try:
        root = scratch / "repo"
        judged = build_repo(root, args.cases, counts)
        with FakeAPI(fake_model(args.latency)) as api:
            env = hermetic_env(api.base_url, scratch / "env", config_dir=False)
            # Probed under the scratch HOME the harness runs with, so its runs find the answers kept.
            cli = agent.locate(claude, env)
            print(f"claude {cli.version}, fake API latency {args.latency:g} s, {os.cpu_count()} CPU(s)")
            print("\njudge calls per case (target: 1 whatever the number of statements)")
            for case_id, count in judged.items():
                before = len(judge_calls(api))
                _wall, report = behave(root, env, claude, case_id)
                calls = judge_calls(api)[before:]
                status = report["cases"][0]["status"]
                print(
                    f"  {count:>3} statement(s): {len(calls)} judge call(s) per case, statements per call "
                    f"{[len(ids) for ids in calls]}, case {status}"
                )
        fork = multiprocessing.get_context("fork")
        ports, stop = fork.Queue(), fork.Event()
        server = fork.Process(target=serve, args=(args.latency, ports, stop), daemon=True)
        server.start()
        try:
            env = hermetic_env(f"http://127.0.0.1:{ports.get(timeout=30)}", scratch / "env", config_dir=False)
            bare, whole, inner = [], [], []
            only = ",".join(f"plain-{n}" for n in range(args.cases))
            for number in range(args.rounds):
                if number % 2:
                    bare.append(statistics.mean(bare_runs(cli, env, root / SKILL, args.cases)))
                wall, report = behave(root, env, claude, only)
                if report["totals"]["passed"] != args.cases:
                    sys.exit("error: a harness case did not pass; the comparison would be unfair.")
                whole.append(wall / args.cases)
                inner.append(statistics.mean(c["elapsed_s"] for c in report["cases"]))
                if not number % 2:
                    bare.append(statistics.mean(bare_runs(cli, env, root / SKILL, args.cases)))
        finally:
            stop.set()
            server.join(timeout=10)
        base = statistics.median(bare)
        print(f"\nper case over {args.cases} case(s), median of {args.rounds} round(s)")
        print(f"  bare claude -p               {base:7.3f} s")
        for label, values in (("harness, whole command", whole), ("harness, case elapsed_s", inner)):
            value = statistics.median(values)
            overhead = value / base - 1
            verdict = "within" if overhead <= TARGET_OVERHEAD else "over"
            print(
                f"  {label:<28} {value:7.3f} s  overhead {overhead * 100:+6.1f} % "
                f"({verdict} the {TARGET_OVERHEAD:.0%} target)"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main_bench()
