"""What a pre-commit hook pays: start-up and a small catalog, against floors (a benchmark, not a test).

Times (wall and CPU) subprocesses interleaved round by round, so that a busy spell of a shared host
falls on every subject alike, and prints medians and ratios:

- `skillscope --version` and `skillscope --help` against a bare `python -c "import json"`
  (target: within 1.5x);
- `skillscope structural` on a generated catalog of 8 skills against a regex validator that does
  less (frontmatter name and description, relative link targets exist, the dataset parses), which
  is what a repo's home-grown check typically is (target: no slower), twice: with the parse memo
  emptied before every run (cold: every file parsed, as on a first run or after every file changed),
  with it kept and one SKILL.md edited before each run (edited: what a pre-commit hook pays on a
  commit that changed a skill), and with it kept and nothing changed (warm). The user cache is a temp
  folder of the benchmark's own, so the compiled dataset screens are made once, in the warm-up.
- the same three runs handed to a `skillscope daemon` (with a user cache of its own, so
  the runs above are not served); their CPU is the client's plus what the daemon spent on the run.
- the hook as the pre-commit hooks ship it (`--daemon auto`, one SKILL.md edited before each call):
  the first call runs in-process and starts a daemon in the background (the daemon's own start is
  printed apart: it is paid once per idle period), the calls after it are served.

    python benchmarks/startup_bench.py [--rounds 15] [--skills 8]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_daemon
from bench_machine import children_cpu
from structural_bench import generate

# Byte-code is written on the warm-up run, as it is for an installed package (pip compiles it).
ENVIRON = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
DAEMON_ENVIRON = dict(ENVIRON)  # with a user cache of its own: its daemon serves only the daemon subjects
START_TARGET = 1.5
CATALOG_TARGET = 1.0
COLD = "<cold>"  # the last word of a subject run with the parse memo emptied first
EDITED = "<edited>"  # the last word of a subject run after one SKILL.md changed
DAEMON = "<daemon>"  # the last word of a subject served by the daemon

# The reference validator: one file, regexes and PyYAML, no markdown parser, no anchors, no schema.
VALIDATOR = r"""
import json, re, sys
from pathlib import Path
import yaml
LINK = re.compile(r"\]\(([^)#\s]+)")
problems = 0
for skill in sorted(Path(sys.argv[1]).glob("skills/*")):
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---")[1])
    problems += meta.get("name") != skill.name or not meta.get("description")
    for page in skill.rglob("*.md"):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            problems += not target.startswith("http") and not (page.parent / target).exists()
    json.loads((skill / "evals" / "evals.json").read_text(encoding="utf-8"))
print(problems)
sys.exit(1 if problems else 0)
"""


def run_once(command: list[str], cwd: Path, environ: dict[str, str] = ENVIRON) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU is user+system of the child, which a busy host does not inflate."""
    if command[-1] == DAEMON:
        (wall, cpu), spent = bench_daemon.served(
            DAEMON_ENVIRON, lambda: run_once(command[:-1], cwd, DAEMON_ENVIRON)
        )
        return wall, cpu + spent
    if command[-1] == COLD:  # the cold subject: no parse memo (see the module docstring)
        shutil.rmtree(Path(environ["XDG_CACHE_HOME"]) / "skillscope" / "memo", ignore_errors=True)
        command = command[:-1]
    elif command[-1] == EDITED:  # a blank line added, then taken away: the same size, new content
        page = cwd / "skills" / "skill-0000" / "SKILL.md"
        text = page.read_text(encoding="utf-8")
        page.write_text(text[:-1] if text.endswith("\n\n") else text + "\n", encoding="utf-8")
        command = command[:-1]
    before, started = children_cpu(), time.perf_counter()
    done = subprocess.run(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=environ
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}")
    return elapsed, children_cpu() - before


def interleaved(subjects: dict[str, list[str]], cwd: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each subject, run once per round in turn."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in subjects}
    for command in subjects.values():
        run_once(command, cwd)  # warm the file cache and the .pyc files
    for _ in range(rounds):
        for name, command in subjects.items():
            times[name].append(run_once(command, cwd))
    return {
        name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
        for name, values in times.items()
    }


def verdict(ratio: float, target: float) -> str:
    return "meets" if ratio <= target else "MISSES"


def bench(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed runs of each subject (default: 15)")
    parser.add_argument("--skills", type=int, default=8, help="skills in the small catalog (default: 8)")
    args = parser.parse_args(argv)
    skillscope = str(Path(sys.executable).parent / "skillscope")
    with tempfile.TemporaryDirectory(prefix="skillscope-start-") as tmp:
        ENVIRON["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        DAEMON_ENVIRON["XDG_CACHE_HOME"] = str(Path(tmp) / "daemon-cache")
        DAEMON_ENVIRON["XDG_RUNTIME_DIR"] = str(Path(tmp) / "run")
        root = generate(Path(tmp) / "catalog", args.skills)
        validator = Path(tmp) / "validate.py"
        validator.write_text(VALIDATOR, encoding="utf-8")
        output = str(Path(tmp) / "report.json")
        structural = [skillscope, "structural", "--skills-dir", "skills/*", "--output", output]
        with bench_daemon.running(DAEMON_ENVIRON):
            medians = interleaved(
                {
                    "python -c 'import json'": [sys.executable, "-c", "import json"],
                    "skillscope --version": [skillscope, "--version"],
                    "skillscope --help": [skillscope, "--help"],
                    "regex validator": [sys.executable, str(validator), str(root)],
                    "structural, cold memo": [*structural, COLD],
                    "structural, one edited": [*structural, EDITED],
                    "structural, warm memo": structural,
                    "structural, daemon, cold memo": [*structural, COLD, DAEMON],
                    "structural, daemon, one edited": [*structural, EDITED, DAEMON],
                    "structural, daemon, warm memo": [*structural, DAEMON],
                },
                root,
                args.rounds,
            )
        first, daemon_start, hook = hook_series(skillscope, structural, root, Path(tmp), args.rounds)
    floor, regex = medians["python -c 'import json'"], medians["regex validator"]
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.rounds} rounds"
    )
    print("ratios are of CPU seconds (user+system), which a shared host's load does not inflate")
    print(f"{'subject':<30} {'wall s':>8} {'cpu s':>7} {'ratio':>7}  against")
    for name, (seconds, cpu) in medians.items():
        base, against = (regex, "regex validator") if name.startswith("structural") else (floor, "python")
        print(f"{name:<30} {seconds:>8.3f} {cpu:>7.3f} {cpu / base[1]:>7.2f}  {against}")
    for name in ("skillscope --version", "skillscope --help"):
        ratio = medians[name][1] / floor[1]
        print(f"{name}: {ratio:.2f}x a bare start, {verdict(ratio, START_TARGET)} the {START_TARGET}x target")
    for memo in (name.removeprefix("structural, ") for name in medians if name.startswith("structural")):
        ratio = medians[f"structural, {memo}"][1] / regex[1]
        print(
            f"structural on {args.skills} skills, {memo}: {ratio:.2f}x the regex validator, "
            f"{verdict(ratio, CATALOG_TARGET)} the {CATALOG_TARGET:g}x target"
        )
    print(
        f"hook as shipped (--daemon auto), one edited: first call {first[1]:.3f} cpu s "
        f"({first[1] / regex[1]:.2f}x, in-process; the daemon's start in the background {daemon_start:.3f} "
        f"cpu s, once per idle period); the calls after it {hook[1]:.3f} cpu s: {hook[1] / regex[1]:.2f}x "
        f"the regex validator, {verdict(hook[1] / regex[1], CATALOG_TARGET)} the {CATALOG_TARGET:g}x target"
    )
    return 0


def hook_series(
    skillscope: str, structural: list[str], root: Path, tmp: Path, rounds: int
) -> tuple[tuple[float, float], float, tuple[float, float]]:
    """The first call of `--daemon auto` (wall, CPU), the started daemon's CPU when it first answers,
    and the median (wall, CPU) of the calls it serves, the daemon's share counted. Outside CI, with a
    runtime folder of its own and the memo of the runs above."""
    environ = {k: v for k, v in ENVIRON.items() if k != "CI"}
    environ["XDG_RUNTIME_DIR"] = str(tmp / "hook-run")
    command = [skillscope, "--daemon", "auto", *structural[1:], EDITED]
    first = run_once(command, root, environ)
    daemon_start, _ = bench_daemon.answering(environ)
    try:
        calls = []
        for _ in range(rounds):
            (wall, cpu), spent = bench_daemon.served(environ, lambda: run_once(command, root, environ))
            calls.append((wall, cpu + spent))
    finally:
        bench_daemon.daemon("stop", environ)
    return (
        first,
        daemon_start,
        (statistics.median(w for w, _ in calls), statistics.median(c for _, c in calls)),
    )


if __name__ == "__main__":
    raise SystemExit(bench())
