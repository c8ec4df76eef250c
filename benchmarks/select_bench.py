"""Time `skillscope select` on a 1,000-skill repo and a 10,000-path change (target: under 1 s).

    python benchmarks/select_bench.py [--skills N] [--paths N] [--repeat N] [--keep DIR]

Builds the repo in a temporary directory (every tenth skill asks for hardware, every fiftieth names a
runner type, every seventh asserts nothing beyond routing), then times the plan in-process and as a
subprocess (interpreter start-up included), printing the best and median of --repeat runs. It exits 0
once the figures are printed, whether or not they meet the target; a failed run of select ends it with
the reason.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.cli import main
from harness.context import Context

TARGET_S = 1.0
RUNNER_TYPES = {
    "instinct": {
        "labels": ["self-hosted", "mi300x"],
        "os": ["Linux"],
        "gate": "enable_mi_ci",
        "environment": "instinct",
    }
}


def build_repo(root: Path, skills: int) -> list[str]:
    names = [f"skill-{index:04d}" for index in range(skills)]
    for index, name in enumerate(names):
        folder = root / "skills" / name
        (folder / "evals").mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does job {index}.\n---\n# Job\n")
        cases = [
            {"id": f"{name}-{case}", "skill_should_trigger": case < 3, "prompt": f"Prompt {case}."}
            for case in range(5)
        ]
        if index % 7:
            cases[0]["expected_behavior"] = ["Does the job"]
        (folder / "evals" / "evals.json").write_text(json.dumps({"evaluations": cases}))
        if index % 50 == 0:
            (folder / "evals" / "machine.yml").write_text("runner_type: instinct\n")
        elif index % 10 == 0:
            (folder / "evals" / "machine.yml").write_text(
                f"labels: [self-hosted, gpu-{index % 4}]\nos: [Linux]\n"
            )
    return names


def change(names: list[str], paths: int) -> str:
    """`paths` changed files spread over every skill, a few outside any skill, one under a deleted one."""
    files = (
        "SKILL.md",
        "evals/evals.json",
        "references/guide-{n}.md",
        "scripts/step-{n}.py",
        "assets/{n}.txt",
    )
    lines = [
        f"skills/{names[i % len(names)]}/{files[(i // len(names)) % len(files)].format(n=i)}"
        for i in range(paths - 11)
    ]
    lines += [f"docs/page-{i}.md" for i in range(10)] + ["skills/retired/SKILL.md"]
    return "\n".join(lines) + "\n"


def select_args(root: Path, names: list[str]) -> list[str]:
    return [
        "select",
        "--repo",
        str(root),
        "--changed",
        "--skills-dir",
        "skills/*",
        "--routing-room",
        ",".join(names[:20]),
        "--infra-paths",
        ".github/workflows/*.yml,noxfile.py",
        "--scoped-gate",
        "run-gpu",
        "--scoped-environment",
        "gpu",
        "--runner-types",
        json.dumps(RUNNER_TYPES),
        "--labels",
        "run-gpu",
    ]


def in_process(argv: list[str], stdin: str, root: Path) -> tuple[float, float, str]:
    """(wall, cpu, stdout) of one in-process run."""
    ctx = Context(environ={}, cwd=root, stdin=io.StringIO(stdin), stdout=io.StringIO(), stderr=io.StringIO())
    wall, cpu = time.perf_counter(), time.process_time()
    code = main(argv, ctx)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if code != 0:
        raise SystemExit(f"select failed in-process ({code}): {ctx.stderr.getvalue()}")
    return wall, cpu, ctx.stdout.getvalue()


def as_subprocess(argv: list[str], stdin: str, root: Path) -> tuple[float, float]:
    """(wall, cpu) of one run in a fresh interpreter, start-up and imports included."""
    command = [sys.executable, "-m", "harness", *argv]
    before = _children_cpu()
    wall = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=root, check=False)
    wall = time.perf_counter() - wall
    if done.returncode != 0:
        raise SystemExit(f"select failed as a subprocess ({done.returncode}): {done.stderr}")
    return wall, _children_cpu() - before


def _children_cpu() -> float:
    try:
        import resource  # POSIX only; elsewhere the CPU column reads 0
    except ImportError:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report(label: str, runs: list[tuple[float, float]]) -> None:
    """Wall time is the target; CPU time shows the cost on a machine busy with other work."""
    walls, cpus = [run[0] for run in runs], [run[1] for run in runs]
    median = statistics.median(walls)
    verdict = "ok" if median < TARGET_S else "SLOWER THAN TARGET"
    print(
        f"{label:<12} wall best {min(walls) * 1000:7.1f} ms, median {median * 1000:7.1f} ms   "
        f"cpu median {statistics.median(cpus) * 1000:7.1f} ms   ({verdict})"
    )


def main_bench() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--skills", type=int, default=1000)
    parser.add_argument("--paths", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", metavar="DIR", help="build the repo here and leave it for inspection")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="select-bench-") as scratch:
        root = Path(args.keep) if args.keep else Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        names = build_repo(root, args.skills)
        stdin = change(names, args.paths)
        argv = select_args(root, names)
        runs = [in_process(argv, stdin, root) for _ in range(args.repeat)]
        plan = json.loads(runs[0][2])
        print(
            f"{args.skills} skills, {stdin.count(chr(10))} changed paths -> "
            f"{len(plan['default'])} default, {len(plan['scoped'])} scoped, "
            f"{len(plan['skipped'])} skipped legs, "
            f"{len(plan['no_behavior'])} without behavior, routing {plan['routing']}"
        )
        report("in-process", [(wall, cpu) for wall, cpu, _ in runs])
        report("subprocess", [as_subprocess(argv, stdin, root) for _ in range(args.repeat)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main_bench())
