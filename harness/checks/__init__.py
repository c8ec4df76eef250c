"""Deterministic checks. Each module exposes `check(catalog, options) -> list[Finding]`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from harness.model.catalog import Catalog
from harness.model.findings import Finding

COLLISION_WARN = 0.50
COLLISION_ERROR = 0.75


@dataclass(frozen=True)
class CheckOptions:
    """The flags that tune the structural checks; the defaults are the gate's."""

    skill_files: tuple[str, ...] = ()
    skill_sections: tuple[str, ...] = ()
    docs: tuple[str, ...] = ()
    collision_warn: float = COLLISION_WARN
    collision_error: float = COLLISION_ERROR
    # listing-budget: the agents whose listing is predicted (none: the check is off, as in the gate of a
    # paid run) and the routing room, predicted beside the whole catalog.
    listing_agents: tuple[str, ...] = ()
    listing_room: tuple[str, ...] = ()
    # agent -> the models its listing is predicted for (an agent not here: its CLI's own model).
    listing_models: tuple[tuple[str, str], ...] = ()
    # packaging: the repo's plugin and marketplace manifests (structural and baseline; a paid run's gate
    # checks only the skills it uses).
    packaging: bool = False
    # headroom: the skills a typical install has beside the catalog, as (name, description), and the
    # --typical-install value they came from (none: only the catalog as it is).
    install: tuple[tuple[str, str], ...] = ()
    install_source: str = ""
    # headroom and listing order: how often users use each skill (--usage), as (name, uses, days since
    # the last use), and the file it came from; a skill not named was never used, the worst case.
    usage: tuple[tuple[str, int, float], ...] = ()
    usage_source: str = ""


class Check(Protocol):
    def __call__(self, catalog: Catalog, options: CheckOptions) -> list[Finding]: ...
