"""The rules tables of the docs in the shape harness/data/rules.json keeps them (SARIF's help for each
rule, and the site's generated rules page). The rows live on the page of the command that reports
them (docs/usage.md for a run's own outcome). After changing a table, write the file again:
`python -m tests.support.rules_table`."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from harness.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES_JSON = ROOT / "harness" / "data" / "rules.json"
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| (.+?) \| (.+?) \| (error|warning) \| (.+?) \|$", re.MULTILINE)
# An inline link's relative target (not a URL): a path, or an anchor of the same page.
LINK = re.compile(r"(\]\()(?![a-z][a-z0-9+.-]*:|/)([^)\s]+)\)")


def pages() -> list[str]:
    """The docs pages holding rules tables, in the order the rules are listed: the outcomes first,
    then each command's page in the CLI's order, then any other page."""
    first = ["usage.md", *(f"commands/{name}.md" for name in COMMANDS)]
    rest = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    return [page for page in first if (DOCS / page).is_file()] + [page for page in rest if page not in first]


def from_root(cell: str, page: str) -> str:
    """A cell's links, written for its page, as they read from the docs root (where the rules page is)."""

    def rebased(target: str) -> str:
        if target.startswith("#"):
            return page + target
        path, hash_, anchor = target.partition("#")
        return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) + hash_ + anchor

    return LINK.sub(lambda m: f"{m[1]}{rebased(m[2])})", cell)


def from_page(text: str, page: str) -> dict[str, dict[str, str]]:
    """Every rules-table row of one page (rule, what, bar, severity, the source it follows), by rule."""
    return {
        rule: {
            "what": from_root(what, page),
            "bar": from_root(bar, page),
            "severity": severity,
            "source": from_root(source, page),
        }
        for rule, what, bar, severity, source in ROW.findall(text)
    }


def from_docs() -> dict[str, dict[str, str]]:
    """Every rules-table row of every docs page."""
    rules: dict[str, dict[str, str]] = {}
    for page in pages():
        rules.update(from_page((DOCS / page).read_text(encoding="utf-8"), page))
    return rules


def rendered(rules: dict[str, dict[str, str]]) -> str:
    return json.dumps(rules, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    RULES_JSON.write_text(rendered(from_docs()), encoding="utf-8")
