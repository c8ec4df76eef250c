"""The result of `skillscope select`: the plan under the envelope every JSON report shares."""

from __future__ import annotations

from dataclasses import dataclass

from harness.model.envelope import RunMeta, counts, envelope
from harness.select.plan import Plan


@dataclass
class SelectResult:
    meta: RunMeta
    plan: Plan
    skills: list[str]  # the skills the change selected

    command = "select"
    passed = True  # a plan grades nothing; a run that cannot plan is an error, not a result

    def to_json(self) -> dict:
        """The envelope, the skills its `counts.total` counts, then the plan's own keys, which the workflows
        read as they always have. A plan grades nothing, so pass, fail and error stay 0."""
        tally = {**counts([]), "total": len(self.skills)}
        head = envelope(self.meta, self.passed, tally)
        return {**head, "skills": sorted(self.skills), **self.plan.to_json()}
