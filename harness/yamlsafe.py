"""YAML loading that refuses anchors and aliases, and remembers where each key sits."""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from harness import nesting


class YamlProblem(Exception):
    """`line` is 1-based within the YAML text, when the parser knows it."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.message = message
        self.line = line


_ALIAS_MESSAGE = "uses a YAML anchor or alias (& or *); write the value out in full"


class _NoAliasLoader(yaml.SafeLoader):
    # Rejecting at compose time means an alias bomb is never expanded.
    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise YamlProblem(_ALIAS_MESSAGE, event.start_mark.line + 1)
        return super().compose_node(parent, index)


# libyaml, when PyYAML was built with it, parses an order of magnitude faster than the pure-Python
# parser; anchors are then refused from its event stream before anything is composed.
_FastLoader = getattr(yaml, "CSafeLoader", None)


@dataclass
class YamlDocument:
    data: object
    key_lines: dict[str, int] = field(default_factory=dict)


def load(text: str) -> YamlDocument:
    """Parse one YAML document; key_lines maps each top-level key to its 1-based line."""
    if _FastLoader is not None:
        node, data = _load_fast(text)
    else:
        node, data = _load(_NoAliasLoader(text), text)
    if nesting.deeper_than(data):
        raise YamlProblem(
            f"nests more than {nesting.MAX_DEPTH} levels deep; keep it to plain keys and short lists", None
        )
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                lines.setdefault(str(key_node.value), key_node.start_mark.line + 1)
    return YamlDocument(data=data, key_lines=lines)


def _load_fast(text: str) -> tuple[object, object]:
    if "&" not in text and "*" not in text:  # no anchor or alias without its indicator: skip the scan
        return _load(_FastLoader(text), text)
    try:
        for event in yaml.parse(text, Loader=_FastLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise YamlProblem(_ALIAS_MESSAGE, event.start_mark.line + 1)
    except yaml.YAMLError:
        pass  # reported with its position by the loader below
    return _load(_FastLoader(text), text)


def _load(loader, text: str) -> tuple[object, object]:
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        # An unclosed bracket is found at the end of the text; point at the last line, not past it.
        line = min(mark.line + 1, text.rstrip("\n").count("\n") + 1) if mark else None
        raise YamlProblem(problem or "is not valid YAML", line) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(str(exc), None) from None
    except RecursionError:
        raise YamlProblem("nests too deeply to be read", None) from None
    finally:
        loader.dispose()
    return node, data
