"""The repo's quarantine file: well-formed, and no entry past its expiry date (from then on its case
gates again; the entry is stale and says a reason that may no longer hold)."""

from __future__ import annotations

from harness.checks import CheckOptions
from harness.model import findings, quarantine
from harness.model.catalog import Catalog
from harness.model.findings import Finding


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    try:
        held = quarantine.load(catalog.repo.root)
    except quarantine.QuarantineError as exc:
        return [findings.error("quarantine-invalid", exc.rel, exc.detail, exc.line)]
    return [
        findings.warning(
            "quarantine-expired",
            held.rel or quarantine.DEFAULT.as_posix(),
            f"the quarantine of case `{entry.id}` expired on {entry.expires.isoformat()} ({entry.reason}); "
            "it gates again: renew the entry with a new date and reason, or remove it",
            entry.line,
        )
        for entry in held.expired(quarantine.today())
    ]
