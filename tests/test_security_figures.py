"""The security pack's published figures stay true: benchmarks/security/figures.json (written by
`python benchmarks/security_bench.py --benign DIR --figures FILE`) is what docs/security-rules.md shows,
its planted recall is what the rules catch today (offline, so a rule that stops catching a planted
variant fails here, not at the next benchmark run), and it meets the targets of the pack. The benign
flag rate needs the catalog checkouts, so it is held by the committed file: a rule change that raises it
shows up when the benchmark is run again and the file rewritten."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "security-rules.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("security_bench", ROOT / "benchmarks" / "security_bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def measured(bench):
    return json.loads(bench.FIGURES.read_text(encoding="utf-8"))


def test_the_planted_recall_in_the_figures_is_what_the_rules_catch_today(bench, measured):
    today = {rule: list(counts) for rule, counts in bench.recall().items()}
    assert today == measured["planted"], "run the benchmark again with --figures and update the docs"


def test_the_docs_show_the_committed_figures(bench, measured):
    for row in bench.table(measured):
        assert row in DOCS.splitlines(), f"docs/security-rules.md lacks the figures' row {row!r}"
    assert bench.summary(measured) in DOCS
    caught = sum(c for c, _ in measured["planted"].values())
    total = sum(t for _, t in measured["planted"].values())
    assert f"Planted corpus: {caught} of {total} caught" in DOCS
    assert f"skillscope structural --error {','.join(bench.gate_safe(measured))}\n" in DOCS


def test_the_figures_cover_the_pinned_catalogs_and_meet_the_packs_targets(bench, measured):
    pinned = json.loads(bench.PINNED.read_text(encoding="utf-8"))["catalogs"]
    benign = measured["benign"]
    assert benign["skills"] == sum(entry["skills"] for entry in pinned) >= 300
    assert bench.upper(benign["flagged"], benign["skills"]) <= bench.ANY_SEVERITY_BOUND
    flagged = {skill for skills in benign["by_rule"].values() for skill in skills}
    assert len(flagged) == benign["flagged"]
    assert {skill.split("/")[0] for skill in flagged} <= {e["repo"].replace("/", "+") for e in pinned}
    for caught, total in measured["planted"].values():
        assert total >= 3 and caught / total >= bench.RECALL_TARGET
