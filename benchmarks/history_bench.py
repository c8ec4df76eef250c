"""`skillscope history` on a large ledger: N routing runs of M cases each, written under a temp folder as
real runs write them (the report envelope, the ledger's file digests, each case's digests), then
`history` answering as a user asks it.

    python benchmarks/history_bench.py [--runs 500] [--cases 1000] [--skills 20] [--rounds 3]

Each answer is `skillscope history FOLDER` in a process of its own, in text and json, with and without
--skill/--case filters: the first read with an empty user cache, then every later answer (target at
most 1 s each, best of --rounds). Printed with the ratio to the target, CPU seconds (the host's load
moves wall time), the peak RSS of each answer's process and the size of what it printed. Printed,
never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives beside the package

from harness.report.jsontext import readable  # noqa: E402
from tests.support.synthetic_reports import routing_report  # noqa: E402

TARGET_S = 1.0
FLAKY_EVERY = 17  # every 17th case flips its verdict now and then with nothing changed
EDIT_EVERY = 50  # a skill's SKILL.md is edited every 50 runs (one skill at a time, in turn)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def ledger_report(template: dict, number: int, skills: list[str]) -> dict:
    """Run `number` of the ledger: the template's cases with their digests and this run's verdicts."""
    edits = number // EDIT_EVERY
    edited = {skill: sum(1 for e in range(edits) if skills[e % len(skills)] == skill) for skill in skills}
    skill_digest = {skill: sha(f"{skill}:{edited[skill]}") for skill in skills}
    room = sha("".join(skill_digest[s] for s in skills))
    fixed = {k: sha(k) for k in ("agent", "model", "settings", "harness")}
    cases = []
    for n, case in enumerate(template["cases"]):
        flips = n % FLAKY_EVERY == 0 and (number * 7 + n) % 5 == 0
        regressed = edited[case["skill"]] % 2 == 1 and n % 29 == 0
        status = "fail" if (flips or regressed) != (case["status"] == "fail") else "pass"
        if case["status"] == "error":
            status = "error"
        case = {**case, "status": status, "passed": status == "pass"}
        case["digests"] = {
            "case": sha(case["id"]),
            "skill": skill_digest[case["skill"]],
            "room": room,
            **fixed,
        }
        cases.append(case)
    started = f"2026-{1 + number // 200:02d}-{1 + number % 200 // 8:02d}T{number % 8:02d}:00:00+00:00"
    meta = dict(template["meta"])
    meta["ledger"] = {
        "harness_version": "0.1.0",
        "agent": {"name": "claude", "version": "2.1.332"},
        "model": "claude-fake-1",
        "settings": {"repeat": 1},
        "shared_room": True,
        "skills": {s: {"path": s, "digest": skill_digest[s]} for s in skills},
        "files": {
            f"{s}/{name}": sha(f"{s}/{name}:{edited[s] if name == 'SKILL.md' else 0}")
            for s in skills
            for name in ("SKILL.md", "reference.md", "scripts/run.py")
        },
    }
    return {**template, "started_at": started, "meta": meta, "cases": cases}


def write_ledger(folder: Path, runs: int, cases: int, skills: int) -> int:
    template = routing_report(cases, 1, skills)
    room = template["meta"]["room"]
    total = 0
    for number in range(runs):
        body = readable(ledger_report(template, number, room))
        (folder / f"routing-{number:04d}.json").write_text(body, encoding="utf-8")
        total += len(body)
    return total


def answer(folder: Path, cwd: Path, extra: list[str]) -> tuple[float, float, float, int]:
    """One `history` answer in a process of its own: wall seconds, CPU seconds, its peak RSS in MB (from
    wait4, the child's own), and stdout's bytes."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "harness", "history", str(folder), *extra], cwd=cwd, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            raise SystemExit(
                f"history {' '.join(extra)} exited {child.returncode}: {err.read().decode()[-800:]}"
            )
        return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.tell()


def verdict(ratio: float) -> str:
    return "meets" if ratio <= 1 else "MISSES"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--skills", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        home = Path(temp)
        folder = home / "runs"
        folder.mkdir()
        started = time.perf_counter()
        size = write_ledger(folder, args.runs, args.cases, args.skills)
        print(
            f"ledger: {args.runs} runs x {args.cases} cases, {args.skills} skills, "
            f"{size / 1024 / 1024:.0f} MB of reports, written in {time.perf_counter() - started:.1f} s"
        )
        skill, case = "skill-03", f"skill-{FLAKY_EVERY % args.skills:02d}-case-{FLAKY_EVERY}"
        asks = {
            "text": [],
            "json": ["--format", "json"],
            "text --skill": ["--skill", skill],
            "json --skill": ["--skill", skill, "--format", "json"],
            "text --case": ["--case", case],
            "json --case": ["--case", case, "--format", "json"],
        }
        cache = home / "cache"
        env_cache = {"XDG_CACHE_HOME": str(cache)}
        os.environ.update(env_cache)  # the user's cache of these runs is the temp folder's own
        shutil.rmtree(cache, ignore_errors=True)
        took, cpu, peak, out = answer(folder, home, [])
        print(f"first read, text: {took:.3f} s ({cpu:.3f} CPU s), peak RSS {peak:.0f} MB, {out} bytes out")
        print(
            f"{'answer after the first read':<28}{'best s':>8}{'CPU s':>8}{'x target':>10}"
            f"{'peak RSS MB':>13}{'stdout MB':>11}  verdict"
        )
        worst = 0.0
        for name, extra in asks.items():
            best, least, high, size = None, None, 0.0, 0
            for _ in range(args.rounds):
                took, cpu, peak, size = answer(folder, home, extra)
                best = took if best is None else min(best, took)
                least = cpu if least is None else min(least, cpu)
                high = max(high, peak)
            assert best is not None and least is not None
            worst = max(worst, best)
            ratio = best / TARGET_S
            print(
                f"{name:<28}{best:>8.3f}{least:>8.3f}{ratio:>10.2f}{high:>13.0f}"
                f"{size / 1024 / 1024:>11.2f}  {verdict(ratio)}"
            )
        ratio = worst / TARGET_S
        print(
            f"slowest answer after the first read: {worst:.3f} s, "
            f"{ratio:.2f}x the 1 s target, {verdict(ratio)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
