"""The JSON Schemas under schema/, shipped inside the package as harness/schema.

jsonschema is the enforcer: every finding comes from its errors. A thousand datasets cost it about a
second, so a validator compiled to Python by fastjsonschema answers first; only what that screen rejects
(or a schema it cannot read the same way) goes to jsonschema.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

from harness.files import MAX_REPORT_BYTES, UnreadableFile, packaged_text, read_bytes, read_text

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry, Resource

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
        "deprecated",
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
# Where the schemas' `$id`s live; a `$ref` to another file is read from schema/ by its name there.
SCHEMA_BASE = "https://skillscope.dev/schema/"
SUFFIX = ".schema.json"
INLINE_BASE = "urn:skillscope:schema"  # the base of a schema without an `$id`


@cache
def load(name: str) -> dict:
    """`name` without the suffix, e.g. "evals" reads evals.schema.json."""
    text = packaged_text("schema", f"{name}.schema.json")
    return json.loads(text)


@cache
def validator(name: str) -> Draft202012Validator:
    """One compiled validator per schema: built from a constant file, immutable, and reused by every
    dataset of a run (building and resolving `$ref`s per file cost more than the validation itself)."""
    from jsonschema import Draft202012Validator  # on first use: a select run never pays for it

    return Draft202012Validator(inline_refs(load(name)), registry=registry())


@cache
def registry() -> Registry:
    """The schemas under schema/ by their `$id`, each read when a `$ref` first names it: a report schema
    refers to another file for what it shares (the three matrix reports' matrix-defs.schema.json)."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    def retrieve(uri: str) -> Resource:
        file = uri.removeprefix(SCHEMA_BASE)
        if file == uri or not file.endswith(SUFFIX):
            from referencing.exceptions import NoSuchResource

            raise NoSuchResource(uri)
        return DRAFT202012.create_resource(load(file.removesuffix(SUFFIX)))

    return Registry(retrieve=retrieve)  # type: ignore[call-arg]  # attrs field the stubs miss


def inline_refs(schema: dict) -> dict:
    """The schema with its `$ref`s replaced by their targets, in this file (`#/$defs/...`) or in another
    of schema/ (`matrix-defs.schema.json#/$defs/...`, resolved by jsonschema's own resolver).

    jsonschema resolves a `$ref` through its registry on every visit, which dominates validating a
    thousand small datasets; the schemas here are not recursive, so substituting once is equivalent.
    A `$ref` with sibling keywords becomes `allOf` unless the two cannot clash.
    """
    lookup = (
        across_files(schema) if any(not ref.startswith("#") for ref in refs_in(schema)) else in_file(schema)
    )

    def resolve(node: object, at: Lookup, seen: tuple[int, ...]) -> object:
        if isinstance(node, list):
            return [resolve(item, at, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        found = at(ref) if isinstance(ref, str) else None
        if found is None or id(found[0]) in seen:  # unresolved (jsonschema reports it), or recursive: kept
            return {k: resolve(v, at, seen) for k, v in node.items()}
        target = resolve(found[0], found[1], (*seen, id(found[0])))
        rest = {k: resolve(v, at, seen) for k, v in node.items() if k != "$ref"}
        if isinstance(target, dict) and not set(rest) & set(target):
            return {**target, **rest}
        return {**rest, "allOf": [target]}

    resolved = resolve(schema, lookup, ())
    assert isinstance(resolved, dict)  # every branch resolves a dict to a dict
    return resolved


# A `$ref`'s target and how to look up the `$ref`s inside it; None when it names nothing found.
Lookup = Callable[[str], "tuple[object, Lookup] | None"]


def in_file(schema: dict) -> Lookup:
    """`#/$defs/...` of `schema` itself, without importing the resolver: a free run's start-up."""
    defs = schema.get("$defs", {})

    def lookup(ref: str) -> tuple[object, Lookup] | None:
        key = ref.removeprefix("#/$defs/")
        return (defs[key], lookup) if ref.startswith("#/$defs/") and key in defs else None

    return lookup


def across_files(schema: dict) -> Lookup:
    """Any `$ref` of `schema`, resolved by referencing against the schemas of schema/ (registry)."""
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012

    base = schema.get("$id", INLINE_BASE)

    def at(resolver: Any) -> Lookup:  # referencing's Resolver, relative to the document a target is in
        def lookup(ref: str) -> tuple[object, Lookup] | None:
            try:
                found = resolver.lookup(ref)
            except Unresolvable:
                return None
            return found.contents, at(found.resolver)

        return lookup

    return at(registry().with_resource(base, DRAFT202012.create_resource(schema)).resolver(base))


def refs_in(node: object) -> list[str]:
    if isinstance(node, list):
        return [ref for item in node for ref in refs_in(item)]
    if not isinstance(node, dict):
        return []
    own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return own + [ref for value in node.values() for ref in refs_in(value)]


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


def errors(name: str, instance: object) -> list[ValidationError]:
    """jsonschema's errors for `instance`, in its order; none when the screen passes it."""
    if passes_screen(name, instance):
        return []
    return list(validator(name).iter_errors(instance))


def declared_properties(error: ValidationError) -> dict[str, object]:
    """The `properties` of the subschema `error` came from; {} when it declares none."""
    schema = error.schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return properties if isinstance(properties, dict) else {}


@cache
def screen(name: str) -> Callable[[object], object] | None:
    """The compiled screen of a schema, or None when it uses a keyword outside PORTABLE_KEYWORDS
    (or a `$ref` left by inlining). Formats stay annotations, as they are for jsonschema here."""
    made_from = sources_key(name)
    kept = cache_dir() / f"screen-{name}-{made_from[:32]}-{sys.hexversion:x}.marshal" if made_from else None
    found = read_program(kept) if kept else None
    if found is None:
        schema = inline_refs(load(name))
        if not portable(schema):
            return None
        found = screen_program(schema, name, kept)
    function, program = found
    namespace: dict = {}
    exec(program, namespace)  # noqa: S102 - compiled from our own schema
    return namespace[function]


def screen_program(schema: dict, name: str, kept: Path | None = None) -> tuple[str, CodeType]:
    """The screen's validator name and compiled code, kept beside its source in the user's cache:
    compiling fastjsonschema's verbose Python costs a small catalog's start-up a third again. Kept once:
    at `kept` (keyed by the schema's sources, which the caller found missing), else keyed by content."""
    import marshal

    cached = kept or cache_dir() / f"screen-{screen_key(schema)[:32]}-{sys.hexversion:x}.marshal"
    known = read_program(cached) if kept is None else None
    if known is not None:
        return known
    code = screen_code(schema)
    first = SCREEN_FUNCTION.search(code)
    assert first is not None  # fastjsonschema's code always defines its validator
    function = first.group(1)
    program = compile(code, f"<skillscope screen of {name}>", "exec")
    keep(cached, marshal.dumps((function, program)))
    return function, program


def read_program(path: Path) -> tuple[str, CodeType] | None:
    """A screen's validator name and code as `screen_program` keeps them; None when absent or written by
    something else (compiled again)."""
    import marshal

    try:
        function, program = marshal.loads(read_bytes(path, MAX_REPORT_BYTES))
    except (UnreadableFile, ValueError, EOFError, TypeError):
        return None
    return (function, program) if isinstance(function, str) and isinstance(program, CodeType) else None


def sources_key(name: str) -> str | None:
    """A digest of what the screen of `name` is made from: its schema file, this module (inlining and
    the portability rules) and fastjsonschema's release. Every run asks for the report's screen, and
    this costs a read where keying by the inlined schema (`screen_key`) parsed and rebuilt it first.
    None for a schema that refers to another file (its screen is then keyed by content alone)."""
    import fastjsonschema  # on first use; the screen's code imports it anyway

    try:
        text = read_bytes(Path(__file__).resolve().parent / "schema" / f"{name}{SUFFIX}", MAX_REPORT_BYTES)
        own = read_bytes(Path(__file__), MAX_REPORT_BYTES)
    except UnreadableFile:
        return None
    if f"{SUFFIX}#".encode() in text:
        return None
    return hashlib.sha256(b"\0".join([fastjsonschema.VERSION.encode(), own, text])).hexdigest()


def screen_key(schema: dict) -> str:
    import fastjsonschema  # on first use, like jsonschema; its generated code imports it anyway

    text = f"{fastjsonschema.VERSION}\n{json.dumps(schema, sort_keys=True)}"
    return hashlib.sha256(text.encode()).hexdigest()


def screen_code(schema: dict) -> str:
    """fastjsonschema's Python for `schema`, kept in the user's cache: generating it costs more than a
    small catalog's whole check, and a pre-commit hook runs it on every commit."""
    import fastjsonschema

    cached = cache_dir() / f"screen-{screen_key(schema)[:32]}.py"
    try:
        return read_text(cached, MAX_REPORT_BYTES)
    except UnreadableFile:
        pass
    code = fastjsonschema.compile_to_code(schema, use_formats=False)
    keep(cached, code.encode("utf-8"))
    return code


def keep(path: Path, data: bytes) -> None:
    """Written whole or not at all (concurrent runs may race to fill the cache); an unwritable cache
    costs time, never the check."""
    from harness.writer import write_bytes

    with contextlib.suppress(OSError):
        write_bytes(path, data, path.parent)


def cache_dir() -> Path:
    from harness.memo import user_cache

    return user_cache()


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
