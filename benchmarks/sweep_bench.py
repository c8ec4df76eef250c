"""Speed of `skillscope sweep` (the lexical engine) on a synthetic catalog (a benchmark, not a test).

Generates a catalog of --skills skills with 10 cases each (lexical_bench.py's generator), then runs the
whole command in-process with its defaults: 8 sizes from the catalog's to ten times it (100 to 1,000
skills for the default catalog), 5 seeded orderings of the built-in ballast, claude's and codex's
listings. Prints wall and CPU seconds (on a shared machine wall time inflates; CPU time is the run's own),
how many listings were ranked, and the knee found on each agent.
Target: a 100-skill catalog swept to 1,000 skills in 8 sizes in under 60 s on this machine (wall).

    python benchmarks/sweep_bench.py [--skills 100] [--repeat 5]
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from pathlib import Path

from bench_machine import print_machine_load, reference_loop
from lexical_bench import generate

from harness.cli import main
from harness.context import Context

TARGET_SECONDS = 60.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=100, help="skills in the catalog (default: 100)")
    parser.add_argument("--repeat", type=int, default=5, help="the sweep's --repeat (default: 5)")
    return parser.parse_args(argv)


def bench(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    speed_before = reference_loop()
    with tempfile.TemporaryDirectory(prefix="skillscope-sweep-bench-") as tmp:
        root = generate(Path(tmp) / "catalog", args.skills)
        output = Path(tmp) / "report.json"
        words = ["sweep", "--repo", str(root), "--skills-dir", "skills/*", "--repeat", str(args.repeat)]
        words += ["--output", str(output)]
        ctx = Context(environ={}, cwd=root, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
        wall, cpu = time.perf_counter(), time.process_time()
        code = main(words, ctx)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        report = json.loads(output.read_text(encoding="utf-8"))
    print_machine_load(speed_before)
    sizes = report["sizes"]
    print(
        f"sweep of {args.skills} skills x {report['cases']} cases at {len(sizes)} sizes "
        f"({sizes[0]}-{sizes[-1]}) x {report['repeats']} repeats on "
        f"{', '.join(leg['agent'] for leg in report['agents'])}: {report['gradings']} listings ranked, "
        f"exit [{code}]"
    )
    for leg in report["agents"]:
        print(f"  {leg['agent']}: {leg['knee']['says']}")
    meets = "meets" if wall < TARGET_SECONDS else "MISSES"
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s (target {TARGET_SECONDS:.0f} s wall), {meets}")
    return 0


if __name__ == "__main__":
    raise SystemExit(bench())
