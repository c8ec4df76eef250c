"""`skillscope structural`: every offline check of the selected skills; no agent, no tokens."""

from __future__ import annotations

import argparse
from functools import partial

from harness.cancel import Cancellation, while_sending
from harness.checks import headroom, packaging, references
from harness.checks import structural as structural_checks
from harness.checks.result import StructuralResult
from harness.cli import collector, flags, resolve
from harness.context import Context
from harness.deadline import Deadline
from harness.model import catalog, findings
from harness.model.envelope import RunMeta
from harness.report import finish

HELP = "check skill format, datasets, policy files and internal links (offline, free)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_skill_narrowing(parser)
    flags.add_policy(parser)
    flags.add_external(parser, default=False, fetching=False)
    flags.add_negatives(parser)
    flags.add_adoption(parser)
    flags.add_listing(parser)
    flags.add_reports(parser)


bounded = collector.always  # its work ends with the repo it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    return while_sending(args.external, partial(check, args, ctx))


def check(args: argparse.Namespace, ctx: Context, cancel: Cancellation | None) -> int:
    clock = Deadline(0)
    fetch = flags.external_options(args, ctx.cwd) if args.external else None
    repo = resolve.resolve_repo(args, ctx)
    check_opts = resolve.listing_options(args, repo, resolve.check_options(args))
    with references.scan_ahead(repo) as ahead:  # a large catalog's links are checked while it loads
        loaded = resolve.narrow(catalog.load(repo, negatives=resolve.negatives_from(args)), args)
        found = structural_checks.check(loaded, check_opts, ahead)
        fetched = None
        if fetch:  # the URLs the workers already collected; `refs` reports them in full
            from harness.checks import external as external_checks  # the HTTP stack only when asked

            scan = references.scan(loaded, check_opts.docs, ahead)
            fetched = external_checks.check_scan(
                scan, fetch, say=lambda line: ctx.err(f"[structural] {line}"), cancel=cancel
            )
            found = findings.ordered([*found, *fetched.findings])
    adoption = resolve.adoption(args, repo.root, ctx.cwd)
    adopted = adoption.apply(found, looked_at=loaded.looked_at())
    datasets = [d for name in loaded.skills for d in loaded.datasets.get(name, [])]
    result = StructuralResult(
        meta=RunMeta.of("structural", repo, clock),
        skills=list(loaded.skills),
        findings=adopted.findings,
        datasets=len(datasets),
        cases=sum(len(d.cases) for d in datasets),
        folders={name: repo.rel(repo.skill_dirs[name]) for name in loaded.skills},
        packaging=packaging.verdicts(loaded, adopted.findings),
        headroom=headroom.table(loaded, check_opts),
        **adoption.record(adopted, repo),
    )
    code = finish(result, ctx, flags.report_options(args))
    return fetched.ended(code) if fetched else code
