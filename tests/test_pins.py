"""Every install or pin a user is shown names the project's one home and this version's tag.

YAML and markdown cannot compute them, so this reads the home (pyproject's [project.urls] Source,
through harness.authoring.home) and the version (harness.__version__) once, and checks each `uses:`, `rev:`,
`repo:`, pip and `skillscope_version` line of the workflows, examples, docs, README, action.yml and
what `init` writes and prints. Bumping the version, or moving the home, lists every line to change.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from harness import __version__
from harness.authoring import home
from tests.support.helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
HOME = home.source_url()
REPOSITORY = home.repository()
TAG = home.release_tag()
BINARY_SUFFIXES = {".png", ".jpg", ".svg", ".ico"}  # the docs' pictures: nothing a user copies
SCANNED = [
    *sorted(
        p
        for folder in (".github", "examples", "docs")
        for p in (ROOT / folder).rglob("*")
        # __pycache__: bytecode that importing .github/scripts in another test may leave beside them
        if p.is_file() and p.suffix not in BINARY_SUFFIXES and "__pycache__" not in p.parts
    ),
    *(ROOT / name for name in ("README.md", "CHANGELOG.md", "action.yml", ".pre-commit-hooks.yaml")),
]

USES = re.compile(r"\buses:\s*['\"]?(?P<target>[^\s'\"#`)]+)")
REPO = re.compile(r"\brepo:\s*['\"]?(?P<url>[^\s'\"#]+)")
REV = re.compile(r"\brev:\s*['\"]?(?P<ref>[^\s'\"#]+)")
PIP = re.compile(r"\bpip3?\s+(?:install|wheel|download)\b(?P<args>.*)")
OURS = re.compile(r"(?<![\w-])skillscope-harness(?![\w-])(?P<pin>\s*==\s*[^\s'\"]+|\s*@\s*git\+[^\s'\"]+)?")
OTHER_PROJECT = re.compile(r"(?<![\w./-])skillscope(?:==\S*)?(?![\w-])")
GIT_URL = re.compile(r"git\+(?P<url>[^\s'\"]+)@(?P<ref>[^\s'\"@]+)")  # the ref after the last @
DATASET_PIN = re.compile(r"\"skillscope_version\"\s*:\s*\"(?P<ref>[^\"]+)\"")
VERSION_INPUT = re.compile(r"^\s*#?\s*version:\s*['\"]?(?P<ref>v?\d[^\s'\"#]*)")
VERSION_LIKE = re.compile(r"^v?\d+(\.\d+)+")


def same_home(url: str) -> bool:
    return url.removesuffix("/").removesuffix(".git") == HOME


def is_ours(text: str) -> bool:
    """Does a reference name skillscope at all (any home), so it must name ours?"""
    return "skillscope" in text.lower()


def problems(lines: list[str], where: str) -> list[str]:
    """`where:line: what is wrong` for every pin in `lines` that names another home or version."""
    found: list[str] = []
    pre_commit_repo_is_ours = False

    def wrong(number: int, text: str) -> None:
        found.append(f"{where}:{number}: {text}")

    for number, line in enumerate(lines, 1):
        uses = USES.search(line)
        if uses and not uses["target"].startswith(("./", "docker://")):
            path, _, ref = uses["target"].partition("@")
            repository = "/".join(path.split("/")[:2])
            if repository == REPOSITORY:
                if ref != TAG:
                    wrong(number, f"`uses: {uses['target']}` pins {ref or 'nothing'}; pin @{TAG}")
            elif is_ours(path) or re.search(r"/\.github/workflows/(reusable|skill-evals)\.ya?ml$", path):
                wrong(number, f"`uses: {uses['target']}` names another home; use {REPOSITORY}")
        repo = REPO.search(line)
        if repo:
            pre_commit_repo_is_ours = same_home(repo["url"])
            if is_ours(repo["url"]) and not pre_commit_repo_is_ours:
                wrong(number, f"`repo: {repo['url']}` names another home; use {HOME}")
        rev = REV.search(line)
        if rev and pre_commit_repo_is_ours and rev["ref"] != TAG:
            wrong(number, f"`rev: {rev['ref']}` under this project's repo; pin {TAG}")
        for segment in re.split(r"&&|;|\||`", line):
            pip = PIP.search(segment)
            if pip:
                found.extend(f"{where}:{number}: {text}" for text in pip_problems(pip["args"]))
        for match in (DATASET_PIN.search(line), VERSION_INPUT.search(line)):
            ref = match["ref"] if match else ""
            if VERSION_LIKE.match(ref) and ref not in (TAG, __version__):
                wrong(number, f"pins the harness at {ref}; this version is {TAG}")
    return found


def pip_problems(args: str) -> list[str]:
    """What is wrong with one pip command's arguments, as far as skillscope is concerned."""
    out = []
    for ours in OURS.finditer(args):
        pin = re.sub(r"\s+", "", ours["pin"] or "")
        if not pin:
            out.append(f"installs skillscope-harness unpinned; pin skillscope-harness=={__version__}")
        elif pin.startswith("==") and pin[2:] != __version__:
            out.append(f"installs skillscope-harness{pin}; this version is {__version__}")
    for git in GIT_URL.finditer(args):
        if not (is_ours(git["url"]) or OURS.search(args)):
            continue
        if not same_home(git["url"]):
            out.append(f"installs from {git['url']}, another home; use {HOME}")
        if VERSION_LIKE.match(git["ref"]) and git["ref"] != TAG:
            out.append(f"installs the tag {git['ref']}; this version's tag is {TAG}")
    if OTHER_PROJECT.search(OURS.sub("", GIT_URL.sub("", args))):
        out.append("installs `skillscope`, an unrelated project on the package index; use skillscope-harness")
    return out


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_pin_names_the_home_and_this_version(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert problems(lines, path.relative_to(ROOT).as_posix()) == []


def test_what_init_writes_and_prints_names_the_home_and_this_version(tmp_path):
    fresh = run_cli(["init"], cwd=tmp_path)
    workflow = (tmp_path / ".github" / "workflows" / "skills.yml").read_text(encoding="utf-8")
    beside = Path(
        shutil.copytree(ROOT / "tests" / "commands" / "catalogs" / "own-workflow", tmp_path / "own")
    )
    told = run_cli(["init"], cwd=beside)  # the run that names the reusable workflow to call instead
    assert f"uses: {REPOSITORY}/.github/workflows/reusable.yml@{TAG}" in workflow
    assert f"`uses: {REPOSITORY}/.github/workflows/reusable.yml@{TAG}`" in told.stdout
    for where, text in (("skills.yml", workflow), ("stdout", fresh.stdout), ("stdout", told.stdout)):
        assert problems(text.splitlines(), where) == []


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("    uses: someone/skillscope/.github/workflows/reusable.yml@v0.1.0", "another home"),
        (f"    uses: {REPOSITORY}@v0.0.1", f"pin @{TAG}"),
        (f"    uses: {REPOSITORY}/.github/workflows/skill-evals.yml@main", f"pin @{TAG}"),
        ("  - repo: https://github.com/someone/skillscope", "another home"),
        ("pip install skillscope-harness", "unpinned"),
        ("python -m pip install 'skillscope-harness==0.0.1'", "this version is"),
        ('pip install "skillscope-harness @ git+https://github.com/x/skillscope@v0.1.0"', "another home"),
        (f'pip install "skillscope-harness @ git+{HOME}@v0.0.1"', "this version's tag"),
        ("pip install skillscope", "unrelated project"),
        ('  "skillscope_version": "v0.0.1",', "this version is"),
        ("      # version: v0.0.1  # pin the harness", "this version is"),
    ],
)
def test_a_stale_or_foreign_pin_is_named(line, complaint):
    (problem,) = problems([line], "doc.md")
    assert problem.startswith("doc.md:1: ") and complaint in problem


@pytest.mark.parametrize(
    "line",
    [
        f"    uses: {REPOSITORY}/.github/workflows/reusable.yml@{TAG}",
        "      - uses: actions/checkout@v6",
        "      - uses: ./",
        f'pip install "skillscope-harness @ git+{HOME}@main"',
        f"pip install skillscope-harness=={__version__}",
        "pip install -r requirements.txt . && skillscope structural --skills-dir 'skills/*'",
        "pip install pandas fails on my laptop",
        f'  "skillscope_version": "{TAG}",',
    ],
)
def test_a_pin_of_the_home_at_this_version_or_another_projects_is_left_alone(line):
    assert problems([line], "doc.md") == []


def test_a_pre_commit_rev_counts_only_under_this_projects_repo():
    lines = ["  - repo: https://github.com/astral-sh/ruff-pre-commit", "    rev: v0.6.0"]
    assert problems(lines, "doc.md") == []
    lines = [f"  - repo: {HOME}", "    rev: v0.0.1"]
    assert problems(lines, "doc.md") == [f"doc.md:2: `rev: v0.0.1` under this project's repo; pin {TAG}"]


def test_the_scan_sees_the_pins_users_copy():
    """A pattern that matched nothing would pass every file: count what it finds where it must."""
    text = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in SCANNED}
    home_uses = [
        m for body in text.values() for m in USES.finditer(body) if m["target"].startswith(REPOSITORY)
    ]
    assert len(home_uses) >= 20
    for doc in ("README.md", "docs/usage.md"):
        pins = [m for m in PIP.finditer(text[doc]) if OURS.search(m["args"])]
        assert any("==" in m["args"] for m in pins) and any("git+" in m["args"] for m in pins), doc
    assert REPO.search(text["docs/ci-reference.md"])["url"] == HOME
    assert DATASET_PIN.search(text["docs/authoring-evals.md"])
