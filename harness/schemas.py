"""The JSON Schemas under schema/, shipped inside the package as harness/schema.

jsonschema is the enforcer: every finding comes from its errors. A thousand datasets cost it about a
second, so a validator compiled to Python by fastjsonschema answers first; only what that screen rejects
(or a schema it cannot read the same way) goes to jsonschema.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

# Keywords that mean the same in draft 7, which fastjsonschema compiles, and in 2020-12, which the
# schemas declare. A schema using any other keyword is never screened.
PORTABLE_KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "format",
        "type",
        "required",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minProperties",
        "maxProperties",
        "properties",
        "patternProperties",
        "additionalProperties",
        "items",
        "not",
        "allOf",
        "anyOf",
        "oneOf",
        "if",
        "then",
        "else",
        "$defs",
    }
)
# The validator fastjsonschema generates is the first function of its code; the rest are its helpers.
SCREEN_FUNCTION = re.compile(r"^def (\w+)\(", re.MULTILINE)
# Python's `in` and `==` take True for 1; jsonschema does not. Only string values compare alike.
VALUE_KEYWORDS = ("enum", "const")
NAMED_SUBSCHEMAS = ("properties", "patternProperties", "$defs")
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
SUBSCHEMAS = ("additionalProperties", "items", "not", "if", "then", "else")


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
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[len("#/$defs/") :] in defs:
            key = ref[len("#/$defs/") :]
            if key in seen:  # a recursive schema keeps its reference
                return {k: resolve(v, seen) for k, v in node.items()}
            target = resolve(defs[key], (*seen, key))
            rest = {k: resolve(v, seen) for k, v in node.items() if k != "$ref"}
            if isinstance(target, dict) and not set(rest) & set(target):
                return {**target, **rest}
            return {**rest, "allOf": [target]}
        return {k: resolve(v, seen) for k, v in node.items()}

    return resolve(schema, ())


def passes_screen(name: str, instance: object) -> bool:
    """True when the compiled screen accepts `instance`, which then has no jsonschema error either.
    False means only "ask jsonschema": the screen may be stricter, or absent for this schema."""
    check = screen(name)
    if check is None:
        return False
    from fastjsonschema import JsonSchemaException

    try:
        check(instance)
    except (JsonSchemaException, RecursionError):
        return False
    return True


def errors(name: str, instance: object) -> list:
    """jsonschema's errors for `instance`, in its order; none when the screen passes it."""
    if passes_screen(name, instance):
        return []
    return list(validator(name).iter_errors(instance))


@cache
def screen(name: str) -> Callable[[object], object] | None:
    """The compiled screen of a schema, or None when it uses a keyword outside PORTABLE_KEYWORDS
    (or a `$ref` left by inlining). Formats stay annotations, as they are for jsonschema here."""
    schema = inline_refs(load(name))
    if not portable(schema):
        return None
    code = screen_code(schema)
    namespace: dict = {}
    exec(compile(code, f"<skillscope screen of {name}>", "exec"), namespace)  # noqa: S102 - our own schema's
    return namespace[SCREEN_FUNCTION.search(code).group(1)]


def screen_code(schema: dict) -> str:
    """fastjsonschema's Python for `schema`, kept in the user's cache: generating it costs more than a
    small catalog's whole check, and a pre-commit hook runs it on every commit."""
    import fastjsonschema  # on first use, like jsonschema

    key = hashlib.sha256(
        f"{fastjsonschema.VERSION}\n{json.dumps(schema, sort_keys=True)}".encode()
    ).hexdigest()
    cached = cache_dir() / f"screen-{key[:32]}.py"
    try:
        return cached.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    code = fastjsonschema.compile_to_code(schema, use_formats=False)
    try:  # written whole or not at all: concurrent runs may race to fill the cache
        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=cached.parent, delete=False, encoding="utf-8") as handle:
            handle.write(code)
        os.replace(handle.name, cached)
    except OSError:
        pass  # an unwritable cache costs time, never the check
    return code


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skillscope"


def portable(schema: object, negated: bool = False) -> bool:
    """Every keyword of `schema` and its subschemas is in PORTABLE_KEYWORDS, `items` is one schema, and
    no `$` sits where the screen would be looser: fastjsonschema reads `$` as the very end, where Python
    also matches before a final newline, so under `not`, `oneOf` or `if` it must not appear."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or not PORTABLE_KEYWORDS.union(VALUE_KEYWORDS).issuperset(schema):
        return False
    values = [*schema.get("enum", []), *([schema["const"]] if "const" in schema else [])]
    if not all(isinstance(value, str) for value in values):
        return False
    if negated and "$" in str(schema.get("pattern", "")):
        return False
    if any("$" in key for key in schema.get("patternProperties", {})):
        return False
    children = [(sub, negated) for key in NAMED_SUBSCHEMAS for sub in schema.get(key, {}).values()]
    children += [(sub, negated or key == "oneOf") for key in SUBSCHEMA_LISTS for sub in schema.get(key, [])]
    children += [(schema[key], negated or key in ("not", "if")) for key in SUBSCHEMAS if key in schema]
    return all(portable(child, flag) for child, flag in children)
