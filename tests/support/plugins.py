"""Repos packaged for `--install plugin`: skills alpha and beta and one host's marketplace of one plugin,
`demo`, packaging the skills named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.routing import skills_repo


def claude_packaged(root: Path, *skills: str) -> Path:
    """Skills alpha and beta, and a Claude Code marketplace whose one plugin `demo` packages `skills`."""
    repo = skills_repo(root, "alpha", "beta")
    (repo / ".claude-plugin").mkdir()
    market = {
        "name": "demo-market",
        "owner": {"name": "Example"},
        "plugins": [{"name": "demo", "source": "./", "skills": [f"./{s}" for s in skills]}],
    }
    (repo / ".claude-plugin" / "marketplace.json").write_text(json.dumps(market), encoding="utf-8")
    return repo
