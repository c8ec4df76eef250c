"""The JSON Schemas under schema/, shipped inside the package as harness/schema."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from jsonschema import Draft202012Validator


@cache
def load(name: str) -> dict:
    """`name` without the suffix, e.g. "evals" reads evals.schema.json."""
    text = (resources.files("harness") / "schema" / f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load(name))
