"""Packaging: every mutation of the corpus is flagged by the right host's rule, on the right line, and by
nothing else; the shapes the real catalogs ship draw no finding; a repo without a manifest is left alone."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.checks import CheckOptions, packaging
from harness.checks import structural as registry
from harness.model import catalog, package
from harness.model.repo import discover
from harness.schemas import validator
from tests.checks.packaging_support import CASES, CATALOGS, claude_outcome, located, meta, staged
from tests.support.examples import examples
from tests.support.helpers import make_skill, structural


def test_the_corpus_holds_twenty_mutations_across_the_three_hosts():
    hosts = Counter(e["host"] for case in CASES for e in meta(case)["expect"])
    assert len(CASES) >= 20
    assert set(hosts) == set(package.HOSTS) and min(hosts.values()) >= 5


@pytest.mark.parametrize("case", CASES)
def test_each_mutation_is_flagged_by_its_hosts_rule_on_its_line_and_nothing_else(case, tmp_path):
    found = [item[:4] for item in located(staged(case, tmp_path))]
    expected = sorted((e["host"], e["rule"], e["path"], e["line"]) for e in meta(case)["expect"])
    assert found == expected


@pytest.mark.parametrize("case", [c for c in CASES if "claude_validate" in meta(c)])
def test_our_claude_verdict_is_the_one_recorded_for_the_cli_unless_the_case_says_why_not(case, tmp_path):
    """The CLI's side of this is checked against the real binary in test_packaging_claude."""
    recorded = meta(case)
    ours = claude_outcome(located(staged(case, tmp_path)))
    if "disagrees" in recorded:
        assert ours != recorded["claude_validate"]
    else:
        assert ours == recorded["claude_validate"]


@pytest.mark.parametrize("shape", sorted(p.name for p in CATALOGS.iterdir()))
def test_the_real_catalogs_manifest_shapes_draw_no_finding(shape):
    root = CATALOGS / shape
    assert located(root) == []
    loaded = catalog.load(discover(root, ["skills/*"]))
    verdicts = packaging.verdicts(loaded, [])
    assert verdicts[package.CLAUDE].status == "pass"
    assert all(v.status in ("pass", "none") for v in verdicts.values())


def test_amd_shape_leaves_its_planned_skills_unpackaged_without_a_finding():
    """Which skills are published is the repo's business: only a skill one host packages and another
    host leaves out is reported."""
    pkg = package.read(CATALOGS / "amd-skills")
    reached = {pkg.rel(p) for plugin in pkg.plugins for p in package.reached_skills(plugin)}
    assert "skills/optimizer" not in reached and len(reached) == 4
    assert [p.host for p in pkg.plugins] == ["claude", "codex"]


def test_a_repo_without_a_manifest_gets_no_packaging_finding_and_no_packaging_line(tmp_path):
    make_skill(tmp_path, "solo")
    (tmp_path / "solo" / "plugin-notes.json").write_text("{}", encoding="utf-8")
    loaded = catalog.load(discover(tmp_path, ["*"]))
    assert packaging.check(loaded, CheckOptions(packaging=True)) == []
    assert packaging.verdicts(loaded, []) == {}
    run, report = structural(tmp_path, "--format", "text")
    assert run.code == 0 and "packaging" not in run.stdout and "packaging" not in report


def test_the_gate_of_a_paid_run_leaves_packaging_out_through_the_registry_alone(tmp_path):
    """The registry's condition is packaging's one switch: the module's check, which tested the option
    again, checks whatever reaches it, so the two can no longer disagree."""
    root = staged("claude-author-string", tmp_path)
    loaded = catalog.load(discover(root, ["skills/*"]))
    assert registry.CHECKS["packaging"](loaded, CheckOptions()) == []
    turned_on = registry.CHECKS["packaging"](loaded, CheckOptions(packaging=True))
    assert turned_on and packaging.check(loaded, CheckOptions()) == turned_on


def test_structural_prints_one_line_per_host_and_reports_each_verdict(tmp_path):
    root = staged("codex-marketplace-in-plugin-folder", tmp_path)
    run, report = structural(root, "--skills-dir", "skills/*", "--format", "text", "--no-builtin-negatives")
    assert (
        "packaging: claude – (no manifest), codex ✗ (manifest in the wrong folder), copilot – (no manifest)"
        in (run.stdout)
    )
    assert ".codex-plugin/marketplace.json: error: packaging-manifest-misplaced" in run.stdout.replace(
        ":None", ""
    )
    assert report["packaging"]["codex"] == {
        "status": "fail",
        "reason": "manifest in the wrong folder",
        "manifests": [".codex-plugin/plugin.json"],
    }
    assert not list(validator("structural-report").iter_errors(report))
    assert run.code == 1


def test_a_demoted_packaging_error_leaves_its_host_passing(tmp_path):
    root = staged("claude-author-string", tmp_path)
    run, report = structural(root, "--skills-dir", "skills/*", "--warn", "packaging-field-type")
    assert report["packaging"]["claude"]["status"] == "pass"
    assert "claude ✓" in run.stdout


def test_markdown_carries_the_packaging_line(tmp_path):
    root = staged("copilot-author-string", tmp_path)
    run, _ = structural(root, "--skills-dir", "skills/*")
    assert (
        "packaging: claude – (no manifest), codex – (no manifest), copilot ✗ (a field of the wrong type)"
        in (run.stdout)
    )


PATH_PARTS = st.sampled_from(["skills", "alpha", "..", ".", "", "SKILL.md", "/", "nope", "\\", " "])


@settings(max_examples=examples(60), deadline=None)
@given(entries=st.lists(st.lists(PATH_PARTS, max_size=4).map("/".join), min_size=1, max_size=3))
def test_any_skills_path_is_judged_in_a_sentence_and_one_leaving_the_root_is_refused(
    entries, tmp_path_factory
):
    root = tmp_path_factory.mktemp("pkg")
    make_skill(root / "skills", "alpha")
    (root / ".claude-plugin").mkdir()
    (root / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "demo", "skills": entries}, indent=2), encoding="utf-8"
    )
    found = packaging.host_findings(package.read(root), catalog.load(discover(root, ["skills/*"])))
    for _, finding in found:
        assert finding.line and finding.message.endswith(".") and finding.path == ".claude-plugin/plugin.json"
    written = [PurePosixPath(e.replace("\\", "/")) for e in entries]  # a backslash is a separator to Windows
    leaving = [e for e in written if ".." in e.parts or e.is_absolute()]
    outside = [f for _, f in found if f.rule == "packaging-path-outside-root" and f.severity == "error"]
    assert len(outside) == len(leaving)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(["./", "../x", "./skills", "skills/", "", "a b"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                ["name", "skills", "plugins", "source", "author", "owner", "version", "path", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=examples(80), deadline=None)
@given(where=st.sampled_from(sorted(package.LOCATIONS)), value=JSON)
def test_any_json_in_any_manifest_is_reported_in_sentences_never_a_traceback(where, value, tmp_path_factory):
    root = tmp_path_factory.mktemp("pkg")
    make_skill(root / "skills", "alpha")
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).write_text(json.dumps(value, indent=2), encoding="utf-8")
    loaded = catalog.load(discover(root, ["skills/*"]))
    for host, finding in packaging.host_findings(package.read(root), loaded):
        assert host in package.HOSTS and finding.rule.startswith("packaging-")
        assert finding.path == where and finding.message.endswith(".")
    verdict = packaging.verdicts(loaded, packaging.check(loaded, CheckOptions(packaging=True)))
    assert set(verdict) == set(package.HOSTS)


def test_a_plugin_root_outside_the_repo_is_never_read(tmp_path):
    """A marketplace may point anywhere; only what lies in the repo is the repo's package."""
    outside = tmp_path / "elsewhere"
    (outside / ".claude-plugin").mkdir(parents=True)
    (outside / ".claude-plugin" / "plugin.json").write_text('{"name": "x", "author": "y"}', encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / ".github" / "plugin").mkdir(parents=True)
    (repo / ".github" / "plugin" / "marketplace.json").write_text(
        json.dumps({"name": "m", "owner": {"name": "o"}, "metadata": {"pluginRoot": "../elsewhere"},
                    "plugins": [{"name": "x", "source": "./"}]}),
        encoding="utf-8",
    )  # fmt: skip
    pkg = package.read(repo)
    assert [m.rel for m in pkg.manifests] == [".github/plugin/marketplace.json"]


@pytest.mark.parametrize("case", CASES)
def test_each_finding_sits_on_a_manifest_of_the_host_it_names(case, tmp_path):
    """What lets the per-host verdicts read the host off the finding's file."""
    root = staged(case, tmp_path)
    pkg = package.read(root)
    loaded = catalog.load(discover(root, ["skills/*"]))
    assert all(pkg.host_of(f.path) == host for host, f in packaging.host_findings(pkg, loaded))


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("marketplace.json", '{"items": []}'),
        (".claude/plugin.json", '{"enabled": true}'),
        (".github/plugin.json", "not json"),
        (".claude-plugin/skills/README.md", "notes"),
    ],
)
def test_another_tools_file_in_a_misplaced_spot_is_left_alone(where, text, tmp_path):
    make_skill(tmp_path / "skills", "alpha")
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(text, encoding="utf-8")
    assert package.read(tmp_path).misplaced == []
