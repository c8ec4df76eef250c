"""What produced a run's verdicts, digested so the ledger can tell noise from a change.

A report keeps, once, the digest of every file of the skills the run used and what it ran them on (agent
and CLI version, model, settings, harness version); each case keeps the digests of its own inputs. Two
verdicts of a case with the same digests were produced by the same inputs: if they differ, the case is
flaky. The digests are the result cache's (harness.model.digests), so the two never disagree on a change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import __version__
from harness.files import rel_to
from harness.model.dataset import Case
from harness.model.digests import digest_of, file_digests

# What a case's own digests are named in its report; the order is the order a change is named in.
INPUTS = ("case", "skill", "room", "agent", "model", "settings", "harness")
# Fields of a case that change where it is written, not what it asks: never part of its digest.
PLACEMENT = ("source", "line", "note")


def case_digest(case: Case) -> str:
    """The digest of what a case asks and expects, wherever in its dataset it is written."""
    fields = {k: v for k, v in dataclasses.asdict(case).items() if k not in PLACEMENT}
    if case.owner and not case.should_trigger:
        # A false case naming its owner expects that owner to fire (it once expected no skill): a
        # verdict graded that way answers another question, so the ledger must not call the two flaky.
        fields["expects"] = case.expected_skill
    return digest_of(fields)


@dataclass(frozen=True)
class Provenance:
    """The inputs of one run: every file of the skills it used, by root-relative path; each skill's
    digest; each case's digest; the agent, model, settings and harness version."""

    files: dict[str, str]
    skills: dict[str, str]
    cases: dict[str, str]
    agent: dict[str, Any]
    model: str | None
    settings: dict[str, Any]
    shared_room: bool = True  # routing installs every skill together: any skill's change is an input
    harness: str = __version__
    skill_paths: dict[str, str] = field(default_factory=dict)  # skill -> its root-relative folder

    @classmethod
    def of(
        cls,
        root: Path,
        folders: Mapping[str, Path],
        cases: Sequence[Case],
        *,
        skip_top: Sequence[str] = (),
        agent: Mapping[str, Any],
        model: str | None,
        settings: Mapping[str, Any],
        shared_room: bool = True,
    ) -> Provenance:
        """The provenance of a run over the skill `folders` (name -> folder, each digested without the
        top-level names in `skip_top`) and `cases` as the dataset wrote them."""
        files: dict[str, str] = {}
        skills, paths = {}, {}
        for name, folder in sorted(folders.items()):
            rel = rel_to(root, folder)
            found = file_digests(folder, skip_top)
            files.update({f"{rel}/{path}": digest for path, digest in found.items()})
            skills[name], paths[name] = digest_of(found), rel
        return cls(
            files=files,
            skills=skills,
            cases={case.id: case_digest(case) for case in cases},
            agent=dict(agent),
            model=model,
            settings=dict(settings),
            shared_room=shared_room,
            skill_paths=paths,
        )

    def of_case(self, case_id: str, skill: str | None) -> dict[str, str | None]:
        """The digests of one case's inputs, named as in INPUTS."""
        return {
            "case": self.cases.get(case_id),
            "skill": self.skills.get(skill) if skill else None,
            "room": digest_of(self.skills) if self.shared_room else None,
            "agent": digest_of(self.agent),
            "model": digest_of(self.model),
            "settings": digest_of(self.settings),
            "harness": digest_of(self.harness),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "harness_version": self.harness,
            "agent": self.agent,
            "model": self.model,
            "settings": self.settings,
            "shared_room": self.shared_room,
            "skills": {
                name: {"path": self.skill_paths.get(name), "digest": d} for name, d in self.skills.items()
            },
            "files": self.files,
        }
