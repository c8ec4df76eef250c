"""Deterministic checks. Each module exposes `check(catalog, options) -> list[Finding]`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from harness.model.catalog import Catalog
from harness.model.findings import Finding


@dataclass(frozen=True)
class CheckOptions:
    skill_files: tuple[str, ...] = ()
    skill_sections: tuple[str, ...] = ()
    docs: tuple[str, ...] = ()


class Check(Protocol):
    def __call__(self, catalog: Catalog, options: CheckOptions) -> list[Finding]: ...
