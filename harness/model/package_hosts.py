"""What each host accepts in its manifests: the keys it knows, and which of its fields must be objects.

Claude Code's sets were measured on `claude plugin validate` 2.1.332 (a key outside them draws its
"Unknown field" warning, or "belongs in the marketplace entry"); Codex's are the fields its manifest and
marketplace readers deserialize plus those its plugin docs show; Copilot CLI's are its plugin reference's
tables."""

from __future__ import annotations

from harness.model.package import CLAUDE, CODEX, COPILOT, MARKETPLACE, PLUGIN

_CLAUDE_COMPONENTS = {
    "commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers", "userConfig",
    "channels", "dependencies", "settings", "monitors", "themes",
}  # fmt: skip
_CLAUDE_ABOUT = {
    "$schema", "name", "version", "description", "author", "homepage", "repository", "license", "keywords",
    "displayName", "network", "engines", "metadata",
}  # fmt: skip
_COPILOT_PLUGIN = {
    "name", "description", "version", "author", "homepage", "repository", "license", "keywords", "category",
    "tags", "agents", "skills", "commands", "hooks", "mcpServers", "lspServers",
}  # fmt: skip

# host -> manifest kind -> the keys it knows at the top level.
TOP_KEYS: dict[str, dict[str, frozenset[str]]] = {
    CLAUDE: {
        PLUGIN: frozenset(_CLAUDE_ABOUT | _CLAUDE_COMPONENTS | {"icon", "bugs"}),
        MARKETPLACE: frozenset(
            {"$schema", "name", "version", "description", "owner", "plugins", "metadata"}
            | {"allowCrossMarketplaceDependenciesOn", "forceRemoveDeletedPlugins"}
        ),
    },
    CODEX: {
        PLUGIN: frozenset(
            {
                "name",
                "version",
                "description",
                "keywords",
                "skills",
                "mcpServers",
                "apps",
                "hooks",
                "interface",
            }
            | {"author", "homepage", "repository", "license"}
        ),
        MARKETPLACE: frozenset({"name", "interface", "plugins"}),
    },
    COPILOT: {
        PLUGIN: frozenset(_COPILOT_PLUGIN),
        MARKETPLACE: frozenset({"name", "owner", "plugins", "metadata"}),
    },
}
# host -> the keys a marketplace's plugin entry knows.
ENTRY_KEYS: dict[str, frozenset[str]] = {
    CLAUDE: frozenset(_CLAUDE_ABOUT | _CLAUDE_COMPONENTS | {"source", "strict", "category", "tags"}),
    CODEX: frozenset({"name", "source", "policy", "category"}),
    COPILOT: frozenset(_COPILOT_PLUGIN | {"source", "strict"}),
}
# The fields each host documents as an object (`author` as a plain string is the common slip).
OBJECT_FIELDS: dict[str, dict[str, frozenset[str]]] = {
    CLAUDE: {PLUGIN: frozenset({"author"}), MARKETPLACE: frozenset({"owner"})},
    CODEX: {PLUGIN: frozenset({"author", "interface"}), MARKETPLACE: frozenset()},
    COPILOT: {PLUGIN: frozenset({"author"}), MARKETPLACE: frozenset({"owner"})},
}
ENTRY_OBJECT_FIELDS: dict[str, frozenset[str]] = {
    CLAUDE: frozenset({"author"}),
    CODEX: frozenset({"policy"}),  # `source` may be a path string (measured on codex 0.169) or an object
    COPILOT: frozenset({"author"}),
}
# Whether a path in the host's manifests must be written `./…` (Claude refuses it, Codex drops it
# silently; Copilot CLI's own examples write `skills/`).
NEEDS_DOT_SLASH = {CLAUDE: True, CODEX: True, COPILOT: False}
LABELS = {CLAUDE: "Claude Code", CODEX: "Codex", COPILOT: "Copilot CLI"}
