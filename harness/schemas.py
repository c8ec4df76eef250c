"""The JSON Schemas under schema/, shipped inside the package as harness/schema."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


@cache
def load(name: str) -> dict:
    """`name` without the suffix, e.g. "evals" reads evals.schema.json."""
    text = (resources.files("harness") / "schema" / f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def validator(name: str) -> Draft202012Validator:
    """One compiled validator per schema: built from a constant file, immutable, and reused by every
    dataset of a run (building and resolving `$ref`s per file cost more than the validation itself)."""
    from jsonschema import Draft202012Validator  # on first use: a select run never pays for it

    return Draft202012Validator(inline_refs(load(name)))


def inline_refs(schema: dict) -> dict:
    """The schema with its local `#/$defs/...` references replaced by their targets.

    jsonschema resolves a `$ref` through its registry on every visit, which dominates validating a
    thousand small datasets; the schemas here are not recursive, so substituting once is equivalent.
    A `$ref` with sibling keywords becomes `allOf` unless the two cannot clash.
    """
    defs = schema.get("$defs", {})

    def resolve(node: object, seen: tuple[str, ...]) -> object:
        if isinstance(node, list):
            return [resolve(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in defs:
            key = ref[len("#/$defs/"):]
            if key in seen:  # a recursive schema keeps its reference
                return {k: resolve(v, seen) for k, v in node.items()}
            target = resolve(defs[key], (*seen, key))
            rest = {k: resolve(v, seen) for k, v in node.items() if k != "$ref"}
            if isinstance(target, dict) and not set(rest) & set(target):
                return {**target, **rest}
            return {**rest, "allOf": [target]}
        return {k: resolve(v, seen) for k, v in node.items()}

    return resolve(schema, ())
