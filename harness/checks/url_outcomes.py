"""What became of an external URL, as a `refs` report counts it: apart from the HTTP checker, so that a
result reading them loads no network code."""

from __future__ import annotations

OK = "ok"
CACHED = "cached"
EXCLUDED = "excluded"
BROKEN = "broken"
UNCHECKED = "unchecked"
