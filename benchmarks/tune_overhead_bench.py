"""What `skillscope tune` spends per candidate beyond plain `skillscope routing` on the same cases, in the
same room, against the real claude CLI and the scripted model API (a benchmark, not a test).

    SKILLSCOPE_CLAUDE=/path/to/claude python benchmarks/tune_overhead_bench.py [--cases 30] [--jobs 4]
        [--latency 0.2] [--candidates 3] [--once]

The room: `alpha` (the tuned skill; its positives ask about a receipt, its near misses about the weather)
and its neighbour `beta` (ledger questions, and two accounting near misses). The fake model fires the
installed skill whose description shares the most topic words (receipt, ledger, weather) with the
prompt, or none. alpha's current description ("Files invoices") misses every receipt; the three
candidates are the tests' own: one broken (stopped early), one that steals beta's cases, one good.

Each command runs in a fresh interpreter that reports its own CPU time (the harness's, without the
claude processes it starts, which are given apart as child CPU) and its wall time. Figures printed:
- routing: `routing --routing-room all` over every case of the room once (one sample per case).
- tune: `tune alpha --candidates` with the three candidates, no cache (--candidates 2: the last two,
  the stealer and the good one; 1: the good one, with --once only; smaller runs for the test suite).
- per sample, for each: model requests, wall seconds, harness CPU; their ratios tune / routing.
- per candidate beyond routing: what tune spent, less what routing would spend on the samples tune
  graded (at routing's per-sample figures), divided by the candidates tried.
- the paid cache: tune run after a routing run into the same cache, where the current description's
  samples are replays: its requests, and how many of the current description's samples cost nothing.

--once (the test suite's size, about half the claude runs): each command runs once, the routing run
into the cache standing for routing --repeat 1 and no tune with 1 candidate beside the larger one, so
the per-sample and per-candidate figures are whole-run means, start-up included, not marginal
differences: they show the script runs, not the target.

Targets: 1.00 model requests per sample on both; tune's wall and harness CPU per sample within 1.25x
routing's. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_machine import children_cpu, find_claude

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi and tests.support.helpers live beside the package

from tests.fakeapi import FakeAPI, RecordedRequest  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.support.helpers import make_skill  # noqa: E402

TOPICS = {"receipt", "ledger", "weather"}
CURRENT = "Files invoices for the accounts team."
NEIGHBOUR = "Answers ledger questions: balances and entries in the ledger."
CANDIDATES = [
    "Reads the weather forecast and the ledger, and answers questions about both.",
    "Reads a receipt or a ledger and works out its total.",
    "Reads a receipt and works out its total. Use for any receipt.",
]
SAMPLE_TARGET = 1.25
# The smallest room whose 40 % of receipts rounds to the 6 positives tune's split needs (negatives: 8).
MIN_CASES = 14
# The command in a fresh interpreter: its own CPU (every thread, none of its children) and wall time.
CHILD = """
import json, resource, sys, time
from harness.cli import main
started = time.monotonic()
code = main(sys.argv[2:])
usage = resource.getrusage(resource.RUSAGE_SELF)
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "wall": time.monotonic() - started, "cpu": usage.ru_utime + usage.ru_stime}, out)
"""


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


class TopicModel:
    """Fires the installed skill sharing the most topic words with the prompt (the first by name on a tie),
    or answers in text."""

    def __init__(self, latency: float):
        self.latency = latency

    def __call__(self, request: RecordedRequest):
        if request.tool_results:
            return R.text("Done.", delay_s=self.latency)
        asked = words(request.prompt) & TOPICS
        shared = {name: len(words(text) & asked) for name, text in sorted(request.skill_listing.items())}
        best = max(shared, key=lambda name: shared[name], default=None)
        if best and shared[best]:
            return R.skill(best, delay_s=self.latency)
        return R.text("I can answer that directly.", delay_s=self.latency)


def case(case_id: str, prompt: str, fires: bool) -> dict:
    out = {"id": case_id, "skill_should_trigger": fires, "prompt": prompt}
    return {**out, "expected_behavior": ["Answers from what the skill says"]} if fires else out


def build_room(root: Path, cases: int) -> None:
    """alpha: 40 % receipts, 20 % weather near misses; beta: the rest, ledger questions and 2 near misses."""
    receipts, weather = round(cases * 0.4), round(cases * 0.2)
    ledger = cases - receipts - weather - 2
    alpha = [
        case(f"alpha-receipt-{n}", f"Here is my receipt number {n}; what was the total?", True)
        for n in range(1, receipts + 1)
    ]
    alpha += [
        case(f"alpha-weather-{n}", f"What is the weather like in town {n} tomorrow?", False)
        for n in range(1, weather + 1)
    ]
    beta = [
        case(f"beta-ledger-{n}", f"Look up entry {n} in the ledger and explain it.", True)
        for n in range(1, ledger + 1)
    ]
    beta += [
        case("beta-near-1", "Explain double-entry bookkeeping in general terms.", False),
        case("beta-near-2", "Which accounting software is popular with small firms?", False),
    ]
    for name, description, evals in (("alpha", CURRENT, alpha), ("beta", NEIGHBOUR, beta)):
        make_skill(
            root, name, frontmatter={"name": name, "description": description}, evals={"evaluations": evals}
        )
    (root / "candidates.json").write_text(json.dumps(CANDIDATES), encoding="utf-8")


def environ(api: FakeAPI, claude: str, home: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
    env.update(
        ANTHROPIC_BASE_URL=api.base_url,
        ANTHROPIC_API_KEY="bench",
        HOME=str(home),
        SKILLSCOPE_CLAUDE=claude,
        PYTHONPATH=str(ROOT),
        CI="true",  # nobody at a terminal: tune asks no question
    )
    return env


def command(api: FakeAPI, env: dict, repo: Path, out: Path, *argv: str) -> dict:
    """One command in a fresh interpreter: its figures, its report, and the model requests it made."""
    figures_file = out.with_suffix(".figures")
    before_requests, before_cpu = len(api.agent_turns()), children_cpu()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(figures_file), *argv, "--repo", str(repo), "--output", str(out)],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if not out.exists() or not figures_file.exists():
        raise SystemExit(f"{argv[0]} exited {done.returncode} without a report: {done.stderr[-800:]}")
    figures = json.loads(figures_file.read_text(encoding="utf-8"))
    figures["requests"] = len(api.agent_turns()) - before_requests
    # The interpreter and every claude it waited for, less the interpreter itself: the agent's CPU.
    figures["agent_cpu"] = children_cpu() - before_cpu - figures["cpu"]
    figures["report"] = json.loads(out.read_text(encoding="utf-8"))
    return figures


ROOM_FLAGS = ("--skip-preflight", "--no-builtin-negatives")


def routing(api, env, repo, out, jobs, repeat, *cache) -> dict:
    argv = ["routing", "--routing-room", "all", "--min-accuracy", "0", "--jobs", str(jobs)]
    figures = command(api, env, repo, out, *argv, "--repeat", str(repeat), *ROOM_FLAGS, *cache)
    totals = figures["report"]["totals"]
    figures["samples"], figures["cached"] = totals["samples"], totals["cached_samples"]
    return figures


def tune(api, env, repo, out, jobs, candidates: list[str], *cache) -> dict:
    (repo / "candidates.json").write_text(json.dumps(candidates), encoding="utf-8")
    argv = ["tune", "alpha", "--candidates", "candidates.json", "--confidence", "0.8", "--jobs", str(jobs)]
    figures = command(api, env, repo, out, *argv, *ROOM_FLAGS, *cache)
    report = figures["report"]
    arms = [report["current"], *report["candidates"]]
    figures["samples"] = sum(a["spend"]["samples_run"] + a["spend"]["cached_samples"] for a in arms)
    figures["cached"] = sum(a["spend"]["cached_samples"] for a in arms)
    figures["current_cached"] = report["current"]["spend"]["cached_samples"]
    figures["current_samples"] = sum(len(v) for v in report["current"]["cases"].values())
    return figures


def show(label: str, f: dict) -> None:
    print(
        f"{label:<30} {f['samples']:4d} sample(s) ({f['cached']:2d} cached), {f['requests']:4d} model "
        f"requests, {f['wall']:7.2f} s wall, harness CPU {f['cpu']:5.2f} s, claude CPU "
        f"{f['agent_cpu']:6.2f} s; exit {f['code']}",
        flush=True,
    )


FIGURES = (("requests", "model requests", ""), ("wall", "wall time", " s"), ("cpu", "harness CPU", " s"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=30, help=f"cases in the room, at least {MIN_CASES}")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds before each fake reply")
    parser.add_argument(
        "--candidates",
        type=int,
        choices=(1, 2, len(CANDIDATES)),
        default=len(CANDIDATES),
        help="candidates in the larger tune run, the last ones of the list (2: the stealer and the good "
        "one; 1, with --once: the good one)",
    )
    parser.add_argument(
        "--once",
        action="store_true",
        help="each command once, figures as whole-run means rather than marginal differences (a smaller "
        "run for the test suite)",
    )
    args = parser.parse_args()
    if args.candidates == 1 and not args.once:
        parser.error("--candidates 1 goes with --once: one more candidate is measured against a tune with 1")
    if args.cases < MIN_CASES:
        parser.error(
            f"--cases must be at least {MIN_CASES}: tune's split needs 6 positives of alpha (40 % of the "
            "room) and 6 negatives"
        )
    claude = find_claude()
    scratch = Path(tempfile.mkdtemp(prefix="tune-overhead-"))
    try:
        repo = scratch / "repo"
        build_room(repo, args.cases)
        (scratch / "home").mkdir()
        with FakeAPI(TopicModel(args.latency)) as api:
            env = environ(api, claude, scratch / "home")
            print(
                f"room: {args.cases} cases (alpha and beta), --jobs {args.jobs}, model latency "
                f"{args.latency * 1000:.0f} ms, {os.cpu_count()} CPU(s), "
                f"load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            none = ("--no-cache",)
            tried = CANDIDATES[-args.candidates :]
            several = f"tune, {len(tried)} candidate(s)"
            runs = {}
            if not args.once:
                runs["routing --repeat 1"] = routing(api, env, repo, scratch / "r1.json", args.jobs, 1, *none)
                runs["routing --repeat 2"] = routing(api, env, repo, scratch / "r2.json", args.jobs, 2, *none)
                runs["tune, 1 candidate"] = tune(
                    api, env, repo, scratch / "t1.json", args.jobs, CANDIDATES[-1:], *none
                )
            runs[several] = tune(api, env, repo, scratch / "t3.json", args.jobs, tried, *none)
            cache = ("--cache", str(scratch / "cache"))
            runs["routing into a cache"] = routing(api, env, repo, scratch / "rc.json", args.jobs, 1, *cache)
            runs[f"{several}, cached"] = tune(api, env, repo, scratch / "tc.json", args.jobs, tried, *cache)
        for label, figures in runs.items():
            show(label, figures)
        print()
        t3 = runs[several]
        if args.once:
            # Whole-run means: start-up (imports, the catalog, the structural gate) counts on both sides.
            r1, r2 = {key: 0.0 for key, _, _ in FIGURES} | {"samples": 0}, runs["routing into a cache"]
            t1 = {key: t3[key] * t3["current_samples"] / t3["samples"] for key, _, _ in FIGURES}
            more = len(tried)
            samples = (t3["samples"] - t3["current_samples"]) / more
            which = "each candidate's mean; --once: whole-run figures"
        else:
            # Marginal figures, so that start-up (imports, the catalog, the structural gate) counts on
            # neither side: routing's cost of one more sample, tune's of one more candidate.
            r1, r2 = runs["routing --repeat 1"], runs["routing --repeat 2"]
            t1 = runs["tune, 1 candidate"]
            more = len(tried) - 1
            samples = (t3["samples"] - t1["samples"]) / more
            which = "the broken one stops early, the stealer does not" if more > 1 else "the stealer"
        print(f"one more candidate: {samples:.1f} sample(s) ({which})")
        ratios = {}
        for key, name, unit in FIGURES:
            per_sample = (r2[key] - r1[key]) / (r2["samples"] - r1["samples"])
            per_candidate = (t3[key] - t1[key]) / more
            routing_would = per_sample * samples
            ratios[key] = per_candidate / routing_would if routing_would > 0 else float("nan")
            # On a loaded host the two routing runs' difference can come out at or below zero: no ratio.
            ratio = f"{ratios[key]:.2f}x" if routing_would > 0 else "no ratio: routing's figure is noise here"
            print(
                f"{name + ':':<16} routing {per_sample:.3f}{unit} per sample; tune "
                f"{per_candidate:.3f}{unit} per candidate against {routing_would:.3f}{unit} for routing "
                "on its samples: "
                f"{per_candidate - routing_would:+.3f}{unit} beyond routing ({ratio})"
            )
        meets = ratios["requests"] == 1 and ratios["wall"] <= SAMPLE_TARGET and ratios["cpu"] <= SAMPLE_TARGET
        # Whole-run means count start-up on both sides: they say nothing of the target's marginal figures.
        verdict = "not judged (--once)" if args.once else "meets" if meets else "MISSES"
        print(
            f"target: 1.00x routing's model requests, wall time and harness CPU within {SAMPLE_TARGET}x "
            f"per candidate: {verdict}"
        )
        warm = runs[f"{several}, cached"]
        print(
            f"paid cache: after a routing run, {warm['current_cached']} of the current description's "
            f"{warm['current_samples']} sample(s) were replays; tune asked the model {warm['requests']} "
            f"time(s) against {t3['requests']} without the cache"
        )
        print(f"chosen: {t3['report']['chosen']} (no cache), {warm['report']['chosen']} (cached)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
