"""The rules tables of docs/usage.md in the shape harness/data/rules.json keeps them (SARIF's help for
each rule). After changing a table, write the file again: `python -m tests.support.rules_table`."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_JSON = ROOT / "harness" / "data" / "rules.json"
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| (.+?) \| (.+?) \| (error|warning) \| (.+?) \|$", re.MULTILINE)


def from_usage(text: str) -> dict[str, dict[str, str]]:
    """Every rules-table row (rule, what, bar, severity, the source it follows), by rule."""
    return {
        rule: {"what": what, "bar": bar, "severity": severity, "source": source}
        for rule, what, bar, severity, source in ROW.findall(text)
    }


def rendered(rules: dict[str, dict[str, str]]) -> str:
    return json.dumps(rules, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    RULES_JSON.write_text(rendered(from_usage(usage)), encoding="utf-8")
