"""`skillscope behavioral` beside a catalog's own behavioral runner, same skill and cases (a benchmark).

The peer is a checkout of amd/skills (`--peer`), whose runner is `eval/run_evals.py --mode behavior`: per
run one `claude -p` to check the API, then per case one stream-json agent run in a temp workspace and
one `claude -p` judge call per expected or unexpected statement. Nothing of it is copied here: the
checkout is copied whole (without .git) into a scratch folder at run time, so neither tool writes into
it, and its runner runs from there with the interpreter running this script. Without `--peer`, the
stand-in in tests/behavioral/peer_catalog (written for the smoke test, same arguments, same use of
claude) is the peer, so the comparison's code path runs where no checkout is at hand; its figures say
nothing about amd's runner.

How the comparison is kept fair:
- the same cases of the same skill (default for amd/skills: `local-ai-app-integration`'s
  `vendor-lemonade-launcher` and `local-mode-without-api-key`, one judged statement each, so the judge
  costs one call per case on both sides), the same claude CLI ($SKILLSCOPE_CLAUDE, else
  $SKILLSCOPE_TEST_CLAUDE, else `claude` on PATH), the same `--model` and `--effort`;
- one scripted model (tests/fakeapi on 127.0.0.1, in this process; the tools are processes of their
  own): for a case's prompt it activates the skill, writes one file (the case's first `files_exist`,
  else a new one) holding every `logs_contain` text of the case, and finishes (three agent requests
  per case on both sides); a judge is told every statement holds; anything else (either tool's API
  check) gets a short text;
- both tools with their defaults otherwise: both check the API first, both judge; skillscope's result
  cache is off (`--no-cache`: the peer has none, and a replayed case sends no request), its
  --version/--help answers and sandbox verdict are kept in a scratch XDG_CACHE_HOME that lives across
  rounds, as a user's cache does; both start warm (one untimed run each first: byte-code written,
  probes kept, files cached; `--light-warm`, the test suite's size: skillscope's on one case without
  its API check, the peer none); skillscope's structural gate accepts the catalog's own findings through a
  baseline written once before the rounds;
- rounds interleaved, the side going first alternating (AB, BA, ...; ABC, CBA, ... with `--also-args`),
  so a busy spell of a shared host falls on every side; each run is one process, timed for wall seconds
  and for CPU seconds (user+system of it and every process it waited for, claude included), which load
  leaves alone: the steadier figure.

claude is started through a wrapper script first in each tool's PATH (and named by SKILLSCOPE_CLAUDE
for skillscope), one per tool, which notes each start and its first argument, runs the real CLI and
notes the CPU it used: the table splits each tool's CPU into claude's and the runner's own (the rest:
the runner's interpreter and what else it started). Model requests are counted by the scripted server.
Both tools must pass every case in every run, else the figures would compare unlike work and the script
stops.

Two readings of the target (at most 1.0x the peer, in CPU). With skillscope's defaults, claude runs its
agent's shell commands in its own sandbox (which keeps the agent away from the repo's skill folders and
evals); the peer turns on no sandbox, so that claude does more work on skillscope's side. With
`--skillscope-args=--no-sandbox` both sides run claude with the same agent configuration: the equal-work
comparison. `--also-args=--no-sandbox` runs that second configuration as a third side in the same rounds,
so one run prints both ratios, each against the same peer runs, and the verdict for each. (Flags as
values take the `=` form: argparse reads a separate `--no-sandbox` as a flag of this script.)

    python benchmarks/behavioral_peer_bench.py [--peer PATH/to/amd-skills] [--rounds 5]
        [--skill NAME] [--only IDS] [--skillscope-args=ARGS] [--also-args=--no-sandbox] [--light-warm]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench_machine import children_cpu, find_claude, print_machine_load, reference_loop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi lives beside the package

from harness.behavioral.judge import JUDGE_HEADER  # noqa: E402
from tests.fakeapi import FakeAPI, RecordedRequest, hermetic_env  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402

STAND_IN = ROOT / "tests" / "behavioral" / "peer_catalog"
STAND_IN_SKILL = "launcher-writer"
AMD_SKILL = "local-ai-app-integration"
AMD_CASES = "vendor-lemonade-launcher,local-mode-without-api-key"
RUNNER = Path("eval") / "run_evals.py"
MODEL = "claude-fake-1"
EFFORT = "high"
ASSERTIONS = ("logs_contain", "files_exist", "expected_behavior", "unexpected_behavior")
STATEMENT_ID = re.compile(r"^- (E\d+) \(", re.MULTILINE)
WRITTEN = "local_backend.py"
# Notes each start (its first argument, which never holds a newline), runs the real CLI, then notes the
# CPU it used (the shell's `times`, not in a pipeline, whose subshell would have no children: a line of
# its own user and system time, then its children's).
WRAPPER = """#!/bin/sh
printf '%s\\n' "$1" >> "{log}"
"{claude}" "$@"
status=$?
times >> "{cpu}"
exit $status
"""
TIMES = re.compile(r"(\d+)m([\d.]+)s")


def written(case: dict) -> str:
    """The file the agent writes: the case's first `files_exist` (skillscope counts a file the run
    created or changed, so a seeded one is rewritten), else a new one."""
    return (case.get("files_exist") or [WRITTEN])[0]


class ScriptedModel:
    """Every case passes on both sides with the same agent requests (see the module docstring)."""

    def __init__(self, skill: str, cases: list[dict]):
        self.skill = skill
        self.cases = {case["prompt"]: case for case in cases}

    def __call__(self, request: RecordedRequest) -> R.Reply:
        prompt = request.prompt
        if prompt.startswith(JUDGE_HEADER):
            ids = STATEMENT_ID.findall(prompt.split("BEGIN-EVIDENCE-", 1)[0])
            return R.text(json.dumps({"verdicts": [{"id": i, "pass": True, "reason": "seen"} for i in ids]}))
        case = next((case for text, case in self.cases.items() if text in prompt), None)
        if case is None:  # the peer's judge, or either tool's API check
            return R.text('{"pass": true, "reason": "the evidence shows it"}')
        step = len(request.tool_results)
        if step == 0:
            return R.skill(self.skill)
        if step == 1:
            content = "".join(f"# {text}\n" for text in case.get("logs_contain", [])) or "# local\n"
            return R.tool_use("Write", {"file_path": f"{{{{cwd}}}}/{written(case)}", "content": content})
        return R.text(f"Wrote {written(case)}.")


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float  # the runner and everything it waited for
    claude_cpu: float  # of which the claude processes, as their wrappers saw them end
    starts: int
    requests: int


@dataclass
class Side:
    name: str
    command: list[str]
    env: dict[str, str]
    bin: Path  # the folder of the wrapper script, with its logs of starts and of CPU
    report: Path
    flags: str = ""  # skillscope's flags beyond --no-cache (none for the peer)
    runs: list[Run] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)  # first arguments of the starts, all timed runs

    def starts(self) -> list[str]:
        return (self.bin / "starts.log").read_text(encoding="utf-8").splitlines()

    def claude_cpu(self) -> list[float]:
        """CPU seconds of each claude that ended, from the `times` lines its wrapper wrote."""
        lines = (self.bin / "cpu.log").read_text(encoding="utf-8").splitlines()[1::2]
        return [sum(int(m) * 60 + float(s) for m, s in TIMES.findall(line)) for line in lines]


def wrap(claude: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    for log in ("starts.log", "cpu.log"):
        (folder / log).touch()
    script = folder / "claude"
    text = WRAPPER.format(log=folder / "starts.log", cpu=folder / "cpu.log", claude=os.path.realpath(claude))
    script.write_text(text, encoding="utf-8")
    script.chmod(0o755)
    return script


def passed_all(side: Side) -> bool:
    """Both runners' JSON reports carry totals.cases and totals.passed."""
    if not side.report.is_file():
        return False
    totals = json.loads(side.report.read_text(encoding="utf-8")).get("totals", {})
    return bool(totals.get("cases")) and totals.get("passed") == totals.get("cases")


def run_once(side: Side, repo: Path, api: FakeAPI) -> tuple[Run, list[str]]:
    side.report.unlink(missing_ok=True)
    noted, ended, requests = len(side.starts()), len(side.claude_cpu()), len(api.requests)
    cpu, started = children_cpu(), time.perf_counter()
    done = subprocess.run(side.command, cwd=repo, env=side.env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu
    if done.returncode != 0 or not passed_all(side):
        sys.exit(
            f"error: {side.name} did not pass every case (exit {done.returncode}); the comparison would be "
            f"unfair:\n{done.stdout[-1200:]}\n{done.stderr[-1200:]}"
        )
    starts = side.starts()[noted:]
    claude_cpu = sum(side.claude_cpu()[ended:])
    return Run(wall, cpu, claude_cpu, len(starts), len(api.requests) - requests), starts


def sides(
    repo: Path, scratch: Path, claude: str, base_url: str, skill: str, only: str, configurations: list[str]
) -> list[Side]:
    """The peer, then one skillscope side per configuration (its extra flags, a shell-quoted string)."""
    environ = hermetic_env(base_url, scratch / "env")  # a config dir kept across rounds, as a user's
    if os.environ.get("PYTHONPATH"):  # skillscope from this checkout, as the other benchmarks run it
        environ["PYTHONPATH"] = os.environ["PYTHONPATH"]
    theirs = wrap(claude, scratch / "peer-bin")
    console = Path(sys.executable).parent / "skillscope"
    skillscope = [str(console)] if console.is_file() else [sys.executable, "-m", "harness"]
    common = ["--model", MODEL, "--effort", EFFORT, "--only", only]
    behavioral = [*skillscope, "behavioral", "--repo", str(repo), "--skills-dir", "skills/*"]
    # claude refuses --dangerously-skip-permissions (the peer's runs and judge) to root unless told it
    # runs in a sandbox; skillscope passes no such flag and hands its agent none of this environment.
    as_root = {"IS_SANDBOX": "1"} if os.geteuid() == 0 else {}
    peer = Side(
        "peer",
        [sys.executable, str(RUNNER), "--mode", "behavior", "--skill", skill, *common],
        {**environ, **as_root, "PATH": f"{theirs.parent}{os.pathsep}{environ['PATH']}"},
        theirs.parent,
        scratch / "peer.json",
    )
    peer.command += ["--output", str(peer.report)]
    found = [peer]
    for number, flags in enumerate(configurations):
        ours = wrap(claude, scratch / f"skillscope-{number}-bin")
        output = scratch / f"skillscope-{number}.json"
        side = Side(
            "skillscope" if number == 0 else f"skillscope{number + 1}",
            [*behavioral, *common, "--no-cache", "--output", str(output), *shlex.split(flags)],
            {
                **environ,
                "PATH": f"{ours.parent}{os.pathsep}{environ['PATH']}",
                "SKILLSCOPE_CLAUDE": str(ours),
                "XDG_CACHE_HOME": str(scratch / "cache"),
            },
            ours.parent,
            output,
            flags=flags,
        )
        found.append(side)
    return found


def warm_side(side: Side, case_id: str) -> Side:
    """The side's run on one case, without its API check (which keeps nothing): enough for skillscope to
    keep its probe answers, with fewer claude starts than a run on every case."""
    command = list(side.command)
    command[command.index("--only") + 1] = case_id
    return replace(side, command=[*command, "--skip-preflight"])


def load_cases(repo: Path, skill: str, only: str | None) -> list[dict]:
    dataset = repo / "skills" / skill / "evals" / "evals.json"
    if not dataset.is_file():
        sys.exit(f"error: {dataset} does not exist; --skill names a skill of the peer catalog")
    cases = [
        c
        for c in json.loads(dataset.read_text(encoding="utf-8"))["evaluations"]
        if any(k in c for k in ASSERTIONS)
    ]
    if only:
        cases = [c for c in cases if c["id"] in only.split(",")]
    if not cases:
        sys.exit(f"error: no case of {skill} asserts anything among {only}")
    return cases


def median(values: list[float]) -> float:
    return statistics.median(values)


def reading(flags: str) -> str:
    """What a skillscope configuration's ratio says: the sandbox is the one agent setting the peer lacks."""
    if "--no-sandbox" in shlex.split(flags):
        return "same agent configuration as the peer"
    return "claude's shell sandbox on, the peer has none"


def report(peer: Side, ours: list[Side], rounds: int, cases: list[dict]) -> None:
    print(f"{len(cases)} case(s): {', '.join(c['id'] for c in cases)}; {rounds} interleaved rounds")
    head = (
        f"{'tool':<11} {'wall s':>7} {'CPU s':>6} {'claude':>7} {'runner':>7} {'starts':>7} {'requests':>9}"
    )
    print(f"{head}  claude started for (per run; medians of the runs)")
    for side in (peer, *ours):
        runs = side.runs
        own = median([r.cpu - r.claude_cpu for r in runs])
        kinds = ", ".join(f"{kind} x{count / rounds:g}" for kind, count in sorted(side.kinds.items()))
        print(
            f"{side.name:<11} {median([r.wall for r in runs]):>7.2f} {median([r.cpu for r in runs]):>6.2f} "
            f"{median([r.claude_cpu for r in runs]):>7.2f} {own:>7.2f} "
            f"{median([r.starts for r in runs]):>7g} {median([r.requests for r in runs]):>9g}  {kinds}"
        )
    for side in ours:
        wall, cpu = (
            median([getattr(r, key) for r in side.runs]) / median([getattr(r, key) for r in peer.runs])
            for key in ("wall", "cpu")
        )
        spread = sorted(o.cpu / p.cpu for o, p in zip(side.runs, peer.runs, strict=True))
        print(
            f"{side.name}/peer: CPU {cpu:.2f}x (per round {spread[0]:.2f}-{spread[-1]:.2f}), "
            f"wall {wall:.2f}x (noisy under load); target 1.0x, {'meets' if cpu <= 1.0 else 'MISSES'} in CPU"
        )
        print(f"  {side.name}: --no-cache {side.flags}".rstrip() + f" ({reading(side.flags)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peer", type=Path, help="a checkout of amd/skills (default: the stand-in under tests/)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="timed runs of each tool (default: 5)")
    parser.add_argument("--skill", help=f"the skill (default: {AMD_SKILL} with --peer)")
    parser.add_argument("--only", help=f"case ids, a comma list (default with --peer: {AMD_CASES})")
    parser.add_argument(
        "--skillscope-args",
        default="",
        help="more flags for skillscope's runs, e.g. =--no-sandbox: the peer's agent configuration",
    )
    parser.add_argument(
        "--also-args",
        help="a second skillscope configuration (its flags beyond --no-cache, e.g. =--no-sandbox) run as a "
        "third side in the same rounds, its ratio printed beside the first's",
    )
    parser.add_argument(
        "--light-warm",
        action="store_true",
        help="a smaller warm-up (the test suite's size): no untimed run of the peer, which keeps nothing "
        "across runs, and skillscope's on the first case alone, which keeps its probe answers as well",
    )
    args = parser.parse_args()
    peer_root = args.peer or STAND_IN
    if not (peer_root / RUNNER).is_file():
        parser.error(f"{peer_root / RUNNER} does not exist; --peer names a checkout of amd/skills")
    skill = args.skill or (AMD_SKILL if args.peer else STAND_IN_SKILL)
    only = args.only or (AMD_CASES if args.peer and not args.skill else None)
    claude = find_claude()
    speed = reference_loop()
    scratch = Path(tempfile.mkdtemp(prefix="behavioral-peer-"))
    try:
        repo = scratch / "repo"
        shutil.copytree(
            peer_root, repo, ignore=shutil.ignore_patterns(".git", ".skillscope", "runs", "__pycache__")
        )
        cases = load_cases(repo, skill, only)
        ids = ",".join(case["id"] for case in cases)
        configurations = [args.skillscope_args] + ([args.also_args] if args.also_args is not None else [])
        with FakeAPI(ScriptedModel(skill, cases)) as api:
            peer, *ours = sides(repo, scratch, claude, api.base_url, skill, ids, configurations)
            # The catalog's own structural findings are not this figure's business: accept them first.
            first = ours[0].command
            baseline = [*first[: first.index("behavioral")], "baseline", "--repo", str(repo)]
            subprocess.run(
                [*baseline, "--skills-dir", "skills/*"],
                cwd=repo,
                env=ours[0].env,
                capture_output=True,
                check=False,
            )
            everyone = [peer, *ours]
            for side in [*ours] if args.light_warm else everyone:
                # warm: byte-code, kept probes, file cache (with --light-warm, the probes on one case)
                run_once(warm_side(side, cases[0]["id"]) if args.light_warm else side, repo, api)
            for number in range(args.rounds):
                for side in everyone if number % 2 == 0 else everyone[::-1]:
                    run, starts = run_once(side, repo, api)
                    side.runs.append(run)
                    side.kinds.update(starts)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"peer: {'amd/skills checkout' if args.peer else 'the stand-in runner under tests/ (no --peer)'}")
    print_machine_load(speed)
    report(peer, ours, args.rounds, cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
