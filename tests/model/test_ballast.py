"""The built-in ballast: generated from templates (tests/support/ballast_data.py), shipped as data,
varied, and drawn by seed so the same seed gives the same skills and a larger draw holds a smaller."""

from __future__ import annotations

import statistics

from harness.model.ballast import built_in
from tests.support import ballast_data


def test_the_shipped_ballast_is_what_the_generator_writes():
    assert ballast_data.BALLAST_JSON.read_text(encoding="utf-8") == ballast_data.rendered(), (
        "harness/data/ballast.json is out of step with its templates; write it again with "
        "`python -m tests.support.ballast_data`"
    )


def test_it_holds_over_a_thousand_distinct_and_varied_descriptions():
    skills = built_in().skills
    names, descriptions = [n for n, _ in skills], [d for _, d in skills]
    assert len(skills) >= 1000
    assert len(set(names)) == len(names) and len(set(descriptions)) == len(descriptions)
    lengths = [len(d) for d in descriptions]
    assert min(lengths) < 150 and max(lengths) > 500 and statistics.pstdev(lengths) > 80
    openings = {d.split()[0] for d in descriptions}
    assert len(openings) > 20  # not one template's first word


def test_a_seed_gives_one_ordering_and_another_seed_another():
    ballast = built_in()
    assert ballast.ordering(3) == ballast.ordering(3)
    assert ballast.ordering(3)[:50] != ballast.ordering(4)[:50]


def test_a_catalog_skill_of_the_same_name_is_not_ballast():
    ballast = built_in()
    name = ballast.skills[0][0]
    assert name not in dict(ballast.beside({name: "mine"}).skills)
