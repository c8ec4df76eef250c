"""Selection on synthetic scores: the early stop, the corrected choice, neighbours' regressions."""

from __future__ import annotations

from harness.model.dataset import Case
from harness.tune import selection
from harness.tune.scoring import Scored


def scored(spec: dict[str, tuple[str | None, bool | None]], agent: str = "") -> dict[str, Scored]:
    """case id -> (expected skill, passed), as graded on `agent`."""
    out = {}
    for case_id, (expected, passed) in spec.items():
        one = Scored(
            Case(case_id, case_id, expected is not None, expected or "alpha", "x.json"), passed, agent
        )
        out[one.key] = one
    return out


def test_a_look_stops_a_candidate_that_loses_enough_disagreeing_cases():
    current = scored({f"c{n}": ("alpha", True) for n in range(8)})
    worse = scored({f"c{n}": ("alpha", False) for n in range(4)})
    seen = selection.look(current, worse, looks=3, alpha=0.2)
    assert (seen.paired.losses, seen.p_worse) == (4, 0.0625)
    assert seen.stops  # 0.0625 <= 0.2 / 3
    assert not selection.look(current, worse, looks=3, alpha=0.05).stops


def test_a_look_never_stops_a_candidate_that_only_ties_or_wins():
    current = scored({f"c{n}": ("alpha", n % 2 == 0) for n in range(8)})
    better = scored({f"c{n}": ("alpha", True) for n in range(8)})
    assert not selection.look(current, better, looks=1, alpha=0.5).stops


def test_the_choice_is_the_largest_gain_beyond_the_corrected_noise():
    current = scored({f"c{n}": ("alpha", False) for n in range(8)})
    good = scored({f"c{n}": ("alpha", n < 6) for n in range(8)})  # 6 wins
    slight = scored({f"c{n}": ("alpha", n < 2) for n in range(8)})  # 2 wins
    judged = selection.judge(current, {"good": good, "slight": slight}, tried=2, alpha=0.05, neighbours=set())
    assert judged["good"].by_agent[""].beats_noise and not judged["slight"].by_agent[""].beats_noise
    assert selection.choose(judged) == "good"


def test_more_candidates_tried_raise_the_bar():
    current = scored({f"c{n}": ("alpha", False) for n in range(8)})
    good = scored({f"c{n}": ("alpha", n < 6) for n in range(8)})
    assert selection.judge(current, {"good": good}, tried=1, alpha=0.05, neighbours=set())["good"].eligible
    assert not selection.judge(current, {"good": good}, tried=10, alpha=0.05, neighbours=set())[
        "good"
    ].eligible


def test_a_candidate_that_breaks_a_neighbours_case_is_not_chosen_however_it_gains():
    current = scored({**{f"c{n}": ("alpha", False) for n in range(10)}, "b1": ("beta", True)})
    stealer = scored({**{f"c{n}": ("alpha", True) for n in range(10)}, "b1": ("beta", False)})
    judged = selection.judge(current, {"stealer": stealer}, tried=1, alpha=0.05, neighbours={"beta"})
    assert judged["stealer"].by_agent[""].beats_noise
    assert judged["stealer"].by_agent[""].regressions == ["b1"]
    assert selection.choose(judged) is None
    assert "a neighbour's case regressed: b1" in judged["stealer"].reason()


def test_errored_cases_are_never_scores():
    current = scored({f"c{n}": ("alpha", False) for n in range(8)})
    errored = scored({f"c{n}": ("alpha", None if n < 6 else True) for n in range(8)})
    judged = selection.judge(current, {"errored": errored}, tried=1, alpha=0.05, neighbours=set())
    pairs = judged["errored"].by_agent[""].paired
    assert (pairs.wins, pairs.unpaired, pairs.n) == (2, 6, 2)
    assert not judged["errored"].eligible


def test_none_beating_noise_chooses_nothing():
    current = scored({f"c{n}": ("alpha", True) for n in range(8)})
    same = scored({f"c{n}": ("alpha", True) for n in range(8)})
    judged = selection.judge(current, {"same": same}, tried=1, alpha=0.05, neighbours=set())
    assert selection.choose(judged) is None
    assert "not beyond noise" in judged["same"].reason()


def test_on_several_agents_a_candidate_is_chosen_only_if_it_wins_on_each_and_the_report_says_where_not():
    current = {**scored({f"c{n}": ("alpha", False) for n in range(8)}, "claude")}
    current |= scored({f"c{n}": ("alpha", False) for n in range(8)}, "codex")
    wins_both = scored({f"c{n}": ("alpha", True) for n in range(8)}, "claude")
    wins_both |= scored({f"c{n}": ("alpha", True) for n in range(8)}, "codex")
    wins_one = scored({f"c{n}": ("alpha", True) for n in range(8)}, "claude")
    wins_one |= scored({f"c{n}": ("alpha", False) for n in range(8)}, "codex")
    judged = selection.judge(
        current, {"one": wins_one, "both": wins_both}, tried=2, alpha=0.05, neighbours=set()
    )
    assert not judged["one"].eligible and judged["both"].eligible
    assert judged["one"].reason().startswith("does not win on codex; on claude: gain +1.000")
    assert selection.choose(judged) == "both"


def test_a_look_on_several_agents_stops_when_the_candidate_is_clearly_worse_on_any():
    current = scored({f"c{n}": ("alpha", True) for n in range(8)}, "claude")
    current |= scored({f"c{n}": ("alpha", True) for n in range(8)}, "codex")
    so_far = scored({f"c{n}": ("alpha", True) for n in range(8)}, "claude")
    so_far |= scored({f"c{n}": ("alpha", False) for n in range(8)}, "codex")
    seen = selection.looks_on_each(current, so_far, looks=1, alpha=0.05)
    assert [(one.agent, one.stops) for one in seen] == [("claude", False), ("codex", True)]
