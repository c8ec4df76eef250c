"""`skillscope refs`: every link in the skills' markdown (and --docs) resolves; external URLs answer."""

from __future__ import annotations

import argparse
from functools import partial

from harness.cancel import Cancellation, while_sending
from harness.checks import external, references
from harness.checks import structural as structural_checks
from harness.checks.result import RefsResult
from harness.cli import collector, flags, resolve
from harness.cli.flags import parse_list
from harness.context import Context
from harness.deadline import Deadline
from harness.model import catalog, findings
from harness.model.envelope import RunMeta
from harness.report import finish

HELP = "check internal links and anchors, and (unless --no-external) that external URLs answer"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_skill_narrowing(parser)
    flags.add_docs(parser)
    flags.add_external(parser)
    flags.add_timeout(parser)
    flags.add_adoption(parser)
    flags.add_reports(parser)


bounded = collector.always  # its work ends with the repo it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    return while_sending(args.external, partial(check, args, ctx))


def check(args: argparse.Namespace, ctx: Context, cancel: Cancellation | None) -> int:
    clock = Deadline(args.timeout)
    docs = parse_list("--docs", args.docs)
    fetch = flags.external_options(args, ctx.cwd)
    repo = resolve.resolve_repo(args, ctx)
    with references.scan_ahead(repo) as ahead:  # a large catalog's links are checked while it loads
        loaded = resolve.narrow(catalog.load(repo), args)
        scan = references.scan(loaded, docs, ahead)
    found = list(repo.problems)
    if not loaded.skills and not docs:
        found.append(structural_checks.no_skill(loaded))
    found.extend(scan.findings)
    fetched = (
        external.check_scan(scan, fetch, clock.instant(), lambda line: ctx.err(f"[refs] {line}"), cancel)
        if args.external
        else external.ExternalReport()
    )
    found.extend(fetched.findings)
    adoption = resolve.adoption(args, repo.root, ctx.cwd)
    adopted = adoption.apply(findings.ordered(found), references.is_reference_rule)
    result = RefsResult(
        meta=RunMeta.of("refs", repo, clock),
        skills=list(loaded.skills),
        docs=docs,
        findings=adopted.findings,
        files=scan.files,
        internal=scan.internal,
        external_checked=bool(args.external),
        external_skipped=0 if args.external else len(scan.external),
        urls=fetched.urls,
        **adoption.record(adopted, repo),
    )
    return fetched.ended(finish(result, ctx, flags.report_options(args)))
