"""The report page at scale: synthetic routing reports of 100, 1,000 and 10,000 cases x 5 samples
rendered by `skillscope show --html`'s renderer, each page's size, and its first render in headless
Chromium.

    python benchmarks/page_bench.py [--cases 100 1000 10000] [--samples 5] [--skills 20] [--rounds 3]

Figures printed for each size: page size in MB (target at most 3 MB), render time in Python, and the
time from navigation until the page is ready in Debian's Chromium driven by Playwright: its load event
ended and every case table has unpacked its later rows (the `skillscope:<table>:ready` mark the page's
script sets), best of --rounds (target at most 1.5 s), each with its ratio to the target, and where
that round's time went (parse to interactive, layout, style, script: Chromium's own Performance
metrics). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives beside the package

from harness.report import html  # noqa: E402
from tests.support.browser import chromium, guarded_page  # noqa: E402
from tests.support.synthetic_reports import routing_report  # noqa: E402

SIZE_TARGET = 3 * 1024 * 1024
RENDER_TARGET_S = 1.5


def verdict(ratio: float) -> str:
    return "meets" if ratio <= 1 else "MISSES"


# Navigation start until the load event ended and every case table said it was ready, in seconds.
READY = """() => {
  const n = performance.getEntriesByType('navigation')[0];
  const marks = performance.getEntriesByType('mark').filter(m => m.name.startsWith('skillscope:'));
  const ready = Math.max(n.loadEventEnd, ...marks.map(m => m.startTime));
  return [(ready - n.startTime) / 1000, n.domInteractive / 1000];
}"""
ALL_READY = (
    "() => [...document.querySelectorAll('table[data-filterable]')].every(t => t.hasAttribute('data-ready'))"
)


def measure(cases: int, samples: int, skills: int, rounds: int) -> None:
    report = routing_report(cases, samples, skills)
    started = time.perf_counter()
    page = html.render(report)
    rendered = time.perf_counter() - started
    size = len(page.encode("utf-8"))
    ratio = size / SIZE_TARGET
    print(f"{cases} cases x {samples} samples, {skills} skills")
    print(f"page size: {size / 1024 / 1024:.2f} MB, {ratio:.2f}x the 3 MB target, {verdict(ratio)}")
    print(f"python render: {rendered:.3f} s")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        best, spent, refused_any = None, {}, False
        with chromium() as browser:
            for _ in range(rounds):
                tab, refused, errors = guarded_page(
                    browser, path.as_uri(), viewport={"width": 1280, "height": 900}
                )
                metrics = tab.context.new_cdp_session(tab)
                metrics.send("Performance.enable")
                tab.goto(path.as_uri(), wait_until="load")
                tab.wait_for_function(ALL_READY)
                took, interactive = tab.evaluate(READY)
                if best is None or took < best:
                    best = took
                    got = {m["name"]: m["value"] for m in metrics.send("Performance.getMetrics")["metrics"]}
                    spent = {
                        "parse to interactive": interactive,
                        "layout": got.get("LayoutDuration", 0),
                        "style": got.get("RecalcStyleDuration", 0),
                        "script": got.get("ScriptDuration", 0),
                        "DOM nodes": got.get("Nodes", 0),
                    }
                refused_any = refused_any or bool(refused) or bool(errors)
                tab.close()
    ratio = (best or 0) / RENDER_TARGET_S
    print(f"first render in Chromium: {best:.3f} s, {ratio:.2f}x the 1.5 s target, {verdict(ratio)}")
    print(
        "  of which: "
        + ", ".join(f"{k} {v:.0f}" if k == "DOM nodes" else f"{k} {v:.3f} s" for k, v in spent.items())
    )
    print(f"requests refused or console errors: {'yes' if refused_any else 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--skills", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for cases in args.cases:
        measure(cases, args.samples, args.skills, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
