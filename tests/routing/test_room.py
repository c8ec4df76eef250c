"""resolve_room: listed, all, none, blank, --skill as the room, and every refusal (from the flag's text,
as the commands read it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli.flags import parse_list
from harness.errors import UsageError
from harness.model import repo as repo_mod
from harness.routing.room import left_out_note, resolve_room, widening
from tests.support.select import skill


def make_repo(root: Path, *names: str, bare: tuple[str, ...] = ()) -> repo_mod.Repo:
    for name in names:
        skill(root, f"skills/{name}")
    for name in bare:
        skill(root, f"skills/{name}", evals=None)
    return repo_mod.discover(root, ["skills/*"])


def flag(text: str | None) -> list[str]:
    return parse_list("--routing-room", text)


@pytest.fixture
def three(tmp_path):
    return make_repo(tmp_path, "alpha", "beta", "gamma", bare=("no-data",))


def test_a_listed_room_keeps_its_order_and_drops_repeats(three):
    assert resolve_room(flag("gamma,alpha,gamma"), three) == ["gamma", "alpha"]


def test_a_json_array_is_a_listing_too(three):
    assert resolve_room(flag('["beta", "alpha"]'), three) == ["beta", "alpha"]


def test_all_is_every_skill_with_a_dataset(three):
    assert resolve_room(flag("all"), three) == ["alpha", "beta", "gamma"]
    assert resolve_room(flag(" ALL "), three) == ["alpha", "beta", "gamma"]


def test_none_is_an_empty_room_where_routing_is_optional(three):
    assert resolve_room(flag("none"), three, allow_none=True) == []
    assert resolve_room(flag("None"), three, allow_none=True) == []


def test_none_is_refused_where_a_routing_run_was_asked_for(three):
    with pytest.raises(UsageError, match="--routing-room none` empties the room"):
        resolve_room(flag("none"), three)


def test_blank_in_a_one_skill_repo_is_that_skill(tmp_path):
    only = make_repo(tmp_path, "solo", bare=("helper",))
    assert resolve_room(flag(None), only) == ["solo"]
    assert resolve_room(flag("  "), only, allow_none=True) == ["solo"]


def test_blank_with_several_skills_asks_routing_to_choose(three):
    with pytest.raises(UsageError) as caught:
        resolve_room(flag(""), three, command="routing")
    message = str(caught.value)
    assert "--routing-room a,b" in message and "all" in message
    assert "alpha, beta, gamma" in message and "no-data" not in message


def test_blank_with_several_skills_means_no_routing_where_that_is_allowed(three):
    assert resolve_room(flag(None), three, allow_none=True) == []


def test_blank_with_skill_filter_makes_the_filter_the_room(three):
    assert resolve_room(flag(None), three, ["beta", "alpha"]) == ["beta", "alpha"]


def test_an_explicit_room_wins_over_the_skill_filter(three):
    assert resolve_room(flag("gamma"), three, ["alpha"]) == ["gamma"]


def test_unknown_names_in_the_skill_filter_are_named_under_its_flag(three):
    with pytest.raises(UsageError, match=r"^--skill names nope, which is not a skill"):
        resolve_room(flag(None), three, ["nope"])


def test_unknown_names_are_all_named(three):
    with pytest.raises(UsageError) as caught:
        resolve_room(flag("alpha,zeta,eta"), three)
    message = str(caught.value)
    assert message.startswith("--routing-room names zeta, eta, which are not")
    assert "skills/*" in message and "alpha, beta, gamma" in message


def test_a_skill_without_a_dataset_is_a_member_that_adds_no_case(three):
    assert resolve_room(flag("alpha,no-data"), three) == ["alpha", "no-data"]


def test_a_room_of_only_skills_without_a_dataset_is_refused(three):
    with pytest.raises(UsageError, match=r"names only skills without evals/evals.json \(no-data\)"):
        resolve_room(flag("no-data"), three)


def test_a_name_that_is_no_skill_is_refused_with_the_skills_there_are(three):
    with pytest.raises(UsageError, match="names nosuch, which is not a skill under --skills-dir skills/"):
        resolve_room(flag("alpha,nosuch"), three)


def test_catalog_is_every_skill_under_skills_dir(three):
    assert resolve_room(flag("catalog"), three) == ["alpha", "beta", "gamma", "no-data"]
    assert resolve_room(flag(" Catalog "), three, allow_none=True) == ["alpha", "beta", "gamma", "no-data"]
    with pytest.raises(UsageError, match="`catalog` stands alone"):
        resolve_room(flag("alpha,catalog"), three)


def test_catalog_without_any_dataset_grades_nothing(tmp_path):
    bare = make_repo(tmp_path, bare=("one", "two"))
    with pytest.raises(UsageError, match="none of the 2 skill.s. under --skills-dir skills/\\* has evals"):
        resolve_room(flag("catalog"), bare)
    assert resolve_room(flag("catalog"), bare, allow_none=True) == []


def test_the_summary_names_what_the_room_left_out_trimmed(tmp_path):
    many = make_repo(tmp_path, "alpha", bare=tuple(f"extra-{n:02}" for n in range(12)))
    said = left_out_note(["alpha"], many)
    assert said.startswith("12 of the catalog's 13 skill(s) were left out of the room: extra-00, ")
    assert "extra-07 and 4 more; `--routing-room catalog` installs" in said
    assert left_out_note(many.names, many) == ""


@pytest.mark.parametrize(
    ("given", "fix"),
    [
        ("all", "--routing-room catalog"),
        ("catalog", "--routing-room catalog"),
        (None, "--routing-room catalog"),
        ("gamma,alpha", "--routing-room gamma,alpha,no-data"),
    ],
)
def test_the_one_flag_that_widens_the_room_works(three, given, fix):
    room = resolve_room(flag(given), three, ["alpha"])
    assert widening(flag(given), room, ["no-data"]) == fix
    assert "no-data" in resolve_room(flag(fix.split(" ", 1)[1]), three)


def test_a_keyword_mixed_into_a_list_is_refused(three):
    with pytest.raises(UsageError, match="`all` stands alone"):
        resolve_room(flag("alpha,all"), three)


def test_a_malformed_list_names_the_flag(three):
    with pytest.raises(UsageError, match="^--routing-room: invalid JSON"):
        resolve_room(flag("[alpha"), three)


@pytest.mark.parametrize("raw", [None, "all", "catalog"])
def test_skills_without_a_dataset_are_told_the_cases_are_missing_and_where_to_add_them(tmp_path, raw):
    """Every skill would be in a `catalog` room; what a routing run lacks is a case to rank."""
    bare = make_repo(tmp_path, bare=("helper", "writer"))
    with pytest.raises(UsageError) as raised:
        resolve_room(flag(raw), bare)
    assert str(raised.value) == (
        "`routing` has no case to rank: none of the 2 skill(s) under --skills-dir skills/* has "
        "evals/evals.json; add one: `skillscope template` prints a starting dataset, save it as "
        "skills/helper/evals/evals.json (or any skill's), and fill in its prompts."
    )


@pytest.mark.parametrize("raw", [None, "all", "catalog"])
def test_no_skill_at_all_is_no_skill_to_put_in_the_room(tmp_path, raw):
    with pytest.raises(UsageError, match="no skill to put in the room"):
        resolve_room(flag(raw), make_repo(tmp_path))


def test_no_skill_with_a_dataset_is_an_empty_room_for_select(tmp_path):
    empty = make_repo(tmp_path, bare=("helper",))
    assert resolve_room(flag(None), empty, allow_none=True) == []
    assert resolve_room(flag("all"), empty, allow_none=True) == []
