"""What `init` advises a repo it has just adopted, read from the survey: the runner types the CI planner
needs defined, and the next steps, in the order they pay off (a skill, structural, a dataset, a first
free routing run, the secret the paid legs need)."""

from __future__ import annotations

from pathlib import Path

from harness.authoring.scaffold import WORKFLOW
from harness.authoring.survey import Survey
from harness.routing.room import CATALOG, EVERY

KEY_SECRET = "ANTHROPIC_API_KEY"


def runner_types(found: Survey, settings: str) -> list[str]:
    """A line for each runner type a machine.yml names and no setting defines; `settings`: the settings
    file to add them to, as a user would find it."""
    return [
        f"{', '.join(files)} name{'s' if len(files) == 1 else ''} runner_type {kind}, which "
        f"skillscope's CI planner (`select`) needs defined: add runner-types to {settings}, such as "
        f"""runner-types = '{{"{kind}": {{"labels": ["self-hosted", "{kind}"]}}}}' """
        "with your runners' labels (docs/commands/select.md#runner-types)"
        for kind, files in found.runner_types.items()
    ]


def next_steps(found: Survey, globs: list[str], wrote_workflow: bool) -> list[str]:
    """The steps after init, each an indented line; `wrote_workflow`: skills.yml is in place (a repo's
    own eval workflow, left alone, names its own secrets)."""
    steps = []
    if not found.skills:
        home = Path(globs[0]).parent.as_posix()
        steps.append(f"create a first skill: skillscope new my-skill --dir {home}")
    steps.append(
        "skillscope structural; an existing catalog may break rules it never checked: "
        "`skillscope baseline` records today's findings (commit .skillscope/baseline.json), "
        "so only new ones fail"
    )
    room = CATALOG if found.partial_coverage else EVERY
    if found.skills and not found.with_dataset:  # routing would have no case to rank: say what comes first
        steps.append(
            f"skillscope template: a starting dataset; none of the {len(found.skills)} skills has one, "
            f"so save it as {found.skills[0]}/evals/evals.json (or any skill's), fill in its prompts, and "
            "routing has cases to rank"
        )
    elif found.skills:
        steps.append(
            f"skillscope routing --engine lexical --routing-room {room} --min-accuracy 0 --min-rank1 0.8: "
            "a first routing run, free and offline (it ranks each prompt against the descriptions)"
        )
    if wrote_workflow:
        steps.append(
            f"add the {KEY_SECRET} secret to the repository (Settings, Secrets and variables, Actions): "
            f"the routing and behavioral legs of {WORKFLOW.as_posix()} run the agent with it"
        )
    return [f"  {step}" for step in steps]
