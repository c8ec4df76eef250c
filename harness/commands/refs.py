"""`skillscope refs`: every link in the skills' markdown (and --docs) resolves; external URLs answer."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from harness import options, parse_pool
from harness.checks import external, references
from harness.checks import structural as structural_checks
from harness.context import Context
from harness.errors import UsageError
from harness.model import catalog, findings
from harness.model.findings import Finding
from harness.options import parse_list
from harness.refs_result import RefsResult
from harness.report import now, publish
from harness.results import RunMeta

if TYPE_CHECKING:
    import requests

HELP = "check internal links and anchors, and (unless --no-external) that external URLs answer"

SessionFactory = Callable[[], "requests.Session"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.add_skills_dir(parser)
    parser.add_argument(
        "--docs",
        metavar="GLOBS",
        help="markdown outside the skills (README, docs tree) whose links are checked too",
    )
    add_external(parser)
    parser.add_argument(
        "--cache",
        metavar="PATH",
        help="JSON file remembering URLs that answered, so a scheduled run skips them",
    )
    parser.add_argument(
        "--cache-max-age",
        type=float,
        default=86400,
        metavar="SECONDS",
        help="how long a remembered success counts (default: 86400, one day)",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=15,
        metavar="SECONDS",
        help="limit for one HTTP request, shrunk to what --timeout leaves (default: 15)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=2,
        metavar="N",
        help="extra attempts after a 408, 425, 5xx, timeout or connection error (default: 2)",
    )
    options.add_timeout(parser)
    options.add_reports(parser)


def add_external(parser: argparse.ArgumentParser, default: bool = True) -> None:
    state = "on" if default else "off"
    parser.add_argument(
        "--external",
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"fetch every external http(s) URL once (default: {state})",
    )
    parser.add_argument(
        "--exclude-url",
        metavar="REGEXES",
        help="regexes (JSON array or comma list) for URLs the external check leaves alone",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=16,
        metavar="N",
        help="hosts fetched in parallel; each host gets one request at a time (default: 16)",
    )


def external_options(args: argparse.Namespace) -> external.ExternalOptions:
    jobs, retries = getattr(args, "jobs", 16), getattr(args, "retries", 2)
    request_timeout = getattr(args, "request_timeout", 15.0)
    max_age = getattr(args, "cache_max_age", 86400.0)
    if jobs < 1:
        raise UsageError(f"--jobs is {jobs}; pass 1 or more.")
    if retries < 0:
        raise UsageError(f"--retries is {retries}; pass 0 or more.")
    if request_timeout <= 0:
        raise UsageError(f"--request-timeout is {request_timeout:g}; pass a positive number of seconds.")
    if max_age < 0:
        raise UsageError(f"--cache-max-age is {max_age:g}; pass 0 or more seconds.")
    cache = getattr(args, "cache", None)
    return external.ExternalOptions(
        jobs=jobs,
        request_timeout_s=request_timeout,
        retries=retries,
        exclude=tuple(parse_list("--exclude-url", getattr(args, "exclude_url", None))),
        cache_path=Path(cache) if cache else None,
        cache_max_age_s=max_age,
    )


def check_external(
    scan: references.Scan,
    opts: external.ExternalOptions,
    deadline: float | None,
    session_factory: SessionFactory | None = None,
) -> external.ExternalReport:
    uses: dict[str, list[external.Use]] = {}
    for use in scan.external:
        uses.setdefault(use.url, []).append(external.Use(use.path, use.line))
    return external.Checker(opts, session_factory=session_factory, deadline=deadline).check(uses)


def external_findings(
    loaded: catalog.Catalog,
    docs: tuple[str, ...],
    args: argparse.Namespace,
    ahead: parse_pool.Ahead | None = None,
) -> list[Finding]:
    """The network half for `structural --external`, for parity; `refs` reports the URLs in full."""
    scan = references.scan(loaded, docs, ahead)
    return check_external(scan, external_options(args), deadline=None).findings


def run(args: argparse.Namespace, ctx: Context, session_factory: SessionFactory | None = None) -> int:
    started, clock = now(), time.monotonic()
    docs = parse_list("--docs", getattr(args, "docs", None))
    ext_opts = external_options(args)
    if ext_opts.cache_path is not None and not ext_opts.cache_path.is_absolute():
        ext_opts = external.ExternalOptions(**{**vars(ext_opts), "cache_path": ctx.cwd / ext_opts.cache_path})
    deadline = clock + args.timeout if args.timeout and args.timeout > 0 else None
    repo = options.resolve_repo(args, ctx)
    with references.scan_ahead(repo) as ahead:  # a large catalog's links are checked while it loads
        loaded = catalog.load(repo)
        scan = references.scan(loaded, docs, ahead)
    found = list(repo.problems)
    if not loaded.skills and not docs:
        found.append(structural_checks.no_skill(loaded))
    found.extend(scan.findings)
    urls: list[external.UrlCheck] = []
    if args.external:
        report = check_external(scan, ext_opts, deadline, session_factory)
        found.extend(report.findings)
        urls = report.urls
    result = RefsResult(
        meta=RunMeta(
            command="refs",
            repo=str(repo.root),
            globs=repo.globs,
            started_at=started,
            elapsed_s=time.monotonic() - clock,
        ),
        skills=repo.names,
        docs=docs,
        findings=findings.ordered(found),
        files=scan.files,
        internal=scan.internal,
        external_checked=bool(args.external),
        urls=urls,
    )
    publish(result, ctx, args.output, args.summary)
    return 0 if result.passed else 1
