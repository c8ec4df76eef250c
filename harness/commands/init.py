"""`skillscope init`: adopt skillscope in a skills repo (workflow, .gitignore, settings, a first skill),
fitted to what the repo already has."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from harness.authoring import advice, home, scaffold
from harness.authoring.survey import Survey, defined_runner_types, survey
from harness.cli import flags, settings
from harness.context import Context
from harness.errors import HarnessError, UsageError
from harness.files import UnreadableFile, read_text
from harness.model.repo import discover, find_root, skills_below
from harness.writer import Refused, cannot, destination, write_text, writing

# The settings that name a file or glob of the repo a run reads: a change there can turn a verdict.
FILE_SETTINGS = ("negatives", "baseline", "usage", "docs")

HELP = (
    "write a CI workflow (unless one runs evals already), the .gitignore entry and the settings "
    "the skills keep to, and (with --skill) a first skill"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skills-dir",
        metavar="GLOBS",
        help="where the skills live, comma-separated, written to the workflow and skillscope.toml "
        "(default: every glob whose folders hold skills, as structural names them; else skills/*)",
    )
    parser.add_argument("--skill", metavar="NAME", help="also create a first skill of this name there")
    parser.add_argument(
        "--force",
        action="store_true",
        help="overwrite an existing .github/workflows/skills.yml, or write it beside a workflow that "
        "already runs skill evals",
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    root = find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    globs = given_globs(args.skills_dir) if args.skills_dir is not None else holding_globs(ctx, root)
    glob = ", ".join(globs)  # as the lines below name them
    refuse_links_out(root)
    current = settings.load(root)
    found = survey(
        root, globs, scaffold.WORKFLOW.as_posix(), defined_runner_types(current.values.get("runner-types"))
    )
    text = scaffold.caller_workflow(globs, read_by_runs(current, found))
    workflow = root / scaffold.WORKFLOW
    ours = holds(workflow, text)
    if workflow.exists() and not ours and not args.force:
        raise UsageError(
            f"{workflow} already exists and is not the workflow init writes for {glob}; "
            "delete it or pass --force to replace it."
        )
    wrote_workflow = write_workflow(ctx, root, globs, text, found, args.force, ours)
    if ignore_reports(root):
        ctx.out(
            f"added {' and '.join(scaffold.IGNORED)} to .gitignore: run reports stay out of commits, "
            "the baseline and the quarantine can be committed"
        )
    write_settings(ctx, root, globs, found, current)
    for line in advice.runner_types(found, settings_name(root, current)):
        ctx.out(line)
    for other in found.foreign:
        ctx.out(f"found {other.path}, {other.tool}: {other.advice}")
    if args.skill:
        parent = root / Path(globs[0]).parent
        folder = scaffold.new_skill(parent, args.skill, root)
        ctx.out(f"created {folder.relative_to(root)}: replace its placeholder text and prompts")
        found.skills.append(folder.relative_to(root).as_posix())
    ctx.out("next:")
    for line in advice.next_steps(found, globs, wrote_workflow):
        ctx.out(line)
    return 0


def given_globs(raw: str) -> list[str]:
    """--skills-dir (or the settings' skills-dir) as globs, each without a trailing slash."""
    return [glob.strip("/") or "*" for glob in flags.parse_list("--skills-dir", raw)] or ["*"]


def holding_globs(ctx: Context, root: Path) -> list[str]:
    """Without --skills-dir: the globs discovery's own advice names, every folder whose subfolders hold
    skills (skills/*, staging/*), so no skill a catalog keeps elsewhere is left out of the settings
    unseen; the root's folders when only they hold skills; skills/* when the repo has none yet. A skill
    folder at the root beside such folders (a template) is left out, and said so."""
    here = sorted(discover(root, ["*"]).skill_dirs)
    below = skills_below(root, ["*"])
    if not below:
        return ["*"] if here else ["skills/*"]
    counted = ", ".join(f"{glob} holds {n}" for glob, n in below.items())
    if len(below) > 1:
        ctx.out(f"found skills in more than one folder ({counted}): init names each in skills-dir")
    if here:
        ctx.out(
            f"left out {', '.join(here)}, a skill folder at the root beside the folders holding skills; "
            "add '*' to skills-dir to grade it too"
        )
    return list(below)


def holds(path: Path, text: str) -> bool:
    """Whether `path` is a file holding exactly `text`: one init wrote and nobody changed since."""
    try:
        return path.is_file() and read_text(path) == text
    except (OSError, UnreadableFile):
        return False


def read_by_runs(current: settings.Settings, found: Survey) -> list[str]:
    """The files outside the skills the workflow's runs read: the settings files, the baseline and
    quarantine, and the files the settings name, as they stand or once the lines init suggests are in;
    the settings file init writes takes them from the same survey, so the two cannot disagree."""
    values = {**found.noticed(), **current.values}
    named = [path for key in FILE_SETTINGS for path in named_by(key, values.get(key))]
    return scaffold.run_inputs((settings.OWN_FILE, settings.PYPROJECT), named)


def named_by(key: str, value: object) -> list[str]:
    """The paths a settings value names, in any shape its flag takes; none for a value no command
    would take either (each command says what is wrong with it)."""
    if not isinstance(value, (str, list)) or not all(isinstance(item, str) for item in value):
        return []
    try:
        return flags.parse_list(f"--{key}", value)
    except UsageError:
        return []


def write_workflow(
    ctx: Context, root: Path, globs: list[str], text: str, found: Survey, force: bool, ours: bool
) -> bool:
    """skills.yml (`text`), unless another workflow already grades the skills: then say so and leave CI
    alone. True when skills.yml is in place (written now, or by an earlier init and unchanged: `ours`)."""
    glob = ", ".join(globs)
    for other in found.workflows:
        does = "checks skill evals" if other.checks_only else "runs skill evals"
        ctx.out(f"found {other.path}:{other.line}, which already {does}: {other.command}")
    if ours:  # a second init: nothing to write, and another eval workflow was already named above
        ctx.out(f"{scaffold.WORKFLOW} is already set up: it is the workflow init writes for {glob}")
        say_pin(ctx)
        return True
    if found.workflows and not force:
        reusable = f"{home.repository()}/.github/workflows/reusable.yml@{home.release_tag()}"
        ctx.out(
            f"so no second workflow was written: to grade with skillscope there, call `uses: {reusable}` "
            f"from it, or pass --force to add {scaffold.WORKFLOW.as_posix()} beside it"
        )
        say_pin(ctx, "that `uses:` line")
        return False
    workflow = root / scaffold.WORKFLOW
    written(workflow, text, root, "the workflow")
    ctx.out(f"wrote {scaffold.WORKFLOW}: the reusable workflow grades {glob} on every pull request")
    say_pin(ctx)
    return True


def say_pin(ctx: Context, pinned: str = "the workflow") -> None:
    """The `uses:` pin is the installed version's release tag, which CI cannot resolve before that release is
    tagged: the first CI run of a freshly adopted repo would fail without a word of why. `pinned`: what
    holds the pin, the workflow init wrote or, when it wrote none, the line it suggested."""
    tag = home.release_tag()
    ctx.out(
        f"note: {pinned} is pinned to @{tag}, the release tag of this skillscope; until {tag} is "
        f"published, GitHub cannot resolve it: pin a commit id of {home.repository()} there instead"
    )


def refuse_links_out(root: Path) -> None:
    """Before anything is written: none of the files init may write lies behind a symlink leading out of
    the repo (a half-done init would then refuse to run again over its own workflow)."""
    for what, rel in (
        ("the workflow", scaffold.WORKFLOW),
        ("the .gitignore", Path(".gitignore")),
        ("the settings", Path(settings.OWN_FILE)),
    ):
        try:
            destination(root / rel, root)
        except Refused as exc:
            raise HarnessError(cannot(what, root / rel, exc, "")) from None
        except OSError:
            pass  # a link loop: the write itself says so


def written(path: Path, text: str, root: Path, what: str) -> None:
    """`path` written through the one writer: a symlink the repo holds never carries it out of the repo."""
    with writing(what, path, "fix the folder's permissions"):
        write_text(path, text, root)


def ignore_reports(root: Path) -> bool:
    with writing("the .gitignore", root / ".gitignore", "fix its permissions"):
        return scaffold.ignore_reports(root)


def write_settings(
    ctx: Context, root: Path, globs: list[str], found: Survey, current: settings.Settings
) -> None:
    """skillscope.toml with what the skills already keep to; with settings already there, the lines to
    add to them (and the flags that say the same)."""
    glob = ", ".join(globs)
    noticed = found.noticed()
    if current.path == root / settings.OWN_FILE and holds(
        current.path, scaffold.settings_file(globs, noticed)
    ):
        ctx.out(f"{settings.OWN_FILE} is already set up: it is the settings file init writes for {glob}")
    if current.path is None:
        written(root / settings.OWN_FILE, scaffold.settings_file(globs, noticed), root, "the settings")
        ctx.out(f"wrote {settings.OWN_FILE}: skillscope commands here look at {glob}")
        if noticed:
            ctx.out("  and keep to what this repo's skills already do:")
    noticed = {key: values for key, values in noticed.items() if key not in current.values}
    if current.path is not None and noticed:
        ctx.out(f"{settings_name(root, current)} is kept as it is; add what this repo's skills already do:")
    reasons = found.why_noticed()
    for key, values in noticed.items():
        ctx.out(f"  {scaffold.settings_line(key, values)}  ({reasons[key]})")
    if current.path is not None and noticed:
        flags = " ".join(f"--{key} {shlex.quote(','.join(values))}" for key, values in noticed.items())
        ctx.out(f"  or pass {flags}")
    for path in found.bare_negatives:
        ctx.out(
            f"found {path}, a JSON list of cases no skill should fire on; --negatives reads the dataset "
            f'shape, so wrap the list as {{"evaluations": [...]}}, then set negatives = ["{path}"]'
        )


def settings_name(root: Path, current: settings.Settings) -> str:
    """The settings file as a user would find it: root-relative, with its table in pyproject.toml."""
    if current.path is None:
        return settings.OWN_FILE
    where = current.path.relative_to(root).as_posix()
    return f"{where} [tool.skillscope]" if current.path.name == settings.PYPROJECT else where
