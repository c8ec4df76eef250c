"""YAML loading that refuses anchors and aliases, and remembers where each key sits."""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml


class YamlProblem(Exception):
    """`line` is 1-based within the YAML text, when the parser knows it."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.message = message
        self.line = line


class _NoAliasLoader(yaml.SafeLoader):
    # Rejecting at compose time means an alias bomb is never expanded.
    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise YamlProblem(
                "uses a YAML anchor or alias (& or *); write the value out in full",
                event.start_mark.line + 1)
        return super().compose_node(parent, index)


@dataclass
class YamlDocument:
    data: object
    key_lines: dict[str, int] = field(default_factory=dict)


def load(text: str) -> YamlDocument:
    """Parse one YAML document; key_lines maps each top-level key to its 1-based line."""
    loader = _NoAliasLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise YamlProblem(problem or "is not valid YAML", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(str(exc), None) from None
    except RecursionError:
        raise YamlProblem("nests too deeply to be read", None) from None
    finally:
        loader.dispose()
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                lines.setdefault(str(key_node.value), key_node.start_mark.line + 1)
    return YamlDocument(data=data, key_lines=lines)
