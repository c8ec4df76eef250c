"""`skillscope routing --engine agent`: the room installed in each agent CLI, every case run and graded.

Imported only when an agent runs, so the free lexical engine starts without the agent machinery.
"""

from __future__ import annotations

from harness.cancel import Cancellation
from harness.checks.gate import require_well_formed
from harness.cli.options import RoutingOptions
from harness.cli.paid import paid_run, routing_settings
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.baseline import Adoption
from harness.model.catalog import Catalog
from harness.paid.loop import run_legs
from harness.paid.sandbox import unreadable
from harness.report import publish
from harness.routing import outsiders
from harness.routing.legs import RoutingLegs


def run_agents(
    options: RoutingOptions,
    ctx: Context,
    deadline: Deadline,
    cancel: Cancellation,
    loaded: Catalog,
    rooms: tuple[list[str], list[str]],
    adoption: Adoption,
) -> int:
    """Gate the room and select the cases, then route them on every agent --agent names. `rooms` is
    --routing-room as given and the room it resolved to."""
    listed_room, room = rooms
    require_well_formed(loaded, ctx, "the skills this run installs", adoption)
    pooled = loaded.cases(room, extended=options.extended) + loaded.negative_cases()
    cases = catalog.select_cases(pooled, list(options.only), list(options.skills))
    if not cases:
        raise UsageError("no routing case selected; check --skill and --only.")
    assert options.paid is not None  # the agent engine's options carry the paid flags
    paid = paid_run(options.paid, ctx, loaded.repo, deadline, cancel, publish)
    settings = routing_settings(
        paid,
        options.stops,
        sandbox=options.sandbox,
        unreadable=unreadable(loaded.repo, paid.settings.cache, paid.settings.logs),
        install=options.install,
    )
    bar = options.min_accuracy
    outside = outsiders.notes(listed_room, room, loaded.repo, cases)
    widen = outsiders.fixer(listed_room, room, loaded.repo)
    # Every leg (each agent on each of its models) readied, then the cases run on each in turn: one report
    # (a matrix for several legs), or a dry run.
    return run_legs(paid, RoutingLegs(paid, settings, bar, room, cases, outside, widen))
