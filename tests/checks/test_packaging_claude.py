"""The pinned `claude plugin validate` is the oracle for Claude Code's side of the packaging corpus: on every
case holding a Claude manifest it says what case.json records (fail: exit 1; warn: only `--strict` exits
1; pass), so our verdict, checked against the same record in test_packaging, agrees with the CLI's except
where case.json says why not (docs/packaging.md lists those cases)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.checks.packaging_support import CASES, CATALOGS, meta, staged
from tests.fakeapi.cli import hermetic_env

CLAUDE_CASES = [case for case in CASES if "claude_validate" in meta(case)]
# validate reads files only; nothing listens here, so any request it tried would fail the case.
NO_API = "http://127.0.0.1:9"


def validate(claude: str, folder: Path, scratch: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [claude, "plugin", "validate", *flags, str(folder)],
        env=hermetic_env(NO_API, scratch),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def outcome(claude: str, folder: Path, scratch: Path) -> str:
    if validate(claude, folder, scratch).returncode:
        return "fail"
    return "warn" if validate(claude, folder, scratch, "--strict").returncode else "pass"


def test_every_claude_shaped_mutation_is_in_the_oracle_set():
    claude_rules = {e["rule"] for case in CLAUDE_CASES for e in meta(case)["expect"] if e["host"] == "claude"}
    assert len(CLAUDE_CASES) >= 15 and len(claude_rules) >= 10


@pytest.mark.parametrize("case", CLAUDE_CASES)
def test_claude_plugin_validate_says_what_the_case_records(case, claude_bin, tmp_path):
    root = staged(case, tmp_path / "repo")
    assert outcome(claude_bin, root, tmp_path / "scratch") == meta(case)["claude_validate"]


@pytest.mark.parametrize("shape", sorted(p.name for p in CATALOGS.iterdir()))
def test_the_catalog_shapes_pass_claude_plugin_validate(shape, claude_bin, tmp_path):
    assert validate(claude_bin, CATALOGS / shape, tmp_path).returncode == 0


def test_a_marketplace_entry_naming_a_file_passes_validate_and_fails_the_install(claude_bin, tmp_path):
    """Why our error stands where validate passes: validate checks the marketplace file, and the plugin
    it lists fails to load its skills once installed."""
    root = staged("claude-entry-skills-entry-file", tmp_path / "repo")
    env = hermetic_env(NO_API, tmp_path / "scratch")

    def claude(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [claude_bin, "plugin", *args], env=env, capture_output=True, text=True, timeout=300, check=False
        )

    assert claude("marketplace", "add", str(root)).returncode == 0
    assert claude("install", "demo@demo-market").returncode == 0
    listed = json.loads(claude("list", "--json").stdout)
    (plugin,) = [p for p in listed if p["id"] == "demo@demo-market"]
    assert any("./skills/alpha/SKILL.md" in error for error in plugin.get("errors", []))
