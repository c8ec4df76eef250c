"""Compare speed: `skillscope compare` of N cases against two separate `skillscope routing` runs of the
same cases, one per version. Interleaving both sides on one pool and sharing the room must cost nothing.

    SKILLSCOPE_CLAUDE=/path/to/claude python benchmarks/compare_bench.py [--cases 10] [--jobs 4]
        [--latency 0.2]

Everything runs against the scripted fake API (tests/fakeapi) on 127.0.0.1, whose every reply waits
--latency seconds before its first byte; the fake model fires `alpha` on a positive prompt and answers
in text otherwise. The baseline is a copy of the skill in a folder, so no git is involved.

Figures printed: the wall time of each routing run, their sum, the compare's wall time and the ratio.
Target (issue 12): compare <= 1.05x the two runs. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.fakeapi and tests.support live beside the package

from benchmarks.routing_bench import environ, find_claude  # noqa: E402
from harness.cli import main  # noqa: E402
from harness.context import Context  # noqa: E402
from tests.fakeapi import FakeAPI, RecordedRequest  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.support.helpers import evals_for, make_skill  # noqa: E402


class Model:
    def __init__(self, latency: float):
        self.latency = latency

    def __call__(self, request: RecordedRequest):
        if not request.tool_results and "the alpha job" in request.prompt:
            return R.skill("alpha", delay_s=self.latency)
        return R.text("No skill needed for this one.", delay_s=self.latency)


def timed(env: dict[str, str], repo: Path, argv: list[str]) -> float:
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    started = time.monotonic()
    code = main(
        [*argv, "--repo", str(repo), "--skip-preflight", "--output", str(repo.parent / "out.json")], ctx
    )
    if code not in (0, 1):
        raise SystemExit(f"{argv[0]} failed ({code}): {ctx.stderr.getvalue()[-400:]}")
    return time.monotonic() - started


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases", type=int, default=10, help="cases run on each side; below 5 a subset of the dataset"
    )
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    if args.cases < 1:
        parser.error("--cases must be at least 1")
    scratch = Path(tempfile.mkdtemp(prefix="compare-bench-"))
    try:
        repo = scratch / "repo"
        dataset = evals_for("alpha", positives=max(3, args.cases - 2), negatives=2)
        make_skill(repo, "alpha", evals=dataset)
        shutil.copytree(repo / "alpha", scratch / "alpha-before")
        # The first --cases of the dataset (all of it from 5 up; a dataset holds at least 3 positives and
        # 2 negatives), so a smoke run of one case still goes through both commands.
        only = ",".join(case["id"] for case in dataset["evaluations"][: args.cases])
        # No result cache: the second run and the compare would reuse the first run's samples.
        jobs = ["--jobs", str(args.jobs), "--skill", "alpha", "--only", only]
        jobs += ["--routing-room", "alpha", "--no-cache"]
        with FakeAPI(Model(args.latency)) as api:
            env = environ(api, find_claude(), scratch / "home")
            routing = ["routing", *jobs, "--min-accuracy", "0"]
            first, second = timed(env, repo, routing), timed(env, repo, routing)
            baseline = ["--baseline", str(scratch / "alpha-before"), "--repeat", "1", "--allow-regressions"]
            compared = timed(env, repo, ["compare", "--mode", "routing", *jobs, *baseline])
        print(f"routing (version A)      {first:7.2f} s")
        print(f"routing (version B)      {second:7.2f} s")
        print(f"two separate runs        {first + second:7.2f} s")
        print(f"compare, interleaved     {compared:7.2f} s")
        print(f"ratio                    {compared / (first + second):7.3f}x (target <= 1.05x)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_bench())
