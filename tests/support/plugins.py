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


def codex_packaged(root: Path, *skills: str) -> Path:
    """Skills alpha and beta, and a Codex marketplace whose one plugin `demo`, the repo itself, packages
    `skills`."""
    repo = skills_repo(root, "alpha", "beta")
    (repo / ".codex-plugin").mkdir()
    plugin = {
        "name": "demo",
        "version": "1.0.0",
        "description": "Demo skills.",
        "skills": [f"./{s}" for s in skills],
    }
    (repo / ".codex-plugin" / "plugin.json").write_text(json.dumps(plugin), encoding="utf-8")
    (repo / ".agents" / "plugins").mkdir(parents=True)
    market = {
        "name": "demo-market",
        "plugins": [{"name": "demo", "source": {"source": "local", "path": "./"}}],
    }
    (repo / ".agents" / "plugins" / "marketplace.json").write_text(json.dumps(market), encoding="utf-8")
    return repo


def copilot_packaged(root: Path, *skills: str) -> Path:
    """Skills alpha and beta, and a Copilot CLI marketplace whose one plugin `demo`, the repo itself
    (its root plugin.json), packages `skills`."""
    repo = skills_repo(root, "alpha", "beta")
    plugin = {"name": "demo", "version": "1.0.0", "description": "Demo skills.", "skills": list(skills)}
    (repo / "plugin.json").write_text(json.dumps(plugin), encoding="utf-8")
    (repo / ".github" / "plugin").mkdir(parents=True)
    market = {
        "name": "demo-market",
        "owner": {"name": "Example"},
        "plugins": [{"name": "demo", "source": "./", "description": "Demo skills.", "version": "1.0.0"}],
    }
    (repo / ".github" / "plugin" / "marketplace.json").write_text(json.dumps(market), encoding="utf-8")
    return repo
