"""What finding an agent CLI costs a run before its first case (a benchmark, not a test): `locate` with
no kept answers (it starts the CLI for `--version` and `--help`) against `locate` reading them from the
user's cache (harness/agent/probes.py), interleaved round by round so both see the same machine; for
claude also its `--sandbox` probe (claude started to its init event) against the verdict kept.

Prints, per runtime, the median wall and CPU seconds (this process and the CLIs it started) of each, and
their ratio. The CLI is the pinned one named by $SKILLSCOPE_TEST_<RUNTIME> (else its name on PATH). Where
claude's sandbox does not start (no bubblewrap or socat) nothing is kept, and the sandbox row says why.

    python benchmarks/probe_bench.py [--rounds 5] [--runtimes claude,codex]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_machine import children_cpu, print_machine_load, reference_loop

from harness.agent import ClaudeAgent, LocatedCLI, SandboxSupport, locate
from harness.agent.runtimes import connect_runtime


def environ_of(cache: Path) -> dict[str, str]:
    # A key in the environment gives claude a throwaway config dir; the sandbox probe sends no request.
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(cache.parent),
        "XDG_CACHE_HOME": str(cache),
        "ANTHROPIC_API_KEY": "probe-bench",
    }


def timed(runtime: str, cli: str, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds (own and children's) of locating `cli` with its answers kept under `cache`."""
    wall, cpu, children = time.perf_counter(), time.process_time(), children_cpu()
    connect_runtime(runtime, cli, environ_of(cache))
    return time.perf_counter() - wall, time.process_time() - cpu + children_cpu() - children


def timed_sandbox(claude: LocatedCLI, cache: Path) -> tuple[float, float, SandboxSupport]:
    """Wall and CPU seconds of claude's sandbox probe with its verdict kept (or not) under `cache`."""
    ready = ClaudeAgent(claude, environ_of(cache))
    wall, cpu, children = time.perf_counter(), time.process_time(), children_cpu()
    support = ready.probe_sandbox()
    return time.perf_counter() - wall, time.process_time() - cpu + children_cpu() - children, support


def print_row(name: str, cold: list[tuple[float, ...]], warm: list[tuple[float, ...]]) -> None:
    cold_wall, cold_cpu = (statistics.median(x[i] for x in cold) for i in (0, 1))
    warm_wall, warm_cpu = (statistics.median(x[i] for x in warm) for i in (0, 1))
    print(
        f"{name}: probed {cold_wall:.3f} s wall, {cold_cpu:.3f} s CPU; kept {warm_wall:.3f} s wall, "
        f"{warm_cpu:.3f} s CPU; kept/probed CPU {warm_cpu / cold_cpu:.3f}"
    )


def sandbox_rounds(cli: str, folder: Path, rounds: int) -> tuple[list, list, str | None]:
    """claude's sandbox probe, probed (an empty cache each round) and kept, interleaved; the reason
    when the sandbox does not start here (then nothing is kept)."""
    kept = folder / "sandbox-kept" / "cache"
    kept.mkdir(parents=True)
    claude = locate(cli, environ_of(kept))
    first = timed_sandbox(claude, kept)[2]
    cold, warm = [], []
    for number in range(rounds):
        empty = folder / f"sandbox-{number}" / "cache"
        empty.mkdir(parents=True)
        cold.append(timed_sandbox(claude, empty)[:2])
        warm.append(timed_sandbox(claude, kept)[:2])
    return cold, warm, None if first.available else str(first.reason)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runtimes", default="claude")
    args = parser.parse_args()
    speed = reference_loop()
    rows = []
    for runtime in args.runtimes.split(","):
        cli = os.environ.get(f"SKILLSCOPE_TEST_{runtime.upper()}")
        if not cli:
            print(f"set SKILLSCOPE_TEST_{runtime.upper()} to the {runtime} CLI", file=sys.stderr)
            return 2
        cold: list[tuple[float, float]] = []
        warm: list[tuple[float, float]] = []
        with tempfile.TemporaryDirectory() as folder:
            kept = Path(folder) / "kept" / "cache"
            kept.mkdir(parents=True)
            timed(runtime, cli, kept)  # fills the kept answers once
            for number in range(args.rounds):
                empty = Path(folder) / f"round-{number}" / "cache"
                empty.mkdir(parents=True)
                cold.append(timed(runtime, cli, empty))
                warm.append(timed(runtime, cli, kept))
            rows.append((runtime, cold, warm, None))
            if runtime == "claude":
                rows.append(("claude sandbox", *sandbox_rounds(cli, Path(folder), args.rounds)))
    print_machine_load(speed)
    for name, cold, warm, off in rows:
        if off is None:
            print_row(name, cold, warm)
        else:
            print(f"{name}: not kept here, the sandbox does not start ({off}); probed on every run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
