"""Files a new skills repo starts from: a skill, a caller workflow, the .gitignore line, the settings."""

from __future__ import annotations

import glob
import json
import re
from pathlib import Path

from harness.authoring import home
from harness.errors import UsageError
from harness.files import UnreadableFile, packaged_text, present, read_text
from harness.model import baseline, dataset, quarantine
from harness.writer import make_folder, write_text, writing

MARKDOWN_SUFFIXES = (".md", ".markdown")
NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
WORKFLOW = Path(".github") / "workflows" / "skills.yml"
# Run reports stay out of commits; the baseline, which `skillscope baseline` writes to be committed, and
# the quarantine, which a person writes, stay in. (git cannot re-include a file whose folder is excluded,
# so the folder's contents are.)
IGNORED = (".skillscope/*", "!.skillscope/baseline.json", "!.skillscope/quarantine.json")
WHOLE_FOLDER = frozenset({".skillscope", "/.skillscope", ".skillscope/", "/.skillscope/"})
# Why a setting init noticed is there, written above it in skillscope.toml.
NOTICED_COMMENTS = {
    "skill-files": "# Every skill here ships these files (init found them in each), with these sections.",
    "negatives": "# The repo's shared negatives: prompts no skill should fire on.",
    "routing-room": "# Some skills have no dataset: routing installs them all; those with one add cases.",
}

SKILL_MD = """---
name: {name}
description: Say what this skill does and when to use it, in the words a user would type.
---

# {title}

Write the instructions an agent should follow once this skill is chosen.
"""


def check_name(name: str) -> str:
    if not NAME.match(name):
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "my-skill"
        raise UsageError(f"'{name}' is not lowercase-with-hyphens; try '{slug}'.")
    return name


def new_skill(
    parent: Path, name: str, repo: Path, files: tuple[str, ...] = (), sections: tuple[str, ...] = ()
) -> Path:
    """NAME/SKILL.md and NAME/evals/evals.json from the dataset template, and each of the repo's policy
    `files` (--skill-files) with its `sections`; never over an existing folder, never through a symlink
    of `repo` leading out of it."""
    folder = parent / check_name(name)
    if folder.exists():
        raise UsageError(f"{folder} already exists; pick another name or delete it first.")
    template = json.loads(dataset.template_text())
    for case in template["evaluations"]:
        case["id"] = case["id"].replace("my-skill", name, 1)
    skill_md = SKILL_MD.format(name=name, title=name.replace("-", " ").capitalize())
    with writing(f"the skill {name}", folder, "fix the folder's permissions"):
        make_folder(folder / "evals", repo)
        write_text(folder / "SKILL.md", skill_md, repo)
        write_text(folder / "evals" / "evals.json", json.dumps(template, indent=2) + "\n", repo)
        for wanted in files:
            make_folder((folder / wanted).parent, repo)
            write_text(folder / wanted, policy_file(wanted, sections), repo)
    return folder


def policy_file(wanted: str, sections: tuple[str, ...]) -> str:
    """A file the repo's policy asks of every skill, as a placeholder the template-leftover rule finds:
    a markdown one with each required `##` section, so the new skill keeps to the policy from the start
    and still fails until someone writes it."""
    placeholder = packaged_text("data", "POLICY.template.txt").strip()
    if Path(wanted).suffix.lower() not in MARKDOWN_SUFFIXES:
        return placeholder + "\n"
    return "".join(f"## {title}\n\n{placeholder}\n\n" for title in sections) or placeholder + "\n"


def skills_folder(globs: list[str]) -> str | None:
    """The folder of the first glob `folder/*` the skills live under (a catalog's main one, as init
    writes it first): where `new` creates a skill, else None (other shapes)."""
    if not globs or not globs[0].endswith("/*"):
        return None
    folder = globs[0][:-2].strip("/")
    return folder if folder and not glob.has_magic(folder) else None


def watched_paths(globs: list[str], read: list[str]) -> list[str]:
    """What a change must touch for the workflow to run: the skills' folders, the files the runs `read`
    besides them (settings, shared negatives, baseline, quarantine), and the workflow itself. A change
    to any of them can turn a verdict, so none may go ungraded; everything else leaves the runs as they
    were. Every skill at the root watches everything."""
    folders = [glob.rstrip("/*") or "." for glob in globs]
    if "." in folders:
        return ["**"]
    return list(dict.fromkeys([*(f"{folder}/**" for folder in folders), *read, WORKFLOW.as_posix()]))


def run_inputs(settings_files: tuple[str, ...], named: list[str]) -> list[str]:
    """The files outside the skills every run reads, whether present yet or not: wherever settings may
    live, the committed baseline and quarantine, and each file or glob the settings `named`."""
    return [*settings_files, baseline.DEFAULT.as_posix(), quarantine.DEFAULT.as_posix(), *named]


def caller_workflow(globs: list[str], read: list[str]) -> str:
    """A workflow calling the reusable one at this harness's release tag, for the skills under the globs
    (one a line, as its `skills` input reads them), run by a change to them or to the files it `read`s."""
    reusable = f"{home.repository()}/.github/workflows/reusable.yml@{home.release_tag()}"
    paths = "\n      - ".join(json.dumps(path) for path in watched_paths(globs, read))
    skills = "\n        ".join(globs)
    return f"""# skillscope grades every skill on a pull request: structure, routing and behavior.
# Add the ANTHROPIC_API_KEY secret, then make `evals / results` the required check.
name: skills

on:
  pull_request:
    paths:
      - {paths}
  push:
    branches: [main]
    paths:
      - {paths}
  workflow_dispatch:

permissions:
  contents: read

jobs:
  evals:
    uses: {reusable}
    secrets:
      api_key: ${{{{ secrets.ANTHROPIC_API_KEY }}}}
    with:
      skills: |
        {skills}
      structural: required
      routing: required
      behavioral: optional # reported; a failure is a warning until the skill meets the bar
"""


def ignore_reports(root: Path) -> bool:
    """The run reports ignored in the repo's .gitignore and the baseline kept committable; a line an
    older init wrote that ignores the whole folder is replaced. False when nothing needed changing."""
    gitignore = root / ".gitignore"
    try:
        text = read_text(gitignore) if present(gitignore) else ""
    except UnreadableFile as exc:
        raise UsageError(f"{gitignore} cannot be read: {exc.reason}; fix it, then run again.") from None
    lines = [line for line in text.splitlines() if line.strip() not in WHOLE_FOLDER]
    if all(wanted in (line.strip() for line in lines) for wanted in IGNORED) and len(lines) == len(
        text.splitlines()
    ):
        return False
    kept = [line for line in lines if line.strip() not in IGNORED]
    write_text(gitignore, "".join(f"{line}\n" for line in [*kept, *IGNORED]), root)
    return True


def settings_file(globs: list[str], noticed: dict[str, list[str]] | None = None) -> str:
    """skillscope.toml for the globs, with the settings init noticed the repo already keeps to."""
    lines = [
        "# Read by every skillscope command run in this repo; a flag still wins.",
        f"skills-dir = {json.dumps(globs)}",
    ]
    for key, values in (noticed or {}).items():
        if key in NOTICED_COMMENTS:
            lines.append(NOTICED_COMMENTS[key])
        lines.append(settings_line(key, values))
    return "\n".join(lines) + "\n"


def settings_line(key: str, values: list[str]) -> str:
    """One `key = [...]` line: a JSON array of plain strings is a TOML array as it stands."""
    return f"{key} = {json.dumps(values)}"
