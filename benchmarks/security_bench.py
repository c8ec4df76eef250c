"""The security rules measured (a benchmark, not a test): each rule's recall on the planted corpus, its
flag rate on real skills, and what the pack adds to `structural`'s cost.

- Recall: every skill folder of tests/checks/security/planted is scanned; a planted skill counts as
  caught when the rule planted.json names for it fires.
- Flag rate: `--benign DIR` scans every skill (a folder holding SKILL.md, at any depth) of the catalog
  checkouts in DIR, one folder per repository named `owner+name`, as benchmarks/security/benign-catalogs.json
  pins them (repository and commit; the skills are not copied into this project). A skill counts as
  flagged by a rule when the rule reports anything in it, at any severity (a finding reported lower
  counts too).
- Cost: a synthetic catalog (benchmarks/structural_bench.py's) is checked by `structural` in-process with
  the pack and without it, from a cold parse memo, best of `--repeat`; the target is at most 2x.

Intervals are 95 % Wilson score intervals. A rule is marked safe to gate on when its recall is at least
90 % and the upper bound of its flag rate at most 1 %.

`--figures FILE` writes what was measured as JSON (benchmarks/security/figures.json is the committed
copy that docs/security-rules.md's table is rendered from; tests/test_security_figures.py holds the
two together and the planted recall to what the rules catch today).

    python benchmarks/security_bench.py [--benign DIR] [--figures FILE] [--size 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from harness.checks import structural
from harness.checks.security.pack import RULE_IDS, scan_skill
from harness.cli import main
from harness.context import Context
from harness.files import rel_to
from harness.model import skill as skill_mod
from harness.model.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
PLANTED = ROOT / "tests" / "checks" / "security"
PINNED = Path(__file__).resolve().parent / "security" / "benign-catalogs.json"
FIGURES = Path(__file__).resolve().parent / "security" / "figures.json"
RECALL_TARGET = 0.90
GATE_SAFE_BOUND = 0.01
ANY_SEVERITY_BOUND = 0.03
COST_TARGET = 2.0


def rules_in(folder: Path, root: Path) -> set[str]:
    return {f.rule for f in scan_skill(skill_mod.load(folder.name, folder), lambda path: rel_to(root, path))}


def recall() -> dict[str, tuple[int, int]]:
    """Rule -> (caught, planted)."""
    planted = json.loads((PLANTED / "planted.json").read_text(encoding="utf-8"))
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, entry in planted.items():
        counts[entry["rule"]][1] += 1
        counts[entry["rule"]][0] += entry["rule"] in rules_in(PLANTED / "planted" / name, PLANTED / "planted")
    return {rule: (caught, total) for rule, (caught, total) in counts.items()}


def benign(folder: Path) -> tuple[int, dict[str, list[str]], int]:
    """(skills scanned, rule -> the skills it flagged, skills flagged by any rule)."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    flagged: dict[str, list[str]] = defaultdict(list)
    scanned = anything = 0
    for entry in pinned["catalogs"]:
        checkout = folder / entry["repo"].replace("/", "+")
        if not checkout.is_dir():
            sys.exit(f"{checkout} is missing: check out {entry['repo']} at {entry['commit']} there.")
        for skill_md in sorted(checkout.rglob("SKILL.md")):
            if ".git" in skill_md.parts:
                continue
            scanned += 1
            fired = rules_in(skill_md.parent, folder)
            anything += bool(fired)
            for rule in fired:
                flagged[rule].append(rel_to(folder, skill_md.parent))
    return scanned, flagged, anything


def percent(share: float) -> str:
    return f"{100 * share:.1f} %"


def interval(hits: int, trials: int) -> str:
    bounds = wilson_interval(hits, trials)
    return f"[{percent(bounds[0])}, {percent(bounds[1])}]" if bounds else "-"


def upper(hits: int, trials: int) -> float:
    bounds = wilson_interval(hits, trials)
    return bounds[1] if bounds else 1.0


def figures(
    recalled: dict[str, tuple[int, int]], scanned: int, flagged: dict[str, list[str]], anything: int
) -> dict:
    """What was measured, as the committed figures file keeps it."""
    return {
        "planted": {rule: list(recalled.get(rule, (0, 0))) for rule in RULE_IDS},
        "benign": {
            "skills": scanned,
            "flagged": anything,
            "by_rule": {rule: sorted(flagged.get(rule, [])) for rule in RULE_IDS},
        },
    }


def gate_safe(measured: dict) -> list[str]:
    """The rules whose recall is at least the target and whose flag rate's upper bound is at most 1 %."""
    scanned = measured["benign"]["skills"]
    return [
        rule
        for rule, (caught, total) in measured["planted"].items()
        if scanned
        and total
        and caught / total >= RECALL_TARGET
        and upper(len(measured["benign"]["by_rule"][rule]), scanned) <= GATE_SAFE_BOUND
    ]


def summary(measured: dict) -> str:
    """The line on the whole pack over the benign corpus (empty when it was not measured)."""
    scanned, anything = measured["benign"]["skills"], measured["benign"]["flagged"]
    if not scanned:
        return ""
    verdict = "meets" if upper(anything, scanned) <= ANY_SEVERITY_BOUND else "MISSES"
    return (
        f"benign corpus: {anything}/{scanned} skills flagged at any severity, "
        f"{percent(anything / scanned)} {interval(anything, scanned)} (target: upper bound at most "
        f"{percent(ANY_SEVERITY_BOUND)}), {verdict}"
    )


def table(measured: dict) -> list[str]:
    """The per-rule table, as the benchmark prints it and docs/security-rules.md shows it."""
    scanned = measured["benign"]["skills"]
    safe = gate_safe(measured)
    rows = [
        "| Rule | Recall (planted) | 95 % interval | Flag rate (benign) | 95 % interval | Gate-safe |",
        "|---|---|---|---|---|---|",
    ]
    for rule, (caught, total) in measured["planted"].items():
        hits = len(measured["benign"]["by_rule"][rule])
        rate = f"{hits}/{scanned} ({percent(hits / scanned)})" if scanned else "not measured"
        rows.append(
            f"| `{rule}` | {caught}/{total} | {interval(caught, total)} | {rate} | "
            f"{interval(hits, scanned) if scanned else '-'} | {'yes' if rule in safe else 'no'} |"
        )
    return rows


def timed(root: Path, without: bool, repeat: int) -> float:
    """Best CPU seconds of `structural` in-process on `root`, with or without the security pack."""
    held = structural.CHECKS.pop("security") if without else None
    try:
        best = float("inf")
        for _ in range(repeat):
            cache = Path(tempfile.mkdtemp(prefix="memo-"))  # a cold parse memo for every run
            os.environ["XDG_CACHE_HOME"] = str(cache)
            ctx = Context(
                environ={}, cwd=root, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
            )
            started = time.process_time()
            main(
                [
                    "structural",
                    "--repo",
                    str(root),
                    "--skills-dir",
                    "skills/*",
                    "--output",
                    str(cache / "r.json"),
                ],
                ctx,
            )
            best = min(best, time.process_time() - started)
        return best
    finally:
        if held is not None:
            structural.CHECKS["security"] = held


def cost(size: int, repeat: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from structural_bench import generate

    with tempfile.TemporaryDirectory() as temp:
        root = generate(Path(temp), size)
        without = timed(root, True, repeat)
        with_pack = timed(root, False, repeat)
    ratio = with_pack / without
    verdict = "meets" if ratio <= COST_TARGET else "MISSES"
    print(
        f"structural on {size} synthetic skills: {without:.2f} s CPU without the security pack, "
        f"{with_pack:.2f} s with it: {ratio:.2f}x (target {COST_TARGET:g}x), {verdict}"
    )


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benign", type=Path, help="a folder of catalog checkouts named owner+name")
    parser.add_argument("--figures", type=Path, help="write the measured figures as JSON to this file")
    parser.add_argument(
        "--size", type=int, default=1000, help="skills in the synthetic catalog (0: no cost run)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    recalled = recall()
    caught = sum(c for c, _ in recalled.values())
    total = sum(t for _, t in recalled.values())
    print(
        f"planted corpus: {caught}/{total} caught, recall {percent(caught / total)} {interval(caught, total)}"
    )
    scanned, flagged, anything = benign(args.benign) if args.benign else (0, {}, 0)
    measured = figures(recalled, scanned, flagged, anything)
    if scanned:
        print(summary(measured))
    print("\n".join(table(measured)))
    for rule, skills in sorted(flagged.items()):
        print(f"\n{rule} flagged: " + ", ".join(skills))
    if args.figures:
        args.figures.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
    if args.size:
        cost(args.size, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main_())
