"""The usage profile (--usage): read from its file, turned into claude's usage scores (uses halved every
seven days since the last, never below a tenth of a use), and every malformed file refused in one
sentence naming it and the fix (the corpus under tests/model/usage_profiles/bad)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.errors import UsageError
from harness.model import usage
from harness.model.listing import NAME_ONLY, listing_rule, predict, usage_scores

PROFILES = Path(__file__).resolve().parent / "usage_profiles"
BAD = sorted((PROFILES / "bad").glob("*.json"))


def test_a_profile_reads_counts_and_ages() -> None:
    profile = usage.load(PROFILES / "good" / "mixed.json", "usage.json")
    assert profile.uses == {"alpha": (12, 0.0), "beta": (4, 14.0), "gamma": (0, 0.0)}
    assert profile.scores(listing_rule("claude")) == {"alpha": 12.0, "beta": 1.0, "gamma": 0.0}
    assert profile.scores(listing_rule("codex")) == {}  # codex does not rank by usage
    assert profile.pairs() == (("alpha", 12, 0.0), ("beta", 4, 14.0), ("gamma", 0, 0.0))


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_every_malformed_profile_is_one_sentence_naming_the_file_and_the_fix(path: Path) -> None:
    with pytest.raises(UsageError) as raised:
        usage.load(path, f"profiles/{path.name}")
    said = str(raised.value)
    assert said.startswith(f"--usage profiles/{path.name}")
    assert "write it as" in said and "\n" not in said and "Traceback" not in said


@given(count=st.integers(0, 10_000), days=st.floats(0, 3650, allow_nan=False))
def test_a_use_decays_by_half_a_week_and_never_below_a_tenth(count: int, days: float) -> None:
    (score,) = usage_scores(listing_rule("claude"), {"s": (count, days)}).values()
    assert count * 0.1 - 1e-9 <= score <= count + 1e-9
    assert score == pytest.approx(count * max(0.5 ** (days / 7), 0.1))


def test_never_used_is_the_worst_case_a_used_skill_keeps_its_description_first() -> None:
    rule = listing_rule("claude")
    catalog = [(f"skill-{i:03d}", f"Handles task {i}. " + "word " * 400) for i in range(60)]
    never = predict(rule, catalog, "claude-opus-5-5")
    short = [skill.name for skill in never.skills if skill.state == NAME_ONLY]
    assert short, "the catalog must overflow claude's budget"
    used = predict(rule, catalog, "claude-opus-5-5", usage=usage_scores(rule, {short[-1]: (1, 60.0)}))
    assert used.state_of(short[-1]) != NAME_ONLY
