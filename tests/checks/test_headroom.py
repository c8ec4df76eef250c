"""structural's description headroom on a catalog on disk (tests/sweep/clause_cut): two skills that
share a long description and differ only in a last clause past the character where codex starts
cutting once users have 80 other skills beside them. Headroom names that clause; the catalog alone
cuts nothing, so neither rule fires there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness import schemas
from harness.checks import CheckOptions, headroom
from harness.model import catalog
from harness.model.repo import discover
from tests.support.helpers import structural

CATALOG = Path(__file__).resolve().parents[1] / "sweep" / "clause_cut"
FLAGS = ("--skills-dir", "skills/*", "--warn", "description-collision")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return Path(shutil.copytree(CATALOG, tmp_path / "repo"))


def test_at_the_typical_install_headroom_names_the_clause_codex_cuts(repo: Path, tmp_path: Path):
    run, report = structural(repo, *FLAGS, "--agent", "codex", "--typical-install", "80", tmp=tmp_path)
    assert run.code == 0, run.stderr
    cut = [f for f in report["findings"] if f["rule"] == "distinguishing-clause-cut"]
    mine = next(f for f in cut if "`cloud-change-review`" in f["message"])
    assert '"Built for Pulumi stacks and their preview output"' in mine["message"]
    assert (
        "`platform-change-review`" in mine["message"]
        and "codex 0.169.0 cuts it at character" in mine["message"]
    )
    assert mine["path"] == "skills/cloud-change-review/SKILL.md" and mine["line"] == 3
    headroom = [
        f
        for f in report["findings"]
        if f["rule"] == "description-headroom" and "`cloud-change-review`" in f["message"]
    ]
    assert headroom and "shorten it by about" in headroom[0]["message"]
    rows = {(r["skill"], r["scope"]): r for r in report["headroom"]["skills"]}
    typical = rows[("cloud-change-review", "typical")]
    assert typical["state"] == "truncated" and typical["headroom"] < 0 and typical["approximate"]
    assert typical["shown_chars"] < typical["clauses_lost"][0]["start"]
    assert typical["survives"] and typical["cut_before"]
    assert rows[("cloud-change-review", "catalog")]["state"] == "full"
    assert rows[("release-notes", "typical")]["state"] == "full"
    assert report["headroom"]["install"] == {"given": "80", "skills": 80}
    assert not list(schemas.errors("structural-report", report))


def test_the_catalog_alone_has_room_and_no_rule_fires(repo: Path, tmp_path: Path):
    run, report = structural(repo, *FLAGS, "--agent", "codex,claude", tmp=tmp_path)
    assert run.code == 0, run.stderr
    rules = {f["rule"] for f in report["findings"]}
    assert not rules & {"distinguishing-clause-cut", "description-headroom"}
    rows = report["headroom"]["skills"]
    assert {r["scope"] for r in rows} == {"catalog"} and all(r["headroom"] > 0 for r in rows)
    assert report["headroom"]["install"] is None


def test_a_typical_install_larger_than_the_built_in_ballast_is_refused_by_name(repo: Path, tmp_path: Path):
    run, _ = structural(repo, *FLAGS, "--typical-install", "5000", tmp=tmp_path)
    assert run.code == 2
    assert "--typical-install 5000: the built-in ballast holds" in run.stderr


def test_declared_skills_are_the_typical_install(repo: Path, tmp_path: Path):
    vendor = repo / "vendor" / "other" / "skills" / "pdf-fill"
    vendor.mkdir(parents=True)
    (vendor / "SKILL.md").write_text("---\nname: pdf-fill\ndescription: Fill PDF forms.\n---\n# Fill\n")
    run, report = structural(
        repo, *FLAGS, "--agent", "codex", "--typical-install", "vendor/other/skills/*", tmp=tmp_path
    )
    assert run.code == 0, run.stderr
    assert report["headroom"]["install"] == {"given": "vendor/other/skills/*", "skills": 1}


def test_a_usage_profile_ranks_claudes_listing_at_the_typical_install(repo: Path, tmp_path: Path):
    """Never used, release-notes loses its description to claude's budget beside 200 other skills; used
    often (--usage), claude keeps it, and the report names the profile."""
    args = (*FLAGS, "--agent", "claude", "--typical-install", "200")
    run, never = structural(repo, *args, tmp=tmp_path)
    assert run.code == 0, run.stderr
    (repo / "usage.json").write_text('{"release-notes": {"uses": 30, "days_since_use": 1}}', encoding="utf-8")
    run, used = structural(repo, *args, "--usage", "usage.json", tmp=tmp_path)
    assert run.code == 0, run.stderr

    def state(report: dict) -> str:
        rows = report["headroom"]["skills"]
        return next(r["state"] for r in rows if (r["skill"], r["scope"]) == ("release-notes", "typical"))

    assert (state(never), state(used)) == ("name-only", "full")
    assert (never["headroom"]["usage"], used["headroom"]["usage"]) == (None, "usage.json")
    assert not list(schemas.errors("structural-report", used))


def test_a_usage_profile_that_is_not_one_is_refused_naming_the_fix(repo: Path, tmp_path: Path):
    (repo / "usage.json").write_text('{"release-notes": "often"}', encoding="utf-8")
    run, _ = structural(repo, *FLAGS, "--agent", "claude", "--usage", "usage.json", tmp=tmp_path)
    assert run.code == 2
    assert "--usage usage.json: `release-notes` needs its uses as a whole number" in run.stderr


def test_the_table_is_none_without_an_agent_and_names_the_install_it_was_predicted_at(repo: Path):
    loaded = catalog.load(discover(repo, ["skills/*"]))
    assert headroom.table(loaded, CheckOptions()) is None
    alone = headroom.table(loaded, CheckOptions(listing_agents=("codex",)))
    assert alone is not None and alone["install"] is None and alone["usage"] is None
    beside = (("other", "Does another job."),)
    typical = headroom.table(
        loaded, CheckOptions(listing_agents=("codex",), install=beside, install_source="x/*")
    )
    assert typical is not None and typical["install"] == {"given": "x/*", "skills": 1}


def test_a_structural_run_assesses_headroom_once_for_its_findings_and_its_table(
    repo: Path, tmp_path: Path, monkeypatch
):
    """The check's findings and the report's table come from one assessment (on a large catalog each
    costs a scoring of every cut skill against the rest)."""
    calls = []
    real = headroom.assess
    monkeypatch.setattr(headroom, "assess", lambda *given: calls.append(1) or real(*given))
    run, report = structural(repo, *FLAGS, "--agent", "codex", "--typical-install", "80", tmp=tmp_path)
    assert run.code == 0, run.stderr
    assert report["headroom"] and any(f["rule"] == "distinguishing-clause-cut" for f in report["findings"])
    assert len(calls) == 1
