"""The end of every `skillscope tune` run, on either engine: the tuner run with its candidates staged in
a temporary folder, the diff, --apply, the reports; and the dry run's plan."""

from __future__ import annotations

import difflib
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cli.options import TuneOptions
from harness.context import Context
from harness.errors import HarnessError
from harness.tune import candidates as cands
from harness.tune.result import TuneMeta, TuneResult
from harness.tune.split import FINAL, TRAIN, VALIDATION
from harness.tune.tuning import Plan, Tuner
from harness.writer import cannot, write_text

if TYPE_CHECKING:
    from harness.paid.command import PaidRun
    from harness.routing.canary import Checked


def finish(
    ctx: Context,
    options: TuneOptions,
    plan: Plan,
    tuner: Tuner,
    meta_of: Callable[[], TuneMeta],
    paid: PaidRun | None,
    proposal_cost: Callable[[], float] = lambda: 0.0,
    canaries: Sequence[Checked] = (),
) -> int:
    """Run the tuner (its candidates staged in a temporary folder), then publish the result, and with
    --apply write the chosen description."""
    with tempfile.TemporaryDirectory(prefix="skillscope-tune-") as staging:
        tuner.staging = Path(staging)
        tuned = tuner.run()
    meta = meta_of()  # as of now: the report's elapsed time covers the whole tuning
    result = TuneResult(meta, plan.split, tuned, proposal_cost_usd=proposal_cost(), canary=list(canaries))
    chosen = result.chosen
    if chosen is not None:
        old = plan.skill.text
        new = cands.with_description(plan.skill, chosen.candidate.text)
        rel = meta.skill_md
        result.diff = "".join(
            difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}")
        )
        if options.apply and result.passed:
            try:
                write_text(plan.skill.skill_md, new, Path(meta.run.repo))
            except OSError as exc:
                raise HarnessError(
                    cannot("the tuned description", plan.skill.skill_md, exc, "fix its permissions")
                ) from None
            result.applied = True
    if paid is not None:
        code = paid.finish(result)
    else:
        from harness.report import finish as publish_and_exit

        code = publish_and_exit(result, ctx, options.reports)
    say = ctx.err
    say(f"[tune] {result.verdict()}.")
    if result.diff and not result.applied:
        say("[tune] the diff is in the report; pass --apply to write it into SKILL.md.")
    return code


def print_plan(ctx: Context, plan: Plan, estimate_lines) -> int:
    parts = plan.split.parts
    counts = plan.split.counts()
    ctx.out(f"## Tune dry run: nothing was sent ({plan.skill.name})")
    ctx.out(f"Split (seed {plan.split.seed}):")
    for part in (TRAIN, VALIDATION, FINAL):
        kinds = counts[part]
        ctx.out(
            f"  {part}: {len(parts[part])} case(s), {kinds['positive']} positive, "
            f"{kinds['negative']} negative"
        )
    ctx.out(
        f"Candidates: {len(plan.file_candidates)} from the file; {plan.propose} proposed in each of "
        f"{plan.rounds} round(s)"
    )
    for text in plan.file_candidates:
        ctx.out(f"  - {text[:100]}")
    for line in estimate_lines or []:
        ctx.out(line)
    return 0
