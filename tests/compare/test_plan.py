"""A live compare's plan, apart from any run: each side's room, where each mode keeps its transcripts,
and which limit a mode runs under."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.compare.plan import DEFAULTS, limit, mode_logs, side_rooms
from harness.compare.result import BOTH
from harness.model.repo import Repo


def test_both_sides_install_the_same_room_but_for_the_compared_skills_versions(tmp_path: Path):
    candidate = Repo(tmp_path, ["*"], {"alpha": tmp_path / "alpha", "beta": tmp_path / "beta"})
    rooms = side_rooms(["alpha", "beta"], candidate, {"alpha": tmp_path / "old-alpha"})
    assert rooms == {
        "candidate": {"alpha": tmp_path / "alpha", "beta": tmp_path / "beta"},
        "baseline": {"alpha": tmp_path / "old-alpha", "beta": tmp_path / "beta"},
    }


def test_baseline_none_leaves_the_compared_skill_out_of_the_baseline_room(tmp_path: Path):
    candidate = Repo(tmp_path, ["*"], {"alpha": tmp_path / "alpha", "beta": tmp_path / "beta"})
    rooms = side_rooms(["alpha", "beta"], candidate, {"alpha": None})
    assert rooms["baseline"] == {"beta": tmp_path / "beta"}


def test_each_mode_keeps_its_transcripts_apart_only_when_both_run(tmp_path: Path):
    assert mode_logs(None, BOTH, "routing") is None
    assert mode_logs(tmp_path, "routing", "routing") == tmp_path
    assert mode_logs(tmp_path, BOTH, "behavioral") == tmp_path / "behavioral"


@pytest.mark.parametrize("mode", sorted(DEFAULTS))
@pytest.mark.parametrize("key", ["case_timeout", "max_budget_usd"])
def test_a_mode_runs_under_the_flag_given_else_its_own_default(mode: str, key: str):
    assert limit(SimpleNamespace(**{key: None}), mode, key) == DEFAULTS[mode][key]  # type: ignore[arg-type]
    assert limit(SimpleNamespace(**{key: 7.0}), mode, key) == 7.0  # type: ignore[arg-type]
