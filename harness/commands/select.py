"""`skillscope select`: the CI plan for a change, as one line of JSON a workflow matrix consumes."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from harness import __version__
from harness.cli import collector, flags, resolve, settings
from harness.cli.flags import parse_list
from harness.cli.resolve import agents_of
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import HarnessError, UsageError
from harness.model import quarantine
from harness.model.envelope import RunMeta
from harness.paid.legs import model_entries
from harness.report import select as select_report
from harness.routing.room import HELP as ROOM_HELP
from harness.routing.room import resolve_room
from harness.select import gitdiff, plan, policy, runners
from harness.select import selection as select_mod
from harness.select.result import SelectResult

HELP = "print the CI plan for a change (routing on or off, behavioral legs and runners) as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    change = parser.add_mutually_exclusive_group(required=True)
    change.add_argument(
        "--changed",
        action="store_true",
        help="plan for the root-relative paths on stdin, one per line (git diff --name-only)",
    )
    change.add_argument("--all", action="store_true", help="plan every skill with a dataset")
    change.add_argument("--names", metavar="SKILLS", help="plan these skills (JSON array or comma list)")
    change.add_argument(
        "--since",
        nargs=2,
        metavar=("BASE", "HEAD"),
        help="plan for what HEAD changed since its merge base with BASE (needs git history)",
    )
    flags.add_skills_dir(parser)
    parser.add_argument(
        "--routing-room",
        metavar="SKILLS",
        help=f"{ROOM_HELP}, or none (default: the only skill with a dataset; with several, no routing)",
    )
    parser.add_argument(
        "--infra-paths",
        metavar="GLOBS",
        help="paths whose change re-runs every skill and routing, such as your workflow file "
        f"(the settings file, {settings.OWN_FILE}, always does)",
    )
    parser.add_argument(
        "--negatives",
        action="append",
        metavar="PATH",
        help="the repo's shared negatives files routing pools with every room's cases (repeatable; "
        "root-relative): a change to one plans routing",
    )
    parser.add_argument("--labels", metavar="LABELS", help="the pull request's labels, which open gates")
    parser.add_argument(
        "--ignore-gates", action="store_true", help="run gated legs without their label (a manual dispatch)"
    )
    parser.add_argument(
        "--extended",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="count evals/extended_evals.json as a routing input and a behavioral source; "
        "must match what the graders get (default: on)",
    )
    parser.add_argument(
        "--behavior-runner",
        metavar="LABELS",
        help='runs-on labels for a behavioral leg (default: ["ubuntu-latest"])',
    )
    parser.add_argument(
        "--hosted-images",
        metavar="IMAGES",
        help="the GitHub-hosted image a hosted leg gets per platform, as PLATFORM=LABEL pairs or JSON "
        "(default: Linux=ubuntu-latest,Windows=windows-latest,macOS=macos-latest)",
    )
    parser.add_argument(
        "--behavior-os",
        metavar="PLATFORMS",
        help="platforms a skill runs on when its machine.yml does not say (default: Linux)",
    )
    parser.add_argument(
        "--scoped-runner",
        metavar="LABELS",
        help="base labels for a leg whose skill asks for hardware labels (default: --behavior-runner)",
    )
    parser.add_argument(
        "--scoped-gate", metavar="LABEL", help="pull request label required before those legs run"
    )
    parser.add_argument(
        "--scoped-environment", metavar="NAME", help="GitHub environment holding those legs' credentials"
    )
    parser.add_argument(
        "--runner-types",
        metavar="JSON",
        help='kinds of machine a machine.yml may name in runner_type, as JSON: {"name": '
        '{"labels": [...], "os": [...], "gate": "...", "environment": "..."}}',
    )
    parser.add_argument(
        "--agents",
        metavar="AGENTS",
        help="agent CLIs to plan for: routing runs on each, and a skill gets a behavioral leg per agent "
        "unless its machine.yml lists `agents` (default: claude)",
    )
    parser.add_argument(
        "--models",
        metavar="MODELS",
        help="models to plan for, as --model takes them (id, or agent=id for one agent): routing runs "
        "every agent on each, and each behavioral leg is split per model; a pull request can plan the "
        "cheap model and a schedule the full grid (default: each agent CLI's own)",
    )
    parser.add_argument(
        "--version",
        metavar="REF",
        help="harness build echoed into the plan, overridden per leg by a skill's "
        "skillscope_version (default: $SKILLSCOPE_VERSION, else this build)",
    )


def plan_options(args: argparse.Namespace, ctx: Context) -> policy.PlanOptions:
    behavior_runner = tuple(parse_list("--behavior-runner", args.behavior_runner)) or policy.DEFAULT_RUNNER
    return policy.PlanOptions(
        extended=args.extended,
        version=(args.version or ctx.environ.get("SKILLSCOPE_VERSION") or __version__).strip(),
        infra_paths=tuple(parse_list("--infra-paths", args.infra_paths)),
        negatives=resolve.negatives_from(args).files,
        labels=tuple(parse_list("--labels", args.labels)),
        ignore_gates=args.ignore_gates,
        behavior_runner=behavior_runner,
        behavior_os=tuple(parse_list("--behavior-os", args.behavior_os)) or policy.DEFAULT_OS,
        scoped_runner=tuple(parse_list("--scoped-runner", args.scoped_runner)),
        scoped_gate=_single("--scoped-gate", args.scoped_gate),
        scoped_environment=_single("--scoped-environment", args.scoped_environment),
        runner_types=policy.parse_runner_types(args.runner_types),
        hosted_images=runners.parse_hosted_images(args.hosted_images),
        agents=tuple(agents_of(args, "--agents")),
        models=tuple(model_entries("--models", parse_list("--models", args.models), flags.AGENTS)),
    )


def _single(flag: str, value: str | None) -> str | None:
    """A one-label flag; blank (an unset workflow input) means none."""
    value = (value or "").strip()
    if "," in value or value.startswith("["):
        raise UsageError(f"{flag} takes one label, got '{value}'; pass a single name.")
    return value or None


bounded = collector.always  # its work ends with the repo it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    clock = Deadline(0)
    opts = plan_options(args, ctx)
    repo = resolve.resolve_repo(args, ctx)
    if not repo.skill_dirs:
        # A plan of nothing would pass every time and hide a wrong --skills-dir forever.
        raise HarnessError(
            f"no skill found: no directory matched by --skills-dir {','.join(repo.globs)} "
            f"under {repo.root} holds a SKILL.md; {repo.where_to_look()}."
        )
    named = parse_list("--routing-room", args.routing_room)
    room = resolve_room(named, repo, allow_none=True, command="select")
    paths: list[str] | None = None
    if args.all:
        selection = select_mod.select_all(repo, room)
    elif args.names is not None:
        names = parse_list("--names", args.names)
        if not names:
            raise UsageError("--names is empty; name at least one skill, or use --all.")
        selection = select_mod.select_names(names, repo, room)
    else:
        paths, base = _changed_paths(args, repo.root, ctx)
        opts = dataclasses.replace(opts, settings_files=_settings_files(repo.root, paths, base))
        selection = select_mod.select_changed(paths, repo, room, opts, named)
        if selection.infra:
            ctx.err(
                f"note: {', '.join(selection.infra)} changed (settings or --infra-paths), which can turn "
                "any skill's verdict: planning every skill with a dataset"
                + (", and routing." if selection.routing else ".")
            )
    if not room and not named and select_mod.routes_with_every_dataset(selection, paths, repo, opts):
        # stderr, as stdout is the plan: a description edit is not left ungraded unnoticed
        ctx.err(
            f"note: routing is off in this plan: {len(repo.with_dataset())} skills have a dataset and no "
            "--routing-room names a room; pass --routing-room all (or catalog), or set routing-room in "
            "skillscope.toml, to plan a routing run when a description or dataset changes."
        )
    made = plan.make_plan(selection, repo, opts)
    result = SelectResult(RunMeta.of("select", repo, clock), made, list(selection.skills))
    ctx.out(select_report.line(result.to_json()))  # the one line on stdout: a workflow reads it whole
    return 0


def _settings_files(root: Path, paths: list[str], base: str | None) -> tuple[str, ...]:
    """The settings every command reads, as infra paths: skillscope.toml and the quarantine always;
    pyproject.toml when it holds [tool.skillscope] on disk, or held it at `base` (--since)."""
    files = [settings.OWN_FILE, quarantine.DEFAULT.as_posix()]
    if settings.PYPROJECT in paths:
        base_text = None if base is None else gitdiff.text_at(root, base, settings.PYPROJECT)
        if settings.pyproject_holds_settings(root, base_text):
            files.append(settings.PYPROJECT)
    return tuple(files)


def _changed_paths(args: argparse.Namespace, root: Path, ctx: Context) -> tuple[list[str], str | None]:
    """The changed paths, and the commit --since diffed them from (None for --changed)."""
    if args.changed:
        return select_mod.normalise_paths(ctx.stdin), None
    base, head = args.since
    diff = gitdiff.changed_since(root, base, head)
    if not diff.merge_base:
        ctx.err(
            f"note: {base} and {head} have no merge base (unrelated histories); planning the plain "
            "diff between the two commits."
        )
    paths = select_mod.normalise_paths(diff.paths)
    ctx.err("Changed files:")
    ctx.err("\n".join(f"  {path}" for path in paths) if paths else "  (none)")
    return paths, diff.base
