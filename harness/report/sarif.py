"""SARIF 2.1.0, the format GitHub code scanning uploads: a rule per finding rule, a result per located
finding. Paths stay root-relative, resolved against the checkout (%SRCROOT%)."""

from __future__ import annotations

from urllib.parse import quote

from harness import __version__
from harness.model import rules as rule_table
from harness.model.findings import Finding
from harness.report.text import adoption_note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from markdown_it import MarkdownIt

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
ROOT = "%SRCROOT%"


def log(command: str, found: list[Finding]) -> dict:
    """The log of one run. A finding about the repo as a whole (no file) becomes a tool notification,
    not a result: code scanning refuses a whole upload when one result has no location."""
    located = [f for f in found if f.path != "."]
    rules = sorted({f.rule for f in found})
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": "skillscope", "version": __version__, "rules": descriptors(rules)}
                },
                "automationDetails": {"id": f"skillscope/{command}/"},
                "originalUriBaseIds": {ROOT: {"description": {"text": "the root of the repo under test"}}},
                "invocations": [
                    {
                        "executionSuccessful": True,
                        "toolExecutionNotifications": [notification(f) for f in found if f.path == "."],
                    }
                ],
                "results": [result(f, rules.index(f.rule)) for f in located],
            }
        ],
    }


def descriptors(rules: list[str]) -> list[dict]:
    """Each rule with the help the docs give it (the rules tables, as `skillscope rules` prints them): what it
    checks and the bar it must meet."""
    known, read = rule_table.table(), rule_table.reader()
    return [descriptor(rule, known.get(rule), read) for rule in rules]


def descriptor(rule: str, about: dict[str, str] | None, read: MarkdownIt | None = None) -> dict:
    if about is None:  # a rule missing from the tables (tests/test_docs.py fails on it) still gets help
        return {"id": rule, "help": {"text": "skillscope rules lists every rule and what it asks."}}
    short = rule_table.described(about)
    text = rule_table.plain(short, read=read)
    return {
        "id": rule,
        "shortDescription": {"text": text},
        "help": {
            "text": f"{text}. skillscope rules lists every rule.",
            "markdown": f"{rule_table.linkless(short, read)}. `skillscope rules` lists every rule.",
        },
        "defaultConfiguration": {"level": about["severity"]},
    }


def level(finding: Finding) -> str:
    """A known finding (in the repo's baseline) is a note: shown, not failing, as in every report."""
    if finding.baseline:
        return "note"
    return "error" if finding.fails else "warning"


def result(finding: Finding, rule_index: int) -> dict:
    """A located result; one about a whole file points at line 1 (code scanning wants a line for each)."""
    return {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": level(finding),
        "message": {"text": finding.message + adoption_note(finding)},
        **({"baselineState": "unchanged"} if finding.baseline else {}),
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": quote(finding.path), "uriBaseId": ROOT},
                    "region": {"startLine": finding.line or 1},
                }
            }
        ],
    }


def notification(finding: Finding) -> dict:
    return {
        "descriptor": {"id": finding.rule},
        "level": level(finding),
        "message": {"text": finding.message + adoption_note(finding)},
    }
