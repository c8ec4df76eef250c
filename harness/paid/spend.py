"""What a paid run has spent, what its cache saved, and the cap past which no new case starts."""

from __future__ import annotations

import threading

NOT_RUN = "not-run"  # a case the run never started: never a pass, never a fail


class RunBudget:
    """Spend of one run across its worker threads; `--max-run-usd` (0 or None: no cap)."""

    def __init__(self, cap_usd: float | None = None):
        self.cap = cap_usd or None
        self.spent = 0.0
        self.saved = 0.0
        self._lock = threading.Lock()

    def charge(self, cost_usd: float | None) -> None:
        """Add what a finished agent or judge run cost (None: the CLI did not say)."""
        if cost_usd:
            with self._lock:
                self.spent += cost_usd

    def reuse(self, cost_usd: float | None) -> None:
        """Count what a cached sample cost when it was made: money this run did not spend."""
        if cost_usd:
            with self._lock:
                self.saved += cost_usd

    @property
    def reached(self) -> bool:
        return self.cap is not None and self.spent >= self.cap

    def not_run_reason(self) -> str:
        return (
            f"not run: the run had spent ${self.spent:.4f}, reaching its --max-run-usd of "
            f"${self.cap:g}; raise the cap or select fewer cases"
        )
