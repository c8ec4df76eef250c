"""harness.model.catalog: which paths a narrowed catalog looked at."""

from __future__ import annotations

from pathlib import Path

from harness.model import catalog
from harness.model.repo import discover
from tests.support.helpers import make_skill


def test_a_narrowed_catalog_looked_at_its_skills_folders_and_datasets_only(tmp_path: Path):
    for name in ("alpha", "alphabet"):
        make_skill(tmp_path / "skills", name)
    make_skill(tmp_path / "staging", "beta")
    whole = catalog.load(discover(tmp_path, ["skills/*"])).looked_at()
    assert whole("README.md") and whole("skills/alphabet/SKILL.md") and whole("skills/gone/SKILL.md")
    assert not whole("staging/beta/SKILL.md")  # a skill folder --skills-dir did not reach
    looked_at = catalog.load(discover(tmp_path, ["skills/*"])).narrowed(["alpha"]).looked_at()
    assert looked_at("skills/alpha") and looked_at("skills/alpha/SKILL.md")
    assert looked_at("skills/alpha/evals/evals.json")
    assert not looked_at("skills/alphabet/SKILL.md") and not looked_at("README.md")
