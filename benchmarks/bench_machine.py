"""What the benchmarks measure of the machine itself, so that their figures can be read against its load,
and the claude CLI the agent benchmarks drive.

Imported by the benchmark scripts as a sibling (`python benchmarks/<name>.py` puts this folder on the path).
"""

from __future__ import annotations

import os
import resource
import shutil
import time


def find_claude() -> str:
    """$SKILLSCOPE_CLAUDE, else $SKILLSCOPE_TEST_CLAUDE, else `claude` on PATH; the script stops saying
    which to set when there is none."""
    for name in ("SKILLSCOPE_CLAUDE", "SKILLSCOPE_TEST_CLAUDE"):
        if os.environ.get(name):
            return os.environ[name]
    found = shutil.which("claude")
    if not found:
        raise SystemExit("set SKILLSCOPE_CLAUDE (or SKILLSCOPE_TEST_CLAUDE) to the claude executable")
    return found


def children_cpu() -> float:
    """CPU seconds of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reference_loop() -> float:
    """CPU seconds of a fixed pure-Python loop: the machine's speed at this moment, for reading the rest."""
    started = time.process_time()
    total = 0
    for number in range(5_000_000):
        total += number
    return time.process_time() - started


def print_machine_load(speed_before: float) -> None:
    """The load at the end and the reference loop before and after, printed above a benchmark's figures."""
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
        "(wall time inflates when it exceeds the cores; CPU time does not)"
    )
    print(
        f"reference loop (5M additions): {speed_before:.2f} s before, {reference_loop():.2f} s after "
        "(the same code: a larger figure means a slower machine during the run)"
    )
