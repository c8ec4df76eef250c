"""The adoption guides stay honest: each walks getting started's steps on a real catalog, is reachable
from getting started, and shows no path of the machine it was recorded on. (That each of their
`skillscope` command lines parses with the real parser is checked for every page in test_docs.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_docs import command_lines

ROOT = Path(__file__).resolve().parent.parent
GUIDES = sorted((ROOT / "docs" / "adoption").glob("*.md"))
# A recording's own paths: its scratch folders, its home, a checkout's absolute path.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:tmp|work|root|home|Users|private|var/folders)/")
# Getting started's steps, each a command line a guide must show as run.
STEPS = {
    "init": re.compile(r"^skillscope init$"),
    "structural": re.compile(r"^skillscope structural$"),
    "refs": re.compile(r"^skillscope refs --no-external"),
    "baseline": re.compile(r"^skillscope baseline$"),
    "lexical routing": re.compile(r"^skillscope routing --engine lexical --routing-room (all|catalog)\b"),
    "agent routing dry run": re.compile(r"^skillscope routing --routing-room \S+ --model \S+ --dry-run$"),
    "agent routing": re.compile(r"^skillscope routing --routing-room \S+ --model \S+ --max-run-usd"),
    "behavioral dry run": re.compile(r"^skillscope behavioral .*--dry-run"),
}


def test_there_are_three_guides():
    assert [g.name for g in GUIDES] == [
        "addyosmani-agent-skills.md",
        "amd-skills.md",
        "anthropics-skills.md",
    ]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_a_guide_walks_every_step_of_getting_started(guide):
    lines = command_lines(guide.read_text(encoding="utf-8"))
    missing = [step for step, pattern in STEPS.items() if not any(pattern.search(line) for line in lines)]
    assert not missing, f"{guide.name} does not show: {missing}"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_a_guide_shows_no_machine_path(guide):
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(guide.read_text(encoding="utf-8").splitlines(), 1)
        if MACHINE_PATH.search(line)
    ]
    assert not found, f"{guide.name} names paths of the machine it was recorded on: {found}"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_a_guide_is_in_the_site_and_linked_from_getting_started(guide):
    page = f"adoption/{guide.name}"
    assert page in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"]({page})" in (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")


def test_the_machine_path_pattern_sees_one():
    """A pattern that matched nothing would pass every guide."""
    assert MACHINE_PATH.search("JSON report: /tmp/x/.skillscope/runs/r.json")
    assert MACHINE_PATH.search("was found at /home/ci/node_modules/.bin/claude")
    assert not MACHINE_PATH.search("JSON report: ~/src/amd-skills/.skillscope/runs/r.json")
    assert not MACHINE_PATH.search("found at /usr/local/bin/claude")
