"""Large routing reports made up in memory, for the page's size and render figures and its tests at
scale: N cases of a room of skills, each with S samples, some misrouted, some flaky, some errored."""

from __future__ import annotations

from harness.model.stats import wilson_interval


def verdict(expect: str | None, observed: str | None, error: bool) -> str:
    if error:
        return "error"
    if expect and observed == expect:
        return "correct_trigger"
    if expect and observed is None:
        return "missed_trigger"
    if expect:
        return "wrong_skill"
    return "true_negative" if observed is None else "false_trigger"


def routing_report(cases: int = 1000, samples: int = 5, skills: int = 20) -> dict:
    room = [f"skill-{n:02d}" for n in range(skills)]
    out, tally = [], {"pass": 0, "fail": 0, "error": 0}
    for n in range(cases):
        skill = room[n % skills]
        expect = skill if n % 3 else None
        runs = []
        for s in range(samples):
            error = n % 97 == 0
            observed = expect
            if n % 11 == 0:
                observed = room[(n + 1) % skills]
            if n % 13 == 0 and s % 2:
                observed = None if expect else skill  # flaky: every other sample differs
            runs.append(
                {
                    "observed": None if error else observed,
                    "verdict": verdict(expect, observed, error),
                    "error": "HTTP 529 overloaded" if error else None,
                    "stop_reason": "activation",
                    "elapsed_s": 2.0,
                    "tool_calls": 0,
                    "turns": 2,
                    "tokens": {"input": 100, "output": 20},
                    "cost_usd": 0.0008,
                    "cached": s == 0 and n % 5 == 0,
                    "cached_from": {"started_at": "2026-01-01T00:00:00+00:00", "harness_version": "0.1.0"}
                    if s == 0 and n % 5 == 0
                    else None,
                }
            )
        graded = [r for r in runs if not r["error"]]
        passing = [r for r in graded if r["verdict"] in ("correct_trigger", "true_negative")]
        fired = sum(1 for r in graded if (r["observed"] == expect if expect else r["observed"]))
        first = runs[0]
        status = "error" if not graded else "pass" if len(passing) * 2 > len(graded) else "fail"
        tally[status] += 1
        out.append(
            {
                "id": f"{skill}-case-{n}",
                "skill": skill,
                "category": "positive" if expect else "near_miss",
                "trust_level": "stable",
                "prompt": f"Please handle request {n} for {skill}, in some detail. " * 2,
                "source": f"{skill}/evals/evals.json",
                "line": 3 + n,
                "expect": expect,
                "observed": first["observed"],
                "verdict": first["verdict"],
                "passed": status == "pass",
                "status": status,
                "error": first["error"],
                "stop_reason": "activation",
                "elapsed_s": 2.0,
                "tool_calls": 0,
                "inspection_calls": 0,
                "tokens": {"input": 500, "output": 100},
                "cost_usd": 0.004,
                "flaky": 0 < len(passing) < len(graded),
                "trigger_rate": fired / len(graded) if graded else None,
                "trigger_rate_ci95": list(wilson_interval(fired, len(graded)) or ()) or None,
                "samples": runs,
            }
        )
    graded = tally["pass"] + tally["fail"]
    return {
        "command": "routing",
        "harness_version": "0.1.0",
        "repo": "/repo",
        "engine": "agent",
        "started_at": "2026-01-02T03:04:05+00:00",
        "elapsed_s": 1234.5,
        "passed": False,
        "status": "fail",
        "counts": {"total": cases, **tally},
        "meta": {
            "agent": "claude",
            "agent_version": "2.1.332",
            "model": "claude-fake-1",
            "room": room,
            "repeat": samples,
            "min_accuracy": 1.0,
            "interrupted": None,
            "unfinished": 0,
        },
        "gate": {"passed": False, "reason": f"{tally['pass']}/{graded} correct is below the bar of 1"},
        "totals": {
            "cases": cases,
            "graded": graded,
            "passed": tally["pass"],
            "errors": tally["error"],
            "accuracy": round(tally["pass"] / graded, 3),
            "activations": 0,
            "activations_expected": 0,
            "flaky": sum(c["flaky"] for c in out),
            "samples": cases * samples,
            "cached_samples": sum(r["cached"] for c in out for r in c["samples"]),
            "cost_usd": 0.004 * cases,
        },
        "verdicts": {},
        "by_category": {},
        "per_skill": {},
        "confusion": {},
        "cases": out,
    }
