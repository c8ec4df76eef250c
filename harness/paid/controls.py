"""What every runner of one paid run shares and is bounded by: the command's clock, its cancelling signal,
its result cache and its spend. One value carries them, so a runner is handed its run's controls whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.paid.spend import RunBudget

if TYPE_CHECKING:  # the cache's module reads the agents' facts; a value naming it need not load them
    from harness.paid.cache import ResultCache


@dataclass(frozen=True)
class RunControls:
    deadline: Deadline
    cancel: Cancellation = field(default_factory=Cancellation)  # a run of its own: nothing cancels it
    results: ResultCache | None = None  # None: nothing cached (--no-cache, or a run that keys nothing)
    budget: RunBudget = field(default_factory=RunBudget)  # a run of its own: no --max-run-usd
