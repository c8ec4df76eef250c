"""Members of loaded JSON whose shape nothing guarantees (a report, an agent's event): the member when it
is of the kind asked for, else an empty one, so a reader walks on instead of checking each step."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag without importing typing, which these need only for annotations
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def object_at(data: Mapping[str, object], key: str) -> dict[str, Any]:
    """`data[key]` when it is a JSON object, else {}."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def array_at(data: Mapping[str, object], key: str) -> list[Any]:
    """`data[key]` when it is a JSON array, else []."""
    value = data.get(key)
    return value if isinstance(value, list) else []


def objects_at(data: Mapping[str, object], key: str) -> list[dict[str, Any]]:
    """The JSON objects in the array `data[key]`, any other item left out; [] when it is no array."""
    return [item for item in array_at(data, key) if isinstance(item, dict)]
