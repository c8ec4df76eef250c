"""`skillscope structural`: every offline check of the selected skills; no agent, no tokens."""

from __future__ import annotations

import argparse
import time

from harness import options
from harness.checks import CheckOptions, references
from harness.checks import structural as structural_checks
from harness.commands import refs as refs_command
from harness.context import Context
from harness.model import catalog, findings
from harness.options import parse_list
from harness.report import now, publish
from harness.results import RunMeta, StructuralResult

HELP = "check skill format, datasets, policy files and internal links (offline, free)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.add_skills_dir(parser)
    add_policy(parser)
    refs_command.add_external(parser, default=False)
    options.add_reports(parser)


def add_policy(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skill-files",
        metavar="FILES",
        help="files every skill must ship beside SKILL.md, e.g. skill-card.md",
    )
    parser.add_argument(
        "--skill-sections",
        metavar="TITLES",
        help="`##` headings each markdown --skill-files file must have content under (case-insensitive)",
    )
    parser.add_argument(
        "--docs",
        metavar="GLOBS",
        help="markdown outside the skills (README, docs tree) whose links are checked too",
    )


def check_options(args: argparse.Namespace) -> CheckOptions:
    return CheckOptions(
        skill_files=tuple(parse_list("--skill-files", getattr(args, "skill_files", None))),
        skill_sections=tuple(parse_list("--skill-sections", getattr(args, "skill_sections", None))),
        docs=tuple(parse_list("--docs", getattr(args, "docs", None))),
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    started, clock = now(), time.monotonic()
    check_opts = check_options(args)
    repo = options.resolve_repo(args, ctx)
    with references.scan_ahead(repo) as ahead:  # a large catalog's links are checked while it loads
        loaded = catalog.load(repo)
        found = structural_checks.check(loaded, check_opts, ahead)
        if getattr(args, "external", False):  # the URLs the workers already collected
            found = findings.ordered(
                [*found, *refs_command.external_findings(loaded, check_opts.docs, args, ahead)]
            )
    datasets = [d for name in loaded.skills for d in loaded.datasets.get(name, [])]
    result = StructuralResult(
        meta=RunMeta(
            command="structural",
            repo=str(repo.root),
            globs=repo.globs,
            started_at=started,
            elapsed_s=time.monotonic() - clock,
        ),
        skills=repo.names,
        findings=found,
        datasets=len(datasets),
        cases=sum(len(d.cases) for d in datasets),
    )
    publish(result, ctx, args.output, args.summary)
    return 0 if result.passed else 1
