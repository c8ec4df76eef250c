"""Routing speed and spend: the harness against bare `claude -p`, --jobs 4 against --jobs 1, model
requests per case, the result cache, adaptive repeats, and peak memory while a 64 MB stream goes
through the trace builder.

    SKILLSCOPE_CLAUDE=/path/to/claude python benchmarks/routing_bench.py [--cases 40] [--latency 0.2]
        [--work-turns 2] [--patterns 8] [--most-samples 5] [--one-jobs4-run] [--trace-mb 64] [--skip-cli]
    SKILLSCOPE_CLAUDE=/path/to/claude python benchmarks/routing_bench.py --catalog PATH [--skill NAMES]

Everything runs against the scripted fake API (tests/fakeapi) on 127.0.0.1, whose every reply waits
--latency seconds before its first byte. The repo has one skill per five cases (three prompts that should
fire it, two that should not). The fake model fires the owning skill on a positive prompt and answers
in text otherwise; once a skill is launched it does --work-turns shell commands and then finishes, like
an agent using the skill would.

Figures printed:
- bare: the same prompts through the same `claude` command line the harness builds (same isolation and
  stop hook, fresh config dir per run), one after another, so each bare run stops at the same point as
  the harness's: right after the skill launches, or at the model's text answer.
- harness --jobs 1 and --jobs 4: `skillscope routing` in-process over the same cases (preflight skipped,
  no result cache).
- model requests per case, from the fake server's log: target 1.00 when every case decides on its first
  turn; also the same count without the stop hook (a bare run left to finish the skill's work).
- result cache: a cold run into an empty cache, then the same run again: its requests (target 0) and
  the speed-up. `--one-jobs4-run` (the test suite's size) takes the cold run for the --jobs 4 one.
- adaptive repeats: `--repeat 5` against `--repeat auto:5` on a model whose every case fires its skill
  by a fixed pattern (known rate; --patterns of them): samples spent, and whether every case got the
  same verdict. `--most-samples N` puts N for the 5 (at least 2; the test suite's small size, where
  adaptive repeats can stop no case early and spend as many samples as the fixed run).
- CPU: user+sys seconds of the child processes per wall second, to tell a CPU-bound machine from
  a latency-bound one.
- in flight: how many claude runs the --jobs 4 run had going at once (polled from /proc), and how long a
  sample took at --jobs 1 and at --jobs 4. Four at once, with samples stretched only while the cores are
  short, says the pool serialises nothing; the speed-up then goes as far as the free cores let it.
- peak RSS of a fresh interpreter feeding a synthetic --trace-mb stream through ClaudeEvents.

Targets: overhead <= 10 % (issues 5 and 14), --jobs 4 >= 1.8x --jobs 1, peak RSS < 150 MB, requests per case
1.00, 0 requests on an unchanged second run. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_machine import children_cpu, find_claude

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi and tests.support.helpers live beside the package

from harness import agent  # noqa: E402
from harness.cli import main  # noqa: E402
from harness.context import Context  # noqa: E402
from tests.fakeapi import FakeAPI, RecordedRequest  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.support.helpers import make_skill  # noqa: E402

POSITIVE = re.compile(r"the (skill-\d+) job, variant (\d+)\.")
TRACE_CHILD = """
import json, resource, sys
from harness.agent import ClaudeEvents
target = int(sys.argv[1]) * 1024 * 1024
builder = ClaudeEvents({"pdf": "/ws/.claude/skills/pdf"})
fed = n = 0
payload = "x" * 60_000
while fed < target:
    n += 1
    call = json.dumps({"type": "assistant", "message": {"id": f"m{n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": "cat big.log"}}],
        "usage": {"input_tokens": 100, "output_tokens": 20}}, "parent_tool_use_id": None})
    answer = json.dumps({"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": f"t{n}", "content": payload}]}, "parent_tool_use_id": None})
    for line in (call, answer):
        builder.feed(line)
        fed += len(line) + 1
trace = builder.trace
print(json.dumps({"fed_mb": fed / 1048576, "events": trace.event_count, "kept": len(trace.tool_calls),
                  "tool_calls": trace.budget_tool_calls,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


class Model:
    """The scripted model: fire the owner on a positive, text otherwise, then work a little."""

    def __init__(self, latency: float, work_turns: int):
        self.latency, self.work_turns = latency, work_turns

    def __call__(self, request: RecordedRequest):
        results = request.tool_results
        if not results:
            match = POSITIVE.search(request.prompt)
            if match:
                return R.skill(match.group(1), delay_s=self.latency)
            return R.text("No skill needed for this one.", delay_s=self.latency)
        if len(results) <= self.work_turns:
            return R.tool_use("Bash", {"command": f"echo step {len(results)}"}, delay_s=self.latency)
        return R.text("Done.", delay_s=self.latency)


def build_repo(root: Path, cases: int) -> tuple[list[str], list[str]]:
    skills = [f"skill-{index:02d}" for index in range((cases + 4) // 5)]
    for name in skills:
        make_skill(root, name)
    prompts = []
    for name in skills:
        prompts += [f"Please do the {name} job, variant {n}." for n in (1, 2, 3)]
        prompts += [f"Something near {name} that it should not answer, variant {n}." for n in (1, 2)]
    return skills, prompts[:cases]


def environ(api: FakeAPI, claude: str, home: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
    env.update(
        ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="bench", HOME=str(home), SKILLSCOPE_CLAUDE=claude
    )
    return env


def bare_runs(
    claude: str, env: dict[str, str], repo: Path, skills: list[str], prompts: list[str], hook: bool = True
) -> dict:
    """Each prompt through the harness's own command line (with its stop hook unless `hook` is off),
    without the harness, run until the CLI exits."""
    cli = agent.locate(claude, env)
    isolation = agent.isolation_for(env)
    total = to_decision = 0.0
    with agent.stage_workspace({name: repo / name for name in skills}) as workspace:
        for prompt in prompts:
            spec = agent.RunSpec(prompt, workspace, max_budget_usd=0.75, stop_after_skill=hook)
            argv, _ = agent.build_argv(cli, spec, isolation)
            with isolation.config_dir() as config_dir:
                started = time.monotonic()
                decided = None
                proc = subprocess.Popen(
                    argv,
                    cwd=workspace,
                    env=isolation.env(env, config_dir),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
                proc.stdin.write(prompt.encode())
                proc.stdin.close()
                for line in proc.stdout:
                    if decided is None and (b'"name":"Skill"' in line or b'"type":"result"' in line[:20]):
                        decided = time.monotonic() - started
                proc.wait()
                elapsed = time.monotonic() - started
            total += elapsed
            to_decision += decided if decided is not None else elapsed
    return {"wall": total, "to_decision": to_decision}


def harness_run(
    env: dict[str, str],
    repo: Path,
    skills: list[str],
    prompts: list[str],
    jobs: int,
    out: Path,
    *extra: str,
) -> dict:
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    started = time.monotonic()
    code = main(
        [
            "routing",
            "--repo",
            str(repo),
            "--routing-room",
            "all",
            "--skill",
            ",".join(skills),
            "--jobs",
            str(jobs),
            "--skip-preflight",
            "--min-accuracy",
            "0",
            "--output",
            str(out),
            *extra,
        ],
        ctx,
    )
    if not out.exists():
        raise SystemExit(f"harness exited {code} without a report: {ctx.stderr.getvalue()[-500:]}")
    wall = time.monotonic() - started
    report = json.loads(out.read_text())
    if len(report["cases"]) != len(prompts):
        raise SystemExit(f"harness ran {len(report['cases'])} cases, expected {len(prompts)}")
    return {
        "wall": wall,
        "code": code,
        "verdicts": report["verdicts"],
        "cases": {c["id"]: c["verdict"] for c in report["cases"]},
        "samples": report["totals"]["samples"],
        "cached": report["totals"]["cached_samples"],
        "agent_time": report["totals"]["agent_time_s"],
    }


class InFlight:
    """The agent CLI runs this process has going at once, polled from /proc (Linux; elsewhere none are
    seen): the most, and the seconds spent at each count. The harness runs in-process, so its CLI runs
    are this process's children."""

    def __init__(self, interval_s: float = 0.05):
        self.interval_s, self.seconds, self.most = interval_s, {}, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> InFlight:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _poll(self) -> None:
        last = time.monotonic()
        while not self._stop.wait(self.interval_s):
            count, now = children_running(), time.monotonic()
            self.seconds[count] = self.seconds.get(count, 0.0) + now - last
            self.most, last = max(self.most, count), now

    def share_at(self, count: int) -> float:
        total = sum(self.seconds.values())
        return self.seconds.get(count, 0.0) / total if total else 0.0


def children_running() -> int:
    """This process's live child processes."""
    me, count = os.getpid(), 0
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        count += fields[0] not in ("Z", "X") and int(fields[1]) == me
    return count


def measure(label: str, api: FakeAPI, action) -> dict:
    before_requests, before_cpu = len(api.agent_turns()), children_cpu()
    figures = action()
    figures["requests"] = len(api.agent_turns()) - before_requests
    figures["cpu"] = children_cpu() - before_cpu
    busy = figures["cpu"] / figures["wall"]
    print(
        f"{label:<26} {figures['wall']:7.2f} s wall, {figures['requests']:4d} model requests, "
        f"child CPU {figures['cpu']:6.2f} s ({busy:.2f} cores busy)",
        flush=True,
    )
    return figures


def cli_bench(args: argparse.Namespace) -> None:
    claude = find_claude()
    scratch = Path(tempfile.mkdtemp(prefix="routing-bench-"))
    try:
        repo = scratch / "repo"
        skills, prompts = build_repo(repo, args.cases)
        with FakeAPI(Model(args.latency, args.work_turns)) as api:
            env = environ(api, claude, scratch / "home")
            (scratch / "home").mkdir()
            cases = len(prompts)
            print(
                f"{cases} cases, {len(skills)} skills, model latency {args.latency * 1000:.0f} ms, "
                f"{args.work_turns} work turns after an activation, {os.cpu_count()} CPU(s), "
                f"claude {agent.locate(claude, env).version}, load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            unhooked = measure(
                "bare, no stop hook",
                api,
                lambda: bare_runs(claude, env, repo, skills, prompts, hook=False),
            )
            bare = measure(
                "bare claude -p (serial)", api, lambda: bare_runs(claude, env, repo, skills, prompts)
            )
            one = measure(
                "harness --jobs 1",
                api,
                lambda: harness_run(env, repo, skills, prompts, 1, scratch / "j1.json", "--no-cache"),
            )
            cache = ("--cache", str(scratch / "cache"))
            with InFlight() as in_flight:
                # With --one-jobs4-run the cold-cache run is the --jobs 4 run (it writes the cache too).
                four = measure(
                    "harness --jobs 4 (cold)" if args.one_jobs4_run else "harness --jobs 4",
                    api,
                    lambda: harness_run(
                        env,
                        repo,
                        skills,
                        prompts,
                        4,
                        scratch / "j4.json",
                        *(cache if args.one_jobs4_run else ("--no-cache",)),
                    ),
                )
            cold = four
            if not args.one_jobs4_run:
                cold = measure(
                    "harness, cold cache",
                    api,
                    lambda: harness_run(env, repo, skills, prompts, 4, scratch / "cold.json", *cache),
                )
            warm = measure(
                "harness, same run again",
                api,
                lambda: harness_run(env, repo, skills, prompts, 4, scratch / "warm.json", *cache),
            )
        print()
        overhead = one["wall"] / bare["wall"] - 1
        print(f"overhead vs bare:            {overhead * 100:+6.1f} %  (target <= +10 %, same stop point)")
        print(f"--jobs 4 speed-up:           {one['wall'] / four['wall']:6.2f}x  (target >= 1.8x)")
        print(
            f"requests per case:           {one['requests'] / cases:.2f} harness (target 1.00), "
            f"{bare['requests'] / cases:.2f} bare with the hook, {unhooked['requests'] / cases:.2f} "
            "bare left to finish"
        )
        print(
            f"result cache:                {warm['requests']} request(s) on the unchanged second run "
            f"(target 0), {warm['cached']}/{warm['samples']} samples reused, "
            f"{cold['wall'] / warm['wall']:.1f}x faster than the cold run; same verdicts: "
            f"{warm['cases'] == cold['cases']}"
        )
        cores = os.cpu_count() or 1
        floor = four["cpu"] / min(cores, 4)
        per_case = four["cpu"] / cases
        print(
            f"CPU floor for --jobs 4:      {floor:6.2f} s ({per_case:.2f} s of claude CPU per case "
            f"over {min(cores, 4)} core(s)), so at most {min(4, one['wall'] / floor):.2f}x with the cores "
            f"free; load average {os.getloadavg()[0]:.1f} at the end"
        )
        print(
            f"in flight at --jobs 4:       {in_flight.most} claude run(s) at most, 4 at once for "
            f"{in_flight.share_at(4) * 100:.0f} % of the run; a sample took {sample_s(one):.2f} s at "
            f"--jobs 1 and {sample_s(four):.2f} s at --jobs 4"
        )
        print(f"verdicts (jobs 1): {one['verdicts']}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def sample_s(figures: dict) -> float:
    """A harness run's mean sample time (its samples' summed elapsed time over their count)."""
    return figures["agent_time"] / max(figures["samples"], 1)


# Each case fires its skill by a fixed pattern over its samples, so its rate is known: 1 fires, 0 not.
PATTERNS = ("11111", "11111", "00000", "11110", "00001", "10101", "01010", "11011")


class PatternModel:
    """Fires the case's skill on its nth sample as its pattern says; answers in text otherwise."""

    def __init__(self, latency: float):
        self.latency, self.calls = latency, {}
        self.lock = threading.Lock()

    def __call__(self, request: RecordedRequest):
        match = POSITIVE.search(request.prompt)
        if request.tool_results or not match:
            return R.text("No skill needed.", delay_s=self.latency)
        with self.lock:
            n = self.calls[request.prompt] = self.calls.get(request.prompt, -1) + 1
        pattern = PATTERNS[int(match.group(2)) % len(PATTERNS)]
        if pattern[n % len(pattern)] == "1":
            return R.skill(match.group(1), delay_s=self.latency)
        return R.text("I will answer this myself.", delay_s=self.latency)


def adaptive_bench(claude: str, latency: float, count: int, most: int) -> None:
    """`--repeat <most>` against `--repeat auto:<most>` on cases of known rates (the first `count`
    patterns): samples spent, same verdicts."""
    patterns = PATTERNS[:count]
    scratch = Path(tempfile.mkdtemp(prefix="routing-bench-repeat-"))
    try:
        repo = scratch / "repo"
        cases = pattern_cases(patterns)
        make_skill(repo, "skill-00", evals={"evaluations": cases})
        (scratch / "home").mkdir()
        figures = {}
        for label, repeat in (("fixed", str(most)), ("adaptive", f"auto:{most}")):
            with FakeAPI(PatternModel(latency)) as api:
                env = environ(api, claude, scratch / "home")
                figures[label] = harness_run(
                    env,
                    repo,
                    ["skill-00"],
                    [case["prompt"] for case in cases],
                    4,
                    scratch / f"{label}.json",
                    "--no-cache",
                    "--repeat",
                    repeat,
                )
                figures[label]["requests"] = len(api.agent_turns())
        fixed, adaptive = figures["fixed"], figures["adaptive"]
        rates = ", ".join(f"{p.count('1') / len(p):.1f}" for p in patterns)
        print(
            f"adaptive repeats:            {adaptive['samples']} samples against {fixed['samples']} for "
            f"--repeat {most} ({(1 - adaptive['samples'] / fixed['samples']) * 100:.0f} % fewer) over "
            f"{len(patterns)} positives of rates {rates} and 2 negatives; same verdicts: "
            f"{adaptive['cases'] == fixed['cases']}"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def pattern_cases(patterns: tuple[str, ...]) -> list[dict]:
    """One positive per pattern with an expected behaviour, and the two negatives a dataset needs (the
    model never fires on them)."""
    positives = [
        {
            "id": f"rate-{n}",
            "skill_should_trigger": True,
            "prompt": f"Please do the skill-00 job, variant {n}.",
            "expected_behavior": ["Does the job"],
        }
        for n in range(len(patterns))
    ]
    negatives = [
        {"id": f"never-{n}", "skill_should_trigger": False, "prompt": f"Something unrelated, number {n}."}
        for n in (1, 2)
    ]
    return positives + negatives


def trace_bench(megabytes: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", TRACE_CHILD, str(megabytes)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    figures = json.loads(done.stdout)
    print(
        f"trace builder: {figures['fed_mb']:.0f} MB streamed, {figures['events']} events, "
        f"{figures['tool_calls']} tool calls ({figures['kept']} kept), "
        f"peak RSS {figures['peak_rss_mb']:.0f} MB (target < 150 MB)"
    )


class CatalogModel:
    """A model that knows a real catalog's answers: each positive prompt fires its own skill on the
    first turn, anything else is answered in text."""

    def __init__(self, owners: dict[str, str], latency: float):
        self.owners, self.latency = owners, latency

    def __call__(self, request: RecordedRequest):
        if request.tool_results:
            return R.text("Done.", delay_s=self.latency)
        owner = next((name for prompt, name in self.owners.items() if prompt in request.prompt), None)
        if owner:
            return R.skill(owner, delay_s=self.latency)
        return R.text("No skill needed for this one.", delay_s=self.latency)


def catalog_bench(catalog: Path, latency: float, only_skills: str | None) -> None:
    """Model requests per decided case on a real catalog (a copy of it), every skill in the room:
    a skill whose frontmatter lists allowed-tools must cost one request like any other. `only_skills`:
    the cases of these skills only (a comma list, routing's --skill), the room still whole."""
    claude = find_claude()
    scratch = Path(tempfile.mkdtemp(prefix="routing-catalog-"))
    try:
        repo = scratch / "repo"
        shutil.copytree(catalog, repo, ignore=shutil.ignore_patterns(".git", ".skillscope"))
        owners, gated = {}, []
        for dataset in sorted(repo.glob("skills/*/evals/evals.json")):
            skill = dataset.parent.parent.name
            if re.search(r"(?m)^allowed-tools:", (dataset.parent.parent / "SKILL.md").read_text()):
                gated.append(skill)
            for case in json.loads(dataset.read_text(encoding="utf-8")).get("evaluations", []):
                if case.get("skill_should_trigger"):
                    owners[case["prompt"]] = skill
        with FakeAPI(CatalogModel(owners, latency)) as api:
            (scratch / "home").mkdir()
            env = environ(api, claude, scratch / "home")
            ctx = Context(
                environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
            )
            out = scratch / "catalog.json"
            # The catalog's own structural findings are not this figure's business: accept them first.
            main(["baseline", "--repo", str(repo), "--skills-dir", "skills/*"], ctx)
            argv = ["routing", "--repo", str(repo), "--skills-dir", "skills/*", "--routing-room", "all"]
            argv += ["--skill", only_skills] if only_skills else []
            code = main(
                [*argv, "--skip-preflight", "--no-cache", "--min-accuracy", "0", "--output", str(out)], ctx
            )
            if not out.exists():
                raise SystemExit(f"routing exited {code} without a report: {ctx.stderr.getvalue()[-800:]}")
            report = json.loads(out.read_text(encoding="utf-8"))
            decided = sum(1 for case in report["cases"] if case["verdict"] != "error")
            requests = len(api.agent_turns())
        print(
            f"catalog {catalog.name}: {len(report['cases'])} cases, {decided} decided, {requests} model "
            f"requests: {requests / max(decided, 1):.2f} per decided case (target 1.00); skills with "
            f"allowed-tools in the room: {', '.join(gated) or 'none'}; verdicts {report['verdicts']}"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main_bench() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--cases", type=int, default=40, help="a multiple of 5: each skill's dataset holds five cases"
    )
    parser.add_argument("--latency", type=float, default=0.2, help="seconds before each fake reply")
    parser.add_argument("--work-turns", type=int, default=2, help="shell turns after an activation")
    parser.add_argument(
        "--patterns",
        type=int,
        default=len(PATTERNS),
        help="positives of known rates in the repeat figure (3-8)",
    )
    parser.add_argument(
        "--most-samples",
        type=int,
        default=5,
        help="N of the repeat figure's --repeat N against --repeat auto:N (at least 2)",
    )
    parser.add_argument(
        "--one-jobs4-run",
        action="store_true",
        help="one --jobs 4 run, into the empty result cache, for both the --jobs 4 figure and the cold "
        "cache's (the test suite's size; its speed-up then counts the cache writes)",
    )
    parser.add_argument("--trace-mb", type=int, default=64)
    parser.add_argument("--skip-cli", action="store_true", help="only the trace-builder memory figure")
    parser.add_argument(
        "--catalog", type=Path, help="only the requests per decided case on this catalog (skills/*)"
    )
    parser.add_argument(
        "--skill",
        metavar="NAMES",
        help="with --catalog: run only these skills' cases (a comma list; every skill stays in the room)",
    )
    args = parser.parse_args()
    if args.skill and not args.catalog:
        parser.error("--skill goes with --catalog")
    if args.catalog:
        catalog_bench(args.catalog, args.latency, args.skill)
        return 0
    if args.cases < 5 or args.cases % 5:
        parser.error("--cases must be a multiple of 5: the harness runs every case of each skill's dataset")
    if not 3 <= args.patterns <= len(PATTERNS):
        parser.error(f"--patterns must be between 3 (the positives a dataset needs) and {len(PATTERNS)}")
    if args.most_samples < 2:
        parser.error("--most-samples must be at least 2: with 1 an adaptive case could take no second sample")
    if not args.skip_cli:
        cli_bench(args)
        adaptive_bench(find_claude(), args.latency, args.patterns, args.most_samples)
    trace_bench(args.trace_mb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_bench())
