"""Description collisions: two skills that read alike to an agent leave it guessing between them.

Every two described skills are compared as lexical routing sees them (TF-IDF over the name and the
description, cosine); a pair at --collision-warn is a warning, at --collision-error an error.
"""

from __future__ import annotations

import json
from pathlib import Path

from harness.checks import CheckOptions
from harness.memo import Memo, code_digest
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.routing.vectors import Index, Pair, document_text

# The code a pair's score comes from: an edit to it retires the memoized pairs.
SCORING_CODE = ("vectors.py", "terms.py")


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    described = {
        name: skill.description for name, skill in catalog.skills.items() if skill.description.strip()
    }
    if len(described) < 2:
        return []
    lowest = min(options.collision_warn, options.collision_error)
    memo = Memo.of_repo(catalog.repo.root, "collisions", scoring_fingerprint())
    key = memo.key(json.dumps([lowest, sorted(described.items())], ensure_ascii=False))
    known = memo.get(key)
    # The same names and descriptions give the same pairs: from the memo, the stemmer is not loaded.
    if isinstance(known, list):
        pairs = [Pair(first, second, score, tuple(shared)) for first, second, score, shared in known]
    else:
        pairs = similar_pairs(described, lowest)
        memo.put(key, [[p.first, p.second, p.score, list(p.shared)] for p in pairs])
        memo.save()
    return [collision(pair, catalog, options) for pair in pairs]


def similar_pairs(described: dict[str, str], lowest: float) -> list[Pair]:
    index = Index({name: document_text(name, text) for name, text in described.items()})
    return index.similar_pairs(lowest)


def scoring_fingerprint() -> str:
    routing = Path(__file__).resolve().parent.parent / "routing"
    return code_digest([routing / name for name in SCORING_CODE])


def collision(pair: Pair, catalog: Catalog, options: CheckOptions) -> Finding:
    """One finding per pair, on the first skill's description line, naming the second."""
    first, second = catalog.skills[pair.first], catalog.skills[pair.second]
    severe = pair.score >= options.collision_error
    make = findings.error if severe else findings.warning
    bar = (
        f"--collision-error {options.collision_error:g}"
        if severe
        else f"--collision-warn {options.collision_warn:g}"
    )
    shared = ", ".join(pair.shared) or "their rarest words"
    return make(
        "description-collision",
        catalog.repo.rel(first.skill_md),
        f"the descriptions of `{pair.first}` and `{pair.second}` ({catalog.repo.rel(second.skill_md)}) are "
        f"{pair.score:.2f} alike (at or above {bar}), sharing {shared}; an agent choosing between them is "
        "guessing, so say in each what it does that the other does not.",
        first.line_of("description"),
    )
