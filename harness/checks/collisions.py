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

# The code a pair's score comes from: an edit to it retires the memoized pairs.
SCORING_CODE = ("vectors.py", "terms.py")
# Two skills alike, as scored: (first, second, score, the words they share).
Scored = tuple[str, str, float, tuple[str, ...]]


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
    # The same names and descriptions give the same pairs: from the memo, neither the scoring code nor
    # the stemmer is loaded.
    if isinstance(known, list):
        pairs: list[Scored] = [
            (first, second, score, tuple(shared)) for first, second, score, shared in known
        ]
    else:
        pairs = similar_pairs(described, lowest)
        memo.put(key, [[first, second, score, list(shared)] for first, second, score, shared in pairs])
        memo.save()
    return [collision(pair, catalog, options) for pair in pairs]


def similar_pairs(described: dict[str, str], lowest: float) -> list[Scored]:
    from harness.routing.vectors import Index, document_text

    index = Index({name: document_text(name, text) for name, text in described.items()})
    return [(p.first, p.second, p.score, p.shared) for p in index.similar_pairs(lowest)]


def scoring_fingerprint() -> str:
    routing = Path(__file__).resolve().parent.parent / "routing"
    return code_digest([routing / name for name in SCORING_CODE])


def collision(pair: Scored, catalog: Catalog, options: CheckOptions) -> Finding:
    """One finding per pair, on the first skill's description line, naming the second."""
    first_name, second_name, score, words = pair
    first, second = catalog.skills[first_name], catalog.skills[second_name]
    severe = score >= options.collision_error
    make = findings.error if severe else findings.warning
    bar = (
        f"--collision-error {options.collision_error:g}"
        if severe
        else f"--collision-warn {options.collision_warn:g}"
    )
    shared = ", ".join(words) or "their rarest words"
    return make(
        "description-collision",
        catalog.repo.rel(first.skill_md),
        f"the descriptions of `{first_name}` and `{second_name}` ({catalog.repo.rel(second.skill_md)}) are "
        f"{score:.2f} alike (at or above {bar}), sharing {shared}; an agent choosing between them is "
        "guessing, so say in each what it does that the other does not.",
        first.line_of("description"),
    )
