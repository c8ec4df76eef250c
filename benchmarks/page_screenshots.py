"""The documentation's screenshots of the report page, one per page kind, from reports of real runs: each
graded command run in-process (the paid ones in the real claude CLI against the scripted API in
tests/fakeapi, as the page tests build theirs), the page rendered as `skillscope show --html` and
`skillscope history --html` write it, and shot in Debian's Chromium driven by Playwright, light mode.

    SKILLSCOPE_TEST_CLAUDE=/path/to/claude python benchmarks/page_screenshots.py [--out docs/images]

Also `nox -s screenshots`. Writes <out>/page-<kind>.png (1200 px wide) for routing, behavioral,
compare, cost, tune and history, and prints each file's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support lives beside the package

from harness.history import ledger as ledger_mod  # noqa: E402
from harness.history.result import History  # noqa: E402
from harness.report import history_html, html  # noqa: E402
from tests.fakeapi import replies as R  # noqa: E402
from tests.fakeapi.cli import find_claude, hermetic_env  # noqa: E402
from tests.fakeapi.server import FakeAPI  # noqa: E402
from tests.support import reports  # noqa: E402
from tests.support.browser import chromium, guarded_page  # noqa: E402
from tests.support.routing import CaseRouter, routing_env  # noqa: E402

KINDS = ("routing", "behavioral", "compare", "cost", "tune", "history")
WIDTH, HEIGHT = 1200, 900  # the viewport; a shot is the page's top, at most MAX_HEIGHT tall
MAX_HEIGHT = 1400
# The page tests' reports carry hostile text (markup, a bidi override) to prove it is escaped; a
# screenshot shows a person the page, so the same runs carry plain words here.
PLAIN = "and say what you did."
REPO_SHOWN = "~/src/my-skills"


def readable_reports() -> None:
    reports.HOSTILE = PLAIN
    reports.TUNE_GOOD = "Reads a receipt and works out its total. Use for any receipt."


def shown(report: dict) -> dict:
    """The report as the page shows it, its repo named as a user's would be rather than a temp folder."""
    return {**report, "repo": REPO_SHOWN}


def history_page(tmp: Path, api: FakeAPI, claude: str) -> str:
    """Five routing runs of one repo kept as a ledger: alpha's SKILL.md is edited before the third, and
    from then on alpha-pos-1 misses (regressed) while alpha-pos-3 flips with nothing changed (flaky)."""
    repo = reports.hostile_repo(tmp / "repo")
    env = routing_env(api.base_url, claude, tmp / "home")
    folder = tmp / "ledger"
    folder.mkdir()
    only = "alpha-pos-1,alpha-pos-2,alpha-pos-3,beta-pos-1,beta-neg-1,gamma-pos-1,gamma-neg-1"
    for number in range(5):
        decisions = {
            "alpha-pos-1": R.skill("alpha") if number < 2 else "I can answer that directly.",
            "alpha-pos-3": R.skill("alpha") if number != 3 else "I can answer that directly.",
            "beta-pos-1": R.skill("beta"),
            "gamma-pos-1": R.skill("gamma"),
        }
        if number == 2:
            skill_md = repo / "alpha" / "SKILL.md"
            skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nPrefer short answers.\n")
        api.script(CaseRouter(decisions))
        args = ("--routing-room", "all", "--only", only, "--min-accuracy", "0")
        report = reports.run(repo, env, "routing", *args, "--skip-preflight", "--no-cache")
        (folder / f"routing-{number + 1}.json").write_text(json.dumps(report), encoding="utf-8")
    ledger = ledger_mod.read([folder], {folder: ".skillscope/runs"})
    return history_html.page(History.of(ledger, [".skillscope/runs"]))


def pages(tmp: Path, claude: str) -> dict[str, str]:
    made: dict[str, str] = {}
    for kind in ("routing", "cost", "compare", "tune"):
        with FakeAPI() as api:
            made[kind] = html.render(shown(getattr(reports, kind)(tmp / kind, api, claude)))
    with FakeAPI() as api:
        env = hermetic_env(api.base_url, tmp / "behavioral" / "env", config_dir=False)
        made["behavioral"] = html.render(shown(reports.behavioral(tmp / "behavioral", api, claude, env)))
    with FakeAPI() as api:
        made["history"] = history_page(tmp / "history", api, claude)
    return {kind: made[kind] for kind in KINDS}


def shoot(made: dict[str, str], out: Path, tmp: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        for kind, page in made.items():
            path = tmp / f"{kind}.html"
            path.write_text(page, encoding="utf-8")
            options = {"viewport": {"width": WIDTH, "height": HEIGHT}, "color_scheme": "light"}
            tab, refused, errors = guarded_page(browser, path.as_uri(), **options)
            tab.goto(path.as_uri(), wait_until="load")
            if refused or errors:
                raise SystemExit(f"the {kind} page asked for {refused} or logged {errors}")
            tall = min(MAX_HEIGHT, tab.evaluate("() => document.documentElement.scrollHeight"))
            target = out / f"page-{kind}.png"
            clip = {"x": 0, "y": 0, "width": WIDTH, "height": tall}
            tab.screenshot(path=str(target), full_page=True, clip=clip)
            tab.close()
            print(f"{target}: {target.stat().st_size / 1024:.0f} KB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    claude = find_claude()
    if claude is None:
        raise SystemExit("the claude CLI is needed: set SKILLSCOPE_TEST_CLAUDE=/path/to/claude")
    readable_reports()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for kind in KINDS:
            (tmp / kind).mkdir()
        shoot(pages(tmp, claude), Path(args.out), tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
