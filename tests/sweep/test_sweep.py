"""`skillscope sweep` on a catalog on disk (tests/sweep/clause_cut) whose skill `cloud-change-review`
says what sets it apart from its neighbour only past the character where codex starts cutting once the
catalog holds about 80 skills: the sweep reports it degrading at the size where codex's cut begins,
and not before; on claude, whose budget keeps whole descriptions at these sizes, it does not degrade."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from harness import schemas
from harness.model.ballast import built_in
from harness.model.listing import TRUNCATED, listing_rule, predict
from harness.report import html
from tests.support.helpers import run_cli

CATALOG = Path(__file__).resolve().parent / "clause_cut"
SIZES = [3, 10, 20, 40, 80, 160]
REPEATS = 4
SKILL = "cloud-change-review"
CLAUSE = "Built for Pulumi"


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> tuple[dict, Path]:
    repo = Path(shutil.copytree(CATALOG, tmp_path_factory.mktemp("sweep") / "repo"))
    output = repo.parent / "sweep.json"
    run = run_cli(
        [
            "sweep",
            "--repo",
            str(repo),
            "--skills-dir",
            "skills/*",
            "--warn",
            "description-collision",
            "--agent",
            "codex,claude",
            "--sizes",
            ",".join(map(str, SIZES)),
            "--repeat",
            str(REPEATS),
            "--output",
            str(output),
            "--format",
            "markdown",
        ],
        cwd=repo,
    )
    assert run.code == 0, run.stderr
    return json.loads(output.read_text(encoding="utf-8")), repo


def cut_begins(repo: Path) -> int:
    """The first size at which codex's listing cuts the skill before its distinguishing clause, in
    every repeat's ballast, predicted from the listing rule alone."""
    text = (repo / "skills" / SKILL / "SKILL.md").read_text(encoding="utf-8")
    description = text.split("description: ", 1)[1].split("\n", 1)[0]
    clause_at = description.index(CLAUSE)
    others = {
        name: (repo / "skills" / name / "SKILL.md").read_text().split("description: ", 1)[1].split("\n", 1)[0]
        for name in ("platform-change-review", "release-notes")
    }
    mine = {SKILL: description, **others}
    ballast = built_in().beside(mine)
    for size in SIZES:
        cut = []
        for repeat in range(REPEATS):
            room = [*mine.items(), *ballast.ordering(f"0:{repeat}")[: size - len(mine)]]
            listed = next(s for s in predict(listing_rule("codex"), room).skills if s.name == SKILL)
            cut.append(listed.state == TRUNCATED and len(listed.shown) < clause_at)
        if any(cut):
            assert all(cut), f"at {size} skills the cut falls before the clause in only some repeats"
            return size
    raise AssertionError("codex never cuts the clause within the sizes tried")


def skill_of(report: dict, agent: str) -> dict:
    leg = next(leg for leg in report["agents"] if leg["agent"] == agent)
    return next(s for s in leg["skills"] if s["skill"] == SKILL)


def test_the_skill_degrades_on_codex_where_the_cut_begins_and_not_before(swept):
    report, repo = swept
    begins = cut_begins(repo)
    skill = skill_of(report, "codex")
    assert skill["first_degraded"] == begins
    for point in skill["curve"]:
        assert point["degraded"] == (point["size"] >= begins), point
        if point["size"] < begins:
            assert point["states"] == {"full": REPEATS} and point["accuracy"] == 1
    finding = next(f for f in report["findings"] if f["rule"] == "catalog-size-degrades")
    assert f"`{SKILL}`" in finding["message"] and f"from {begins} skills" in finding["message"]
    assert finding["path"] == f"skills/{SKILL}/SKILL.md"


def test_the_structural_run_a_degrading_skill_is_sent_to_shows_its_headroom_there(swept):
    """The finding once named `structural --typical-install` without its value: a usage error to whoever
    followed it. The run it names, as written, reports the skill cut before its clause at that size."""
    report, repo = swept
    finding = next(f for f in report["findings"] if f["rule"] == "catalog-size-degrades")
    named = re.search(r"`skillscope (structural [^`]*)`", finding["message"])
    assert named, finding["message"]
    words = [
        *shlex.split(named.group(1)),
        "--repo",
        str(repo),
        "--skills-dir",
        "skills/*",
        "--agent",
        "codex",
    ]
    run = run_cli([*words, "--format", "json", "--output", str(repo.parent / "headroom.json")], cwd=repo)
    assert run.code in (0, 1), run.stderr
    cut = [f for f in json.loads(run.stdout)["findings"] if f["rule"] == "distinguishing-clause-cut"]
    assert f"skills/{SKILL}/SKILL.md" in [f["path"] for f in cut], run.stdout


def test_on_claude_the_skill_keeps_its_description_and_its_routing(swept):
    report, _ = swept
    skill = skill_of(report, "claude")
    assert skill["first_degraded"] is None
    assert all(point["states"] == {"full": REPEATS} for point in skill["curve"])


def test_the_catalog_knee_on_codex_is_the_cut_and_the_report_is_whole(swept):
    report, repo = swept
    codex = next(leg for leg in report["agents"] if leg["agent"] == "codex")
    assert codex["knee"]["verdict"] == "knee" and codex["knee"]["size"] == cut_begins(repo)
    assert codex["knee"]["says"].startswith(f"accuracy falls beyond noise at {cut_begins(repo)} skills")
    assert [p["size"] for p in codex["curve"]] == SIZES
    assert all(p["low"] <= (p["accuracy"] or 0) <= p["high"] for p in codex["curve"])
    assert report["ballast"]["source"] == "built-in" and report["repeats"] == REPEATS
    assert not list(schemas.errors("sweep-report", report))
    page = html.render(report)
    assert "<svg" in page and "codex 0.169.0" in page


def test_sizes_the_catalog_and_ballast_cannot_make_are_refused(tmp_path: Path):
    repo = Path(shutil.copytree(CATALOG, tmp_path / "repo"))
    for sizes, said in (
        ("2,10", "the catalog alone has 3 skills"),
        ("3,99999", "the catalog and the ballast hold"),
    ):
        run = run_cli(["sweep", "--repo", str(repo), "--skills-dir", "skills/*", "--sizes", sizes], cwd=repo)
        assert run.code == 2 and said in run.stderr, run.stderr
