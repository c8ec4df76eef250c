"""YAML loading that refuses anchors and aliases, and remembers where each key sits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from harness import nesting
from harness.errors import FileProblem
from harness.files import MAX_TEXT_BYTES, UnreadableFile, read_text


class YamlProblem(FileProblem):
    """`line` is 1-based within the YAML text, when the parser knows it; `name` the file, when given."""

    def __init__(self, message: str, line: int | None, name: str = ""):
        super().__init__(name, message, line)
        self.message = self.reason


_ALIAS_MESSAGE = "uses a YAML anchor or alias (& or *); write the value out in full"


class _ValueErrorsOnTheirLine:
    """PyYAML's constructors raise plain ValueError, IndexError, KeyError... for values its resolver
    accepted (2024-02-30, `!!int` with no digits, a 5,000-digit int): each becomes a YamlProblem on the
    line of the value that failed, whichever constructor and exception it was."""

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (yaml.YAMLError, YamlProblem, RecursionError):
            raise
        except Exception as exc:  # noqa: BLE001 - any constructor failure is the file's, not ours
            raise YamlProblem(_unreadable_value(node, exc), node.start_mark.line + 1) from None


def _unreadable_value(node, exc: Exception) -> str:
    kind = str(node.tag).rsplit(":", 1)[-1]
    value = str(node.value) if isinstance(node, yaml.ScalarNode) else ""
    shown = f"`{value[:40]}{'...' if len(value) > 40 else ''}` " if value.strip() else "an empty value "
    # The first clause only: int's digit limit goes on to suggest an interpreter setting.
    reason = " ".join(str(exc).split(";")[0].split())[:120] or type(exc).__name__
    return f"{shown}cannot be read as a YAML {kind} ({reason}); quote it to keep it as text, or fix the value"


class _NoAliasLoader(_ValueErrorsOnTheirLine, yaml.SafeLoader):
    # Rejecting at compose time means an alias bomb is never expanded.
    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise YamlProblem(_ALIAS_MESSAGE, event.start_mark.line + 1)
        return super().compose_node(parent, index)


# libyaml, when PyYAML was built with it, parses an order of magnitude faster than the pure-Python
# parser; anchors are then refused from its event stream before anything is composed.
_CSafeLoader = getattr(yaml, "CSafeLoader", None)
_FastLoader: type[yaml.CSafeLoader] | None = (
    None if _CSafeLoader is None else type("Fast", (_ValueErrorsOnTheirLine, _CSafeLoader), {})
)


@dataclass
class YamlDocument:
    data: object
    key_lines: dict[str, int] = field(default_factory=dict)


def read(path: Path, name: str | None = None, *, limit: int = MAX_TEXT_BYTES) -> YamlDocument:
    """The YAML document in `path`, read through the one reader (named `name` in messages, default the
    path as given); a file that cannot be read is a YamlProblem too."""
    name = str(path) if name is None else name
    try:
        text = read_text(path, limit)
    except UnreadableFile as exc:
        raise YamlProblem(f"cannot be read: {exc.reason}", None, name) from None
    return load(text, name)


def load(text: str, name: str = "") -> YamlDocument:
    """Parse one YAML document; key_lines maps each top-level key to its 1-based line (the last one
    written, as a repeated key keeps its last value). `name`: the file it came from, for messages."""
    try:
        document = (
            _load_fast(text, _FastLoader) if _FastLoader is not None else _load(_NoAliasLoader(text), text)
        )
    except YamlProblem as exc:
        raise YamlProblem(exc.message, exc.line, name) from None
    if nesting.deeper_than(document.data):
        raise YamlProblem(
            f"nests more than {nesting.MAX_DEPTH} levels deep; keep it to plain keys and short lists",
            None,
            name,
        )
    return document


def _key_lines(loader, node) -> dict[str, int]:
    """Lines under the key as a check names it, str() of the loaded key: `1`, `None`, `2024-01-01`."""
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                lines[str(loader.construct_object(key_node))] = key_node.start_mark.line + 1
    return lines


def _load_fast(text: str, fast: type[yaml.CSafeLoader]) -> YamlDocument:
    if "&" not in text and "*" not in text:  # no anchor or alias without its indicator: skip the scan
        return _load(fast(text), text)
    try:
        for event in yaml.parse(text, Loader=fast):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise YamlProblem(_ALIAS_MESSAGE, event.start_mark.line + 1 if event.start_mark else None)
    except yaml.YAMLError:
        pass  # reported with its position by the loader below
    return _load(fast(text), text)


def _load(loader, text: str) -> YamlDocument:
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
        lines = _key_lines(loader, node)
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
    return YamlDocument(data=data, key_lines=lines)
