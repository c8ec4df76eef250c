"""harness.report.sarif: a SARIF 2.1.0 log valid against the official OASIS schema, shaped the way GitHub
code scanning accepts it (every result located at a file and line)."""

from __future__ import annotations

from harness import __version__
from harness.model.findings import error, warning
from harness.report import sarif
from tests.support.sarif import problems

FOUND = [
    error("name-format", "skills/a b/SKILL.md", "`name` is `A`; use lowercase.", line=2),
    warning("unknown-key", "skills/a b/SKILL.md", "frontmatter has key(s) the format does not define"),
    error("ref-missing-file", "docs/guide.md", "the link to gone.md points at nothing", line=7),
    error("no-skill", ".", "no skill found; pass --skills-dir"),
]


def test_a_log_with_every_kind_of_finding_is_valid_sarif():
    assert problems(sarif.log("structural", FOUND)) == []


def test_an_empty_run_is_valid_sarif_too():
    log = sarif.log("refs", [])
    assert problems(log) == [] and log["runs"][0]["results"] == []


def test_the_tool_is_named_and_versioned():
    run = sarif.log("structural", FOUND)["runs"][0]
    assert run["tool"]["driver"]["name"] == "skillscope"
    assert run["tool"]["driver"]["version"] == __version__
    assert run["automationDetails"]["id"] == "skillscope/structural/"


def test_every_result_is_located_at_a_file_and_a_line():
    results = sarif.log("structural", FOUND)["runs"][0]["results"]
    where = [
        (
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    ]
    assert where == [
        ("name-format", "error", {"uri": "skills/a%20b/SKILL.md", "uriBaseId": "%SRCROOT%"}, 2),
        ("unknown-key", "warning", {"uri": "skills/a%20b/SKILL.md", "uriBaseId": "%SRCROOT%"}, 1),
        ("ref-missing-file", "error", {"uri": "docs/guide.md", "uriBaseId": "%SRCROOT%"}, 7),
    ]


def test_a_finding_about_the_whole_repo_is_a_notification_not_an_unlocated_result():
    run = sarif.log("structural", FOUND)["runs"][0]
    assert all(r["ruleId"] != "no-skill" for r in run["results"])
    [note] = run["invocations"][0]["toolExecutionNotifications"]
    assert note == {
        "descriptor": {"id": "no-skill"},
        "level": "error",
        "message": {"text": "no skill found; pass --skills-dir"},
    }


def test_rules_carry_their_help_and_results_point_at_them():
    run = sarif.log("structural", FOUND)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["name-format", "no-skill", "ref-missing-file", "unknown-key"]
    name_format = rules[0]
    assert name_format["shortDescription"]["text"].startswith("name: lowercase-with-hyphens")
    assert "`name`" in name_format["help"]["markdown"] and "`" not in name_format["help"]["text"]
    assert name_format["defaultConfiguration"] == {"level": "error"}
    assert rules[3]["defaultConfiguration"] == {"level": "warning"}
    for item in run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]


RULES_WITH_MARKUP = ("description-collision", "fetch-and-execute")  # a docs link; an escaped pipe in code


def test_a_rules_plain_text_reads_its_links_as_their_text_as_skillscope_rules_prints_it():
    """The text form once dropped only backticks: a link's markdown, and a table cell's escaped pipe,
    reached tools that render no markdown."""
    found = [warning(rule, "a/SKILL.md", "m", line=1) for rule in RULES_WITH_MARKUP]
    collision, fetch = sarif.log("structural", found)["runs"][0]["tool"]["driver"]["rules"]
    assert "compared as lexical routing sees them" in collision["shortDescription"]["text"]
    # a viewer outside the docs site cannot follow a docs page's relative link: its text stays
    assert "as lexical routing sees" in collision["help"]["markdown"]
    assert "](" not in collision["help"]["markdown"]
    assert "`curl … | sh`" in fetch["help"]["markdown"]
    assert "curl … | sh" in fetch["shortDescription"]["text"]
    for rule in (collision, fetch):
        assert not any(mark in rule["help"]["text"] for mark in ("](", "`", "\\|")), rule["id"]


def test_the_graded_runs_rules_have_help_as_well():
    rules = sarif.log("routing", [error("routing", "a/evals/evals.json", "missed", line=4)])["runs"][0]
    assert rules["tool"]["driver"]["rules"][0]["help"]["text"]
    rules = sarif.log("behavioral", [error("behavioral", "a/evals/evals.json", "unmet", line=4)])["runs"][0]
    assert rules["tool"]["driver"]["rules"][0]["help"]["text"]


def test_a_known_finding_is_an_unchanged_note_and_a_demoted_one_a_warning():
    known = error("tier0-behavior", "a/evals/evals.json", "needs a behavior case").known()
    demoted = error("name-format", "a/SKILL.md", "bad name", line=2).demote()
    log = sarif.log("structural", [known, demoted])
    assert problems(log) == []
    results = {r["ruleId"]: r for r in log["runs"][0]["results"]}
    assert results["tier0-behavior"]["level"] == "note"
    assert results["tier0-behavior"]["baselineState"] == "unchanged"
    assert results["tier0-behavior"]["message"]["text"].endswith("(known: in the baseline)")
    assert results["name-format"]["level"] == "warning" and "baselineState" not in results["name-format"]
