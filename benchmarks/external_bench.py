"""`skillscope refs` against loopback link servers, beside its floor (a benchmark, not a test).

20 hosts (127.0.0.1 to 127.0.0.20, each a server of its own) answer every request after 50 ms;
a skill links 10 URLs on each, 200 in all. With one request in flight per host, the floor is one
host's URLs one after another: 10 x 50 ms = 0.50 s, reached only when every host is fetched at
once. The run is compared with that floor plus start-up (`refs --no-external` on the same repo:
imports, parsing and reports). Target: within 1.2x. Each run is a process of its own, as a user
or a hook starts it. Loopback traffic only.

    python benchmarks/external_bench.py [--hosts 20] [--per-host 10] [--delay 0.05] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.linkserver lives beside the package

from tests.support.linkserver import serving  # noqa: E402

TARGET = 1.2


def catalog(root: Path, urls: list[str]) -> Path:
    skill = root / "skills" / "linker"
    skill.mkdir(parents=True)
    links = "\n".join(f"- [link {n}]({url})" for n, url in enumerate(urls))
    (skill / "SKILL.md").write_text(
        f"---\nname: linker\ndescription: Links to many hosts.\n---\n\n# Linker\n\n{links}\n",
        encoding="utf-8",
    )
    return root


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def bench(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--per-host", type=int, default=10)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds each answer takes")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    hosts = [f"127.0.0.{n}" for n in range(1, args.hosts + 1)]
    skillscope = str(Path(sys.executable).parent / "skillscope")
    with (
        tempfile.TemporaryDirectory(prefix="skillscope-links-") as tmp,
        serving(*hosts, delay_s=args.delay) as (
            servers,
            recorder,
        ),
    ):
        urls = [server.url(f"/page/{n}") for server in servers for n in range(args.per_host)]
        root = catalog(Path(tmp), urls)
        report = Path(tmp) / "report.json"
        command = [skillscope, "refs", "--skills-dir", "skills/*", "--output", str(report)]
        offline, online = [], []
        for _ in range(args.rounds):
            offline.append(timed([*command, "--no-external"], root))
            online.append(timed(command, root))
        checked = json.loads(report.read_text(encoding="utf-8"))
        per_host = max(server.max_active for server in servers)
    floor = args.per_host * args.delay
    start_up, run = statistics.median(offline), statistics.median(online)
    ratio = run / (floor + start_up)
    ok = sum(1 for url in checked["urls"] if url["outcome"] == "ok")
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.rounds} rounds"
    )
    print(f"{len(urls)} URLs on {len(hosts)} hosts, {args.delay * 1000:.0f} ms per answer; {ok} answered ok")
    print(f"per-host-serial floor {floor:.2f} s; start-up (refs --no-external) {start_up:.2f} s")
    print(f"refs with external URLs: {run:.2f} s median; most requests in flight on one host: {per_host}")
    print(f"most requests in flight across hosts: {recorder.max_active} (hosts fetched at once)")
    verdict = "meets" if ratio <= TARGET and per_host == 1 else "MISSES"
    print(f"ratio to floor + start-up: {ratio:.2f}, {verdict} the {TARGET}x target (one request per host)")
    return 0


if __name__ == "__main__":
    raise SystemExit(bench())
