"""A case's digest names what it asks and expects: a false case naming its `owner` expects that owner to
fire, so its digest says so (a verdict graded before that was another question, never flakiness), while
every other case keeps the digest its earlier runs recorded."""

from __future__ import annotations

import dataclasses

from harness.model.dataset import Case
from harness.model.digests import digest_of
from harness.model.provenance import PLACEMENT, case_digest


def as_written(case: Case) -> str:
    """The digest of a case's own fields, as every run recorded it before owners were expected."""
    return digest_of({k: v for k, v in dataclasses.asdict(case).items() if k not in PLACEMENT})


def test_only_an_owned_negative_digests_what_it_expects():
    positive = Case("p", "merge these pdfs", True, "pdf", "pdf/evals/evals.json", 3)
    near = Case("n", "build a deck", False, "pdf", "pdf/evals/evals.json", 4)
    owned = dataclasses.replace(near, owner="pptx")
    assert case_digest(positive) == as_written(positive)
    assert case_digest(near) == as_written(near)
    assert case_digest(owned) != as_written(owned)
    assert case_digest(owned) != case_digest(dataclasses.replace(near, owner="docx"))
    moved = dataclasses.replace(owned, line=40, source="pdf/evals/extended_evals.json")
    assert case_digest(moved) == case_digest(owned)  # where it is written is still no input
