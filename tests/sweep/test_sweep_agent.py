"""`skillscope sweep --engine agent`: at each size the catalog and its ballast are installed as real
skills, and the model decides from what is listed. The per-size accuracy is the model's choices, the
knee is where it starts choosing wrongly, the dry run promises exactly the agent starts the run makes,
and an API error is never graded as a miss.

What sweep makes of the runs (the curve, the knee, the dry run's count, an error never a miss) is the
harness's: those tests run on the scripted stand-in (tests/support/scripted.py), which answers from
the skills each size installed in the run's workspace. That the real claude CLI lists each size's
catalog and ballast itself, and its model's choice is graded, is
test_on_the_real_cli_each_size_is_listed_and_no_skill_is_a_miss, on the real CLI against the scripted
API (tests/fakeapi), each case at each size being one start of the CLI.

Only the knee's own test needs three sizes of six cases (fewer cannot show a drop beyond noise after
the correction for two sizes); the tests of how an outcome is graded run the fewest sizes and cases
that show it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import RecordedRequest
from tests.fakeapi.recorded import LISTING_HEADER
from tests.support import scripted as S
from tests.support.routing import NO_SKILL_TEXT, CaseRouter

SIZES = (2, 4, 8)
CASES = ("alpha-pos-1", "alpha-pos-2", "alpha-pos-3", "beta-pos-1", "beta-pos-2", "beta-pos-3")
TWO = ("alpha-pos-1", "beta-pos-1")  # one case of each skill: how an outcome is graded, at two sizes
CROWDED = 4  # past this many listed skills the scripted model picks the wrong one


pytestmark = pytest.mark.usefixtures("private_temp")


def texts(value: object) -> str:
    """Every string in a request body, joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(texts(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(texts(v) for v in value)
    return ""


def listed(request: RecordedRequest) -> list[str]:
    """The skill names claude's own listing showed the model in this request."""
    text = texts(request.body)
    start = text.index(LISTING_HEADER) + len(LISTING_HEADER) + 2  # the header, then a blank line
    return re.findall(r"^- ([a-z0-9-]+)", text[start : text.index("\n\n", start)], re.M)


def crowded_picks(wrong: dict[str, str]):
    """A model that picks the case's own skill while its run lists at most CROWDED skills, and its
    neighbour once it lists more."""

    def pick(own: str):
        def answer(ran: S.Ran) -> S.Answer:
            assert own in ran.installed, ran.installed  # the catalog is installed at every size
            return S.fires(own if len(ran.installed) <= CROWDED else wrong[own])

        return answer

    return pick


def sweep(
    repo: Path,
    env: dict[str, str],
    *args: str,
    sizes: tuple[int, ...] = SIZES,
    cases: tuple[str, ...] = CASES,
) -> tuple[int, str, str, dict | None]:
    output = repo.parent / "sweep.json"
    output.unlink(missing_ok=True)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = [
        "sweep",
        "--repo",
        str(repo),
        "--engine",
        "agent",
        "--sizes",
        ",".join(map(str, sizes)),
        "--repeat",
        "1",
        "--only",
        ",".join(cases),
        "--skip-preflight",
        "--no-cache",
        "--output",
        str(output),
        *args,
    ]
    code = main(argv, ctx)
    report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else None
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


def agent_starts(said: str) -> int:
    match = re.search(r"^Agent starts: (\d+) ", said, re.M)
    assert match, said
    return int(match.group(1))


# Each test below on the scripted stand-in; the real claude CLI's listing at each size, and its model's
# choice graded, is test_on_the_real_cli_each_size_is_listed_and_no_skill_is_a_miss.


def test_the_agents_choices_make_the_curve_the_knee_is_where_they_go_wrong_and_the_dry_run_counts_it(
    scripted, repo
):
    pick = crowded_picks({"alpha": "beta", "beta": "alpha"})
    scripted.script(
        {
            **{f"alpha-pos-{n}": pick("alpha") for n in (1, 2, 3)},
            **{f"beta-pos-{n}": pick("beta") for n in (1, 2, 3)},
        }
    )
    code, said, _, report = sweep(repo, scripted.env, "--dry-run")
    assert code == 0 and report is None
    assert scripted.runs == []  # a dry run starts nothing
    promised = agent_starts(said)
    assert promised == 1 + 6 * len(SIZES)  # the canary, then each case at each size
    assert f"Estimate: {promised} sample(s), 1 of them the canary;" in said

    code, _, stderr, report = sweep(repo, scripted.env)
    assert code == 0, stderr
    assert schemas.errors("sweep-report", report) == []
    assert len(scripted.runs) == promised == report["run"]["agent_starts"]
    assert len(scripted.canary_runs()) == 1
    assert report["engine"] == "agent" and report["run"]["errors"] == 0
    (leg,) = report["agents"]
    assert leg["agent"] == "claude" and leg["agent_version"]
    curve = {point["size"]: point for point in leg["curve"]}
    assert [curve[s]["accuracy"] for s in SIZES] == [1.0, 1.0, 0.0]
    assert [curve[s]["graded"] for s in SIZES] == [6, 6, 6]
    assert leg["knee"]["verdict"] == "knee" and leg["knee"]["size"] == 8
    by_skill = {skill["skill"]: skill for skill in leg["skills"]}
    assert by_skill["alpha"]["first_degraded"] is None  # three cases cannot tell a drop from noise
    assert not by_skill["alpha"]["detectable"]


OVERLOADED = S.fails("API Error: 529 Overloaded")


def test_an_api_error_is_never_graded_as_a_miss_and_a_curve_that_holds_has_no_knee(scripted, repo):
    """alpha-pos-1 meets an overloaded API at the larger size: that pair is an error, graded on neither
    side, and the size's accuracy is the other four cases'. Five cases at two sizes are the fewest whose
    drop could be told from noise, so "no knee" here is a finding, not a cannot-tell."""

    def overloaded_when_crowded(ran: S.Ran) -> S.Answer:
        return OVERLOADED if len(ran.installed) > CROWDED else S.fires("alpha")

    table: dict[str, S.Scripting] = {
        "alpha-pos-1": overloaded_when_crowded,
        "alpha-pos-2": S.fires("alpha"),
        "alpha-pos-3": S.fires("alpha"),
    }
    table.update({f"beta-pos-{n}": S.fires("beta") for n in (1, 2)})
    scripted.script(table)
    code, _, stderr, report = sweep(repo, scripted.env, "--no-canary", sizes=(2, 8), cases=CASES[:5])
    assert code == 0, stderr
    (leg,) = report["agents"]
    first, last = leg["curve"]
    assert (first["size"], first["graded"], first["passed"], first["errors"]) == (2, 5, 5, 0)
    assert (last["size"], last["graded"], last["passed"], last["errors"]) == (8, 4, 4, 1)
    assert last["accuracy"] == 1.0 and last["worse"] == 0
    assert report["run"]["errors"] == 1
    assert leg["knee"]["verdict"] == "none"


def test_a_run_whose_every_case_errored_fails_and_grades_nothing(scripted, repo):
    scripted.script({}, default=OVERLOADED)
    code, stdout, stderr, report = sweep(repo, scripted.env, "--no-canary", sizes=SIZES[:2], cases=TWO)
    assert code == 1, stderr
    (leg,) = report["agents"]
    assert len(leg["curve"]) == 2
    assert all(point["graded"] == 0 and point["errors"] == 2 for point in leg["curve"])
    assert leg["knee"]["verdict"] == "cannot-tell"
    assert report["passed"] is False
    # Nothing was graded: an error, not a skill that passed, and the summary and lines say why.
    assert report["status"] == "error" and report["counts"]["error"] == report["counts"]["total"] > 0
    assert "graded no case: every run errored" in stdout
    assert "no decision (API Error: 529 Overloaded)" in stderr  # each line names its error


def test_on_the_real_cli_each_size_is_listed_and_no_skill_is_a_miss(fake_api, repo, env):
    """The real claude CLI: at each size it lists the catalog and its ballast, installed as real skills,
    in its own listing; a model that picks no skill misses at every size."""
    seen: list[int] = []

    def no_skill(request: RecordedRequest):
        names = listed(request)
        assert "alpha" in names and "beta" in names, names
        seen.append(len(names))
        return NO_SKILL_TEXT

    fake_api.script(CaseRouter({}, default=no_skill))
    code, _, stderr, report = sweep(repo, env, "--no-canary", sizes=SIZES[:2], cases=TWO)
    assert code == 0, stderr
    assert sorted(seen) == [2, 2, 4, 4]  # each case at each size: that many skills listed
    (leg,) = report["agents"]
    assert len(leg["curve"]) == 2
    assert all(point["graded"] == 2 and point["passed"] == 0 for point in leg["curve"])
