"""--dry-run: what a paid run would run, how, and roughly what it would cost, with nothing sent.

The estimate counts samples the result cache already holds as free, and prices the others at the
mean of the cached ones, the only honest figure there is before anything ran.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Figures:
    """What one cached sample spent when it was made."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None


@dataclass
class Estimate:
    samples: int = 0  # every sample the run would take (the most, with adaptive repeats)
    cached: list[Figures] = field(default_factory=list)
    # The fewest model requests of one sample (an agent's mean where it varies), and the most (None: an
    # agent's work has no set bound).
    requests_per_sample: tuple[float, int | None] = (1, 1)
    # What one sample can spend at most, where the agent's CLI enforces a cap per run (None: no cap).
    run_cap_usd: float | None = None
    canaries: int = 0  # how many of `samples` are a canary's, not a case's

    @property
    def to_run(self) -> int:
        return self.samples - len(self.cached)

    def add_canary(self, replay: Figures | None) -> None:
        """One more sample, the canary's, priced like a case's; `replay`: its cached figures, if any."""
        self.samples += 1
        self.canaries += 1
        self.cached += [replay] if replay else []

    def counted(self) -> str:
        """`75 sample(s), 1 of them the canary`: a count beside the cases' says what it holds beyond them."""
        if not self.canaries:
            return f"{self.samples} sample(s)"
        which = "the canary" if self.canaries == 1 else "canaries"
        return f"{self.samples} sample(s), {self.canaries} of them {which}"

    def lines(self) -> list[str]:
        fewest, most = self.requests_per_sample
        cached_cost = sum(f.cost_usd or 0.0 for f in self.cached)
        out = [
            f"Estimate: {self.counted()}; {len(self.cached)} from the result cache "
            f"(${cached_cost:.4f} when they were made, free now); {self.to_run} to run."
        ]
        if not self.to_run:
            return out + ["Model requests: 0."]
        expected = round(self.to_run * fewest)
        if most == fewest:
            out.append(f"Model requests: {expected}.")
        elif most is None:
            out.append(
                f"Model requests: at least {expected} ({fewest:g} per case; the agent's work takes more)."
            )
        else:
            out.append(
                f"Model requests: about {expected} ({fewest:g} per sample that decides on its "
                f"first turn, at most {self.to_run * most})."
            )
        ceiling = ceiling_line(self.to_run, self.run_cap_usd)
        if not self.cached:
            said = "Tokens and cost: unknown until a sample has run (the cache holds none yet)."
            return out + [said] + ([ceiling] if ceiling else [])
        n = len(self.cached)
        tokens_in = sum(f.input_tokens for f in self.cached) / n * self.to_run
        tokens_out = sum(f.output_tokens for f in self.cached) / n * self.to_run
        priced = [f.cost_usd for f in self.cached if f.cost_usd is not None]
        cost = f"${sum(priced) / len(priced) * self.to_run:.4f}" if priced else "unknown"
        return (
            out
            + [
                f"Tokens and cost: about {tokens_in:.0f} in, {tokens_out:.0f} out, {cost} "
                f"(the mean of the {n} cached sample(s))."
            ]
            + ([ceiling] if ceiling else [])
        )


def ceiling_line(samples: int, run_cap_usd: float | None) -> str | None:
    """About the most `samples` can cost when the agent stops each run once past `run_cap_usd` (it checks
    after each response, so a run can pass the cap by its last request); None without a cap."""
    if not run_cap_usd or not samples:
        return None
    return (
        f"Cost ceiling: about ${samples * run_cap_usd:.2f} ({samples} sample(s), each stopped by the agent "
        f"once past --max-budget-usd ${run_cap_usd:g}, which its last model request can overshoot); "
        "--max-run-usd caps the whole run."
    )


def command_text(argv: Sequence[str], env: Mapping[str, str]) -> str:
    """A shell line a person can read and paste: the changed environment, then the command."""
    assignments = [f"{name}={shlex.quote(value)}" for name, value in sorted(env.items())]
    return " ".join([*assignments, shlex.join(argv)])
