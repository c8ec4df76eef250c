"""How the external URL check fetches, apart from the checker: building a command's flags and their
defaults loads no HTTP code."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError


@dataclass(frozen=True)
class ExternalOptions:
    """How external URLs are fetched; built once from the flags a command declared."""

    # Hosts at once. Threads wait on the network, not the CPU: well above the core count, so a
    # repo's hosts fit in one round and the run takes about as long as its busiest host.
    jobs: int = 64
    request_timeout_s: float = 15.0
    retries: int = 2
    backoff_s: float = 1.0
    max_redirects: int = 10
    exclude: tuple[str, ...] = ()
    cache_path: Path | None = None
    cache_max_age_s: float = 86400.0

    def checked(self) -> ExternalOptions:
        """The same options, or a UsageError naming the flag whose value cannot work."""
        if self.jobs < 1:
            raise UsageError(f"--jobs is {self.jobs}; pass 1 or more.")
        if self.retries < 0:
            raise UsageError(f"--retries is {self.retries}; pass 0 or more.")
        if self.request_timeout_s <= 0:
            raise UsageError(
                f"--request-timeout is {self.request_timeout_s:g}; pass a positive number of seconds."
            )
        if self.cache_max_age_s < 0:
            raise UsageError(f"--cache-max-age is {self.cache_max_age_s:g}; pass 0 or more seconds.")
        return self
