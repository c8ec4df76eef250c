"""`skillscope baseline`: record today's structural errors so that only new ones fail from now on."""

from __future__ import annotations

import argparse
import json

from harness import __version__
from harness.checks import references
from harness.checks import structural as structural_checks
from harness.cli import flags, resolve
from harness.context import Context
from harness.errors import HarnessError
from harness.model import baseline, catalog
from harness.writer import write_text, writing

HELP = "write (or --prune) the baseline of known structural findings; only new findings fail after it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_policy(parser)
    flags.add_negatives(parser)
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="the file to write (default: .skillscope/baseline.json under the repo)",
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="only drop recorded findings that no longer occur; record nothing new",
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    repo = resolve.resolve_repo(args, ctx)
    path = (ctx.cwd / args.baseline) if args.baseline else repo.root / baseline.DEFAULT
    with references.scan_ahead(repo) as ahead:
        loaded = catalog.load(repo, negatives=resolve.negatives_from(args))
        if not loaded.skills:
            # Recording (or pruning against) a run that found no skill would empty the baseline, or
            # record that nothing was found, and every later run of that mistake would pass.
            raise HarnessError(
                f"{structural_checks.no_skill(loaded).message} Nothing was recorded; "
                f"{repo.rel(path)} is left as it was."
            )
        found = structural_checks.check(loaded, resolve.check_options(args), ahead)
    if args.prune:
        previous = baseline.load(str(path), repo.root, ctx.cwd)
        document = baseline.pruned(previous, found, __version__, loaded.looked_at())
        dropped = sum(e.get("count", 1) for e in previous.recorded.values()) - _total(document)
        said = f"kept {_total(document)} finding(s), dropped {dropped} that no longer occur"
    else:
        document = baseline.document(found, __version__)
        said = f"recorded {_total(document)} finding(s); only new ones fail from now on"
    # replaced whole: a full disk or a crash mid-write keeps the earlier baseline
    with writing("the baseline", path, "fix --baseline"):
        write_text(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n", repo.root)
    # stdout: the command's one result, seen by a script that pipes it
    ctx.out(f"[baseline] {repo.rel(path)}: {said}.")
    return 0


def _total(document: dict) -> int:
    return sum(entry["count"] for entry in document["findings"])
