"""Every rule id the harness can emit is in harness/data/rules.json (so on the docs' rules page, which is
made from it), accepted by --warn, and declared with a severity the code gives it.

The ids are collected from the code itself: the first argument of every call that makes a finding
(`findings.error`, `findings.warning`, `Finding(rule=...)`, the skill reader's `_fail`, and any local name
bound to one of them, such as `make = findings.error if severe else findings.warning`), whether written
there as a literal or through a variable assigned literals in the same module."""

from __future__ import annotations

import ast
import functools
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

import mkdocs_hooks
from harness.model.baseline import NEVER_ADOPTED, known_rules
from tests.support.helpers import make_skill, run_cli

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "harness" / "data" / "rules.json").read_text(encoding="utf-8"))
MAKERS = {"error": "error", "warning": "warning", "_fail": "error"}
RULE_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def _strings(node: ast.AST) -> list[str]:
    """The string literals an expression can evaluate to (a literal, or either branch of `a if c else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def _severities(node: ast.AST) -> set[str]:
    """Which of findings.error / findings.warning an expression names."""
    text = ast.unparse(node)
    return {word for word in ("error", "warning") if re.search(rf"\bfindings?\.{word}\b", text)}


# The tests that read it run on one worker (the group), so a parallel run parses the package once.
SHARED_PARSE = pytest.mark.xdist_group("emitted-rules")


@functools.cache  # parsing the whole package costs seconds; four tests read the same answer
def emitted() -> dict[str, frozenset[str]]:
    """Rule id -> the severities the code makes it with (empty where the severity is passed through)."""
    rules: dict[str, set[str]] = defaultdict(set)
    for path in (ROOT / "harness").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        makers = dict(MAKERS)
        literals: dict[str, list[str]] = defaultdict(list)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        literals[target.id] += _strings(node.value)
                        if made := _severities(node.value):
                            makers[target.id] = "/".join(sorted(made))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            keyword = next((k.value for k in node.keywords if k.arg == "rule"), None)
            if name == "Finding" and keyword is not None:
                for rule in _strings(keyword):
                    rules[rule]  # noqa: B018 - its severity is passed through
                continue
            if name not in makers or not node.args:
                continue
            first = node.args[1] if name == "_fail" and len(node.args) > 1 else node.args[0]
            found = _strings(first) or (literals.get(first.id, []) if isinstance(first, ast.Name) else [])
            for rule in found:
                if RULE_ID.fullmatch(rule):
                    rules[rule] |= set(makers[name].split("/"))
    return {rule: frozenset(made) for rule, made in rules.items()}


@SHARED_PARSE
def test_the_collector_sees_the_rules_made_through_a_local_name():
    found = emitted()
    assert "description-collision" in found and found["description-collision"] == {"error", "warning"}
    assert {"frontmatter-yaml", "frontmatter-alias", "skill-md-unreadable"} <= set(found)
    assert len(found) >= 60


@SHARED_PARSE
def test_every_emitted_rule_is_in_rules_json_and_on_the_rules_page():
    missing = sorted(set(emitted()) - set(RULES))
    assert not missing, f"rules the code emits but harness/data/rules.json lacks: {missing}"
    page = mkdocs_hooks.rules_page(RULES)
    assert not [rule for rule in emitted() if f"| `{rule}` |" not in page]


@SHARED_PARSE
def test_each_rule_is_declared_with_a_severity_the_code_gives_it():
    wrong = {
        rule: (RULES[rule]["severity"], sorted(made))
        for rule, made in emitted().items()
        if made and RULES[rule]["severity"] not in made
    }
    assert not wrong, f"rules.json severity (declared, made by the code): {wrong}"


def test_every_rule_names_the_source_it_follows():
    assert not [rule for rule, entry in RULES.items() if not entry.get("source", "").strip()]
    spec = {rule for rule, entry in RULES.items() if entry["source"].startswith("the specification")}
    # The specification's recommendations are warnings; only what it requires is an error.
    assert not [r for r in spec if "recommended" in RULES[r]["source"] and RULES[r]["severity"] == "error"]
    assert RULES["body-too-long"] == {**RULES["body-too-long"], "severity": "warning"}
    assert "recommended" in RULES["body-too-long"]["source"]


@SHARED_PARSE
def test_warn_accepts_every_rule_the_code_emits_but_the_one_that_means_nothing_was_graded(tmp_path):
    demotable = set(emitted()) - NEVER_ADOPTED  # no-skill: refused by name (tests/commands/test_baseline.py)
    assert set(emitted()) >= NEVER_ADOPTED
    assert known_rules(demotable) == demotable
    make_skill(tmp_path, "solo")
    run = run_cli(
        ["structural", "--repo", str(tmp_path), "--warn", ",".join(sorted(demotable))], cwd=tmp_path
    )
    assert run.code == 0, run.stderr


@pytest.mark.parametrize("rule", ["description-collision", "body-too-long"])
def test_warn_accepts_the_rules_a_catalog_meets_first(tmp_path, rule):
    make_skill(tmp_path, "solo")
    run = run_cli(["structural", "--repo", str(tmp_path), "--warn", rule], cwd=tmp_path)
    assert run.code == 0 and "no rule of that name" not in run.stderr


def test_every_rule_names_its_source_and_an_error_follows_one_where_something_actually_fails():
    """A severity follows its source: the specification's recommendations and our lexical estimates
    are warnings; an error only where the format requires it, an agent or host fails, or a dataset
    of ours (or the repo's own policy) cannot be read as written. The rules page shows each source
    (tests/test_site.py)."""
    for rule, entry in RULES.items():
        assert str(entry.get("source", "")).strip(), f"{rule} names no source"
    soft = ("recommended", "lexical estimate", "nothing dropped silently")
    errors = [r for r, e in RULES.items() if e["severity"] == "error" and any(s in e["source"] for s in soft)]
    assert errors == [], f"an error whose source only recommends or estimates: {errors}"
