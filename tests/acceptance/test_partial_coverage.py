"""Acceptance: a catalog with partial coverage (catalog/partial-coverage: five skills, one dataset), as a
maintainer adopting the harness meets it. `init` writes a room of the whole catalog; a room of the skills
with a dataset says what it left out and names the one flag that fixes each case it could not grade, and
that flag works; a lexical collision is reported and routes all the same.

Then every remedy any message suggests, over this catalog and the structural scenarios, is run, or read
by the real parser (and, for --warn, the option resolution): no message may suggest a command that fails."""

from __future__ import annotations

import argparse
import functools
import re
import shlex
import shutil
from pathlib import Path

import pytest

from harness import cli
from harness.cli import resolve
from harness.errors import UsageError
from tests.support.helpers import run_cli

HERE = Path(__file__).parent
CATALOG = HERE / "catalog" / "partial-coverage"
LEXICAL = ["routing", "--engine", "lexical", "--skills-dir", "skills/*"]


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return shutil.copytree(CATALOG, tmp_path / "partial-coverage")


def run(root: Path, *args: str):
    return run_cli([*args, "--repo", str(root)], cwd=root)


def test_init_writes_a_room_of_the_whole_catalog_and_it_routes(catalog: Path):
    made = run(catalog, "init")
    assert made.code == 0, made.stderr
    assert 'routing-room = ["catalog"]' in (catalog / "skillscope.toml").read_text(encoding="utf-8")
    assert "--routing-room catalog" in made.stdout and "1 of the 5 skills have a dataset" in made.stdout
    routed = run(catalog, "routing", "--engine", "lexical")  # the room from skillscope.toml
    assert routed.code == 0, routed.stderr
    assert "5 case(s) ranked lexically against 5 skill(s)" in routed.stderr
    assert "left out of the room" not in routed.stderr


def test_a_room_of_the_dataset_skills_names_the_one_flag_and_the_flag_works(catalog: Path):
    narrow = run(catalog, *LEXICAL, "--routing-room", "all", "--min-accuracy", "0")
    assert narrow.code == 0, narrow.stderr
    said = "4 of the catalog's 5 skill(s) were left out of the room: docx, pptx, spreadsheet-tools, xlsx"
    assert said in narrow.stdout  # the line under the summary, and nowhere else: one sentence once
    assert (narrow.stdout + narrow.stderr).count("left out of the room") == 1
    near = next(line for line in narrow.stdout.splitlines() if "`pdf-near-deck`" in line)
    assert "`pptx`, outside the room, ranks first over the whole catalog; `--routing-room catalog`" in near
    owned = next(line for line in narrow.stdout.splitlines() if "`pdf-owner-docx`" in line)
    assert "docx is not in the room" in owned and "`--routing-room catalog` puts it in" in owned
    fixed = run(catalog, *LEXICAL, "--routing-room", "catalog")
    assert fixed.code == 0, fixed.stdout + fixed.stderr
    assert "5/5 correct" in fixed.stdout


def test_a_named_room_is_grown_by_the_owner_it_lacks(catalog: Path):
    named = run(catalog, *LEXICAL, "--routing-room", "pdf,pptx", "--min-accuracy", "0")
    owned = next(line for line in named.stdout.splitlines() if "`pdf-owner-docx`" in line)
    assert "`--routing-room pdf,pptx,docx` puts it in" in owned
    grown = run(catalog, *LEXICAL, "--routing-room", "pdf,pptx,docx", "--only", "pdf-owner-docx")
    assert grown.code == 0, grown.stdout + grown.stderr


def test_a_member_without_a_dataset_may_be_named_but_a_room_of_only_such_grades_nothing(catalog: Path):
    refused = run(catalog, *LEXICAL, "--routing-room", "docx,pptx")
    assert refused.code == 2
    assert "names only skills without evals/evals.json (docx, pptx)" in refused.stderr
    unknown = run(catalog, *LEXICAL, "--routing-room", "pdf,nosuch")
    assert unknown.code == 2 and "nosuch, which is not a skill under --skills-dir" in unknown.stderr


def test_a_lexical_collision_is_reported_and_never_blocks_the_run(catalog: Path):
    checked = run(catalog, "structural", "--skills-dir", "skills/*", "--warn", "dataset-missing")
    assert checked.code == 1 and "description-collision" in checked.stdout  # structural: an error
    routed = run(catalog, *LEXICAL, "--routing-room", "catalog")
    assert routed.code == 0
    assert "warning: skills/spreadsheet-tools/SKILL.md:3: description-collision" in routed.stderr


# --- every remedy a message suggests works ----------------------------------------------------------

WARN = re.compile(r"`?--warn ([a-z0-9][a-z0-9,-]*)`?")
ROOM = re.compile(r"`(--routing-room [^`]+)`")
COMMAND = re.compile(r"`(skillscope [^`]+)`")


def scenarios() -> list[tuple[Path, list[str]]]:
    """(a repo, the structural arguments it is checked with): this catalog and the structural corpus."""
    import json

    out = [
        (CATALOG, ["--skills-dir", "skills/*"]),
        (HERE / "catalog" / "amd-like", ["--skills-dir", "skills/*"]),
    ]
    for folder in sorted((HERE / "structural").iterdir()):
        expected = folder / "expected.json"
        if expected.is_file():
            data = json.loads(expected.read_text(encoding="utf-8"))
            if not data.get("rename"):
                out.append((folder, data["args"]))
    return out


def refused(ran, flag: str) -> bool:
    """A usage error about the flag itself (another usage error, such as nothing left to grade once a
    broken dataset is demoted, is the run's answer, not a refusal of the remedy)."""
    return ran.code == 2 and flag in ran.stderr


def remedies(text: str) -> tuple[set[str], set[str], set[str]]:
    return set(WARN.findall(text)), set(ROOM.findall(text)), set(COMMAND.findall(text))


@functools.cache
def full_parser() -> argparse.ArgumentParser:
    """The whole CLI's parser, built once: every remedy is read by it."""
    return cli.build_parser()


def warn_accepted(root: Path, command: list[str], rules: str) -> None:
    """`--warn rules` added to `command` is accepted: argparse reads it and the option resolution both
    commands run (the rule list, each rule known and adoptable) takes it, so a rerun would not refuse it.
    The rerun itself is not needed: --warn changes a finding's severity, never whether the run starts."""
    args = full_parser().parse_args([*command, "--warn", rules, "--repo", str(root)])
    resolve.adoption(args, root, root)  # raises the UsageError a refused --warn is


def remedies_tried(source: Path, args: list[str], tmp_path: Path) -> set[str]:
    """Runs both commands on a copy of `source`, tries every remedy their messages suggest, and says
    which kinds there were."""
    root = shutil.copytree(source, tmp_path / source.name)
    tried = set()
    commands = [
        ["structural", *args],
        [*LEXICAL[:3], *args, "--routing-room", "all", "--min-accuracy", "0"],
    ]
    for command in commands:
        said = run(root, *command)
        warns, rooms, suggested = remedies(said.stdout + said.stderr)
        for rules in warns:
            try:
                warn_accepted(root, command, rules)
            except SystemExit:
                pytest.fail(f"{source.name}: --warn {rules} is not an argument skillscope accepts")
            except UsageError as exc:  # as `refused`: another usage error is not the remedy's
                assert "--warn" not in str(exc), (source.name, rules, str(exc))
            tried.add("warn")
        for room in rooms:
            again = run(root, *command[:-4], *shlex.split(room), "--min-accuracy", "0")
            assert not refused(again, "--routing-room"), (source.name, room, again.stderr)
            tried.add("room")
        for line in suggested:
            words = shlex.split(line)[1:]
            try:
                full_parser().parse_args(words)
            except SystemExit:
                pytest.fail(f"{source.name}: `{line}` is not a command skillscope accepts")
            tried.add("command")
    return tried


# One case per scenario, so the runs spread over the test workers.
@pytest.mark.parametrize(
    ("source", "args"), [pytest.param(source, args, id=source.name) for source, args in scenarios()]
)
def test_every_remedy_the_messages_suggest_is_accepted(source: Path, args: list[str], tmp_path: Path):
    remedies_tried(source, args, tmp_path)


def test_the_corpus_suggests_each_kind_of_remedy(tmp_path: Path):
    """The cases above are not vacuous: this catalog's messages suggest a --warn, a room and a command."""
    assert remedies_tried(CATALOG, ["--skills-dir", "skills/*"], tmp_path) == {"warn", "room", "command"}
