"""Speed of `skillscope routing --engine lexical` on synthetic catalogs (a benchmark, not a test).

Generates catalogs of several sizes into a temp dir: each skill a SKILL.md whose description mixes words
of its own topic with words common across the catalog (drawn with Zipf weights, as real descriptions
share "file", "code", "report"), and an evals.json of 10 cases (6 positives, 4 near misses borrowing a
neighbour's topic). It times the engine alone (index, then every case ranked and graded) at each size,
prints the CPU cost per case x skill and its growth between sizes (flat or falling = at most linear in
cases x skills), then times the whole command in-process and as a subprocess at the largest size.
Wall and CPU seconds are both shown: on a shared machine wall time inflates, CPU time is the run's own.
Target: 1,000 skills x 10 cases in under 2 s on 2 cores (wall).

    python benchmarks/lexical_bench.py [--sizes 250,500,1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_machine import children_cpu, print_machine_load, reference_loop

from harness.cli import main
from harness.context import Context
from harness.model import catalog, repo
from harness.routing.lexical import LexicalEngine

TARGET_SECONDS = 2.0
TARGET_SIZE = 1000
SYLLABLES = ("ka", "ro", "mi", "te", "su", "lo", "na", "vi", "pe", "da", "zo", "ru", "ge", "fa", "bi", "tu")
COMMON_WORDS = 2000
ZIPF_OFFSET = 10
TOPIC_WORDS = 8
SEED = 20260


def vocabulary(rng: random.Random, count: int) -> list[str]:
    words: dict[str, None] = {}
    while len(words) < count:
        words["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))] = None
    return list(words)


class Catalog:
    """Topics and common words for `size` skills, the same for the same size on every run."""

    def __init__(self, size: int):
        self.rng = random.Random(SEED + size)
        words = vocabulary(self.rng, COMMON_WORDS + size * TOPIC_WORDS)
        self.common = words[:COMMON_WORDS]
        # Zipf-Mandelbrot: the commonest word sits in about a quarter of the descriptions, as "file"
        # does in a real catalog once stop words are gone.
        self.weights = [1 / (rank + ZIPF_OFFSET) for rank in range(1, COMMON_WORDS + 1)]
        self.topics = [
            words[COMMON_WORDS + n * TOPIC_WORDS : COMMON_WORDS + (n + 1) * TOPIC_WORDS] for n in range(size)
        ]

    def name(self, number: int) -> str:
        return f"{self.topics[number][0]}-{self.topics[number][1]}-{number:04d}"

    def some_common(self, count: int) -> list[str]:
        return self.rng.choices(self.common, weights=self.weights, k=count)

    def description(self, number: int) -> str:
        words = self.rng.sample(self.topics[number], 6) + self.some_common(14)
        self.rng.shuffle(words)
        return (
            f"{' '.join(words).capitalize()}. Use when the user asks to {' '.join(self.topics[number][:3])}."
        )

    def cases(self, number: int) -> list[dict]:
        name, size = self.name(number), len(self.topics)
        out = []
        for index in range(1, 7):
            words = self.rng.sample(self.topics[number], 3) + self.some_common(5)
            case = {"id": f"{name}-pos-{index}", "skill_should_trigger": True, "prompt": " ".join(words)}
            if index == 1:
                case["expected_behavior"] = ["Does the job the description promises"]
            out.append(case)
        for index in range(1, 5):
            neighbour = self.topics[(number + index) % size]
            words = (
                self.rng.sample(neighbour, 3) + self.rng.sample(self.topics[number], 1) + self.some_common(4)
            )
            out.append(
                {"id": f"{name}-neg-{index}", "skill_should_trigger": False, "prompt": " ".join(words)}
            )
        return out


def generate(root: Path, size: int) -> Path:
    made = Catalog(size)
    for number in range(size):
        name = made.name(number)
        folder = root / "skills" / name
        (folder / "evals").mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {made.description(number)}\n---\n# {name}\n\n1. Do the job.\n",
            encoding="utf-8",
        )
        text = json.dumps({"evaluations": made.cases(number)}, indent=1) + "\n"
        (folder / "evals" / "evals.json").write_text(text, encoding="utf-8")
    return root


def engine_cpu(root: Path) -> tuple[float, int, int]:
    """CPU seconds to index the room and grade every case; with the case and skill counts."""
    loaded = catalog.load(repo.discover(root, ["skills/*"]))
    cases = loaded.cases()
    descriptions = {name: skill.description for name, skill in loaded.skills.items()}
    started = time.process_time()
    LexicalEngine(descriptions).grade_all(cases)
    return time.process_time() - started, len(cases), len(descriptions)


def arguments(root: Path, output: Path) -> list[str]:
    return [
        "routing",
        "--engine",
        "lexical",
        "--repo",
        str(root),
        "--skills-dir",
        "skills/*",
        "--routing-room",
        "all",
        "--min-accuracy",
        "0",
        "--output",
        str(output),
    ]


def run_in_process(root: Path, output: Path) -> tuple[float, float, int]:
    ctx = Context(environ={}, cwd=root, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    wall, cpu = time.perf_counter(), time.process_time() + children_cpu()
    code = main(arguments(root, output), ctx)
    return time.perf_counter() - wall, time.process_time() + children_cpu() - cpu, code


def run_subprocess(root: Path, output: Path) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "harness", *arguments(root, output)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        env={"PATH": "/usr/bin:/bin"},
    )
    return time.perf_counter() - wall, children_cpu() - cpu, done.returncode


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="250,500,1000", help="catalog sizes, comma list (default: 250,500,1000)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed runs per size; the best and median are shown"
    )
    return parser.parse_args(argv)


def bench(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    speed_before = reference_loop()
    rows = []
    with tempfile.TemporaryDirectory(prefix="skillscope-lexical-bench-") as tmp:
        for size in sizes:
            root = generate(Path(tmp) / f"catalog-{size}", size)
            runs = [engine_cpu(root) for _ in range(args.repeat)]
            rows.append((size, min(r[0] for r in runs), statistics.median(r[0] for r in runs), runs[0][1]))
        largest = Path(tmp) / f"catalog-{sizes[-1]}"
        output = Path(tmp) / "report.json"
        run_in_process(largest, output)  # warm the file cache and the imports
        in_process = [run_in_process(largest, output) for _ in range(args.repeat)]
        spawned = [run_subprocess(largest, output) for _ in range(args.repeat)]
        report = json.loads(output.read_text(encoding="utf-8"))
    print_machine_load(speed_before)
    print(
        f"{'skills':>7} {'cases':>7} {'engine cpu s (best)':>20} {'(median)':>9} {'us per case x skill':>20}"
    )
    for size, best, median, cases in rows:
        print(f"{size:>7} {cases:>7} {best:>19.3f} {median:>7.3f} {1e6 * best / (cases * size):>20.4f}")
    if len(rows) > 1:
        (small, first, _, small_cases), (large, last, _, large_cases) = rows[0], rows[-1]
        ratio = (last / (large_cases * large)) / (first / (small_cases * small))
        print(
            f"cost per case x skill, {large} vs {small} skills (best runs): {ratio:.2f} "
            "(1.00 = linear in cases x skills; below 1 = better than linear)"
        )
    rank1 = report["totals"].get("rank1", {})
    exits = sorted({t[2] for t in in_process + spawned})
    print(
        f"whole command, {sizes[-1]} skills x 10 cases: in-process "
        f"{statistics.median(t[0] for t in in_process):.3f} s wall, "
        f"{min(t[1] for t in in_process):.3f} s cpu; "
        f"subprocess {statistics.median(t[0] for t in spawned):.3f} s wall, "
        f"{min(t[1] for t in spawned):.3f} s cpu; exit {exits}; "
        f"rank-1 rate {rank1.get('rank1_rate')}, top-k rate {rank1.get('top_k_rate')}"
    )
    if sizes[-1] == TARGET_SIZE:
        # The target is wall time on 2 cores (a large run grades part of its cases in a forked child
        # while the structural gate runs); on a busy host read the CPU figure and the reference loop.
        engine = rows[-1][2]
        wall = statistics.median(t[0] for t in spawned)
        print(
            f"{TARGET_SIZE} skills x 10 cases: the engine alone {engine:.2f} CPU s, "
            f"{'meets' if engine < TARGET_SECONDS else 'MISSES'} the {TARGET_SECONDS:g} s target; "
            f"the whole command as a subprocess {wall:.2f} s wall "
            f"({min(t[1] for t in spawned):.2f} CPU s in all processes), "
            f"{'meets' if wall < TARGET_SECONDS else 'MISSES'} it"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(bench())
