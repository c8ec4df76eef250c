"""The GitHub files under test, loaded once: workflows, example callers and action.yml."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
EXAMPLES = sorted((ROOT / "examples" / "workflows").glob("*.yml"))
ACTION = ROOT / "action.yml"
ALL_FILES = [*WORKFLOWS, *EXAMPLES, ACTION]
DOCS = ROOT / "docs" / "ci-reference.md"  # every workflow and action input

# What `skillscope select` prints (one line of JSON) and what each leg in it holds.
PLAN_KEYS = {
    "routing",
    "agents",
    "models",
    "model",
    "extended",
    "version",
    "default",
    "scoped",
    "skipped",
    "gates",
    "no_behavior",
    "unknown",
}
LEG_KEYS = {"skill", "os", "runner", "gate", "version", "environment", "agent", "model", "model_key"}


@cache
def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def triggers(doc: dict) -> dict:
    """The `on:` mapping; YAML 1.1 reads a bare `on` key as True."""
    on = doc.get("on", doc.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return dict.fromkeys(on)
    return on or {}


def jobs(doc: dict) -> dict:
    return doc.get("jobs") or {}


def steps(path: Path) -> Iterator[tuple[str, dict]]:
    """(job id, step) for every step of a workflow, or ("action", step) for action.yml."""
    doc = load(path)
    if path == ACTION:
        for step in doc["runs"]["steps"]:
            yield "action", step
        return
    for job_id, job in jobs(doc).items():
        for step in job.get("steps") or []:
            yield job_id, step


def walk(node, trail=()):
    """Every (path of keys, string value) in a loaded YAML tree."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, (*trail, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, (*trail, index))
    elif isinstance(node, str):
        yield trail, node
