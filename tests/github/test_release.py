"""The release: a tag v<version> of harness.__version__ is built, checked, published by trusted
publishing and released on GitHub with its CHANGELOG.md section; .github/scripts/release.py does the
two checks, and CHANGELOG.md keeps the layout it reads."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest

from harness import __version__
from tests.support.yamlfiles import ROOT, WORKFLOWS, jobs, load, triggers

SCRIPT = ROOT / ".github" / "scripts" / "release.py"
RELEASE = next(p for p in WORKFLOWS if p.name == "release.yml")
CHANGELOG = """# Changelog

## [Unreleased]

### Added

- Something new.

## [0.2.0] - 2027-01-31

### Fixed

- `compare --reports` on lexical reports.

## [0.1.0] - 2026-12-31

- The first release.

[Unreleased]: https://example.invalid/compare/v0.2.0...HEAD
[0.2.0]: https://example.invalid/releases/v0.2.0
"""


def script():
    spec = importlib.util.spec_from_file_location("skillscope_release", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release = script()


def run_script(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=60)


def test_the_tag_of_this_version_passes_and_any_other_is_one_error():
    done = run_script("check-tag", f"v{__version__}")
    assert done.returncode == 0, done.stderr
    other = run_script("check-tag", "v99.0.0")
    assert other.returncode == 1
    assert other.stderr.startswith("::error title=release::the tag v99.0.0 does not release")
    assert run_script("check-tag", __version__).returncode == 1  # the tag carries its v


def test_notes_are_the_versions_section_alone():
    assert release.notes(CHANGELOG, "0.2.0") == "### Fixed\n\n- `compare --reports` on lexical reports.\n"
    assert release.notes(CHANGELOG, "0.1.0") == "- The first release.\n"  # link definitions dropped
    assert release.notes(CHANGELOG, "Unreleased").startswith("### Added")


def test_a_version_without_a_section_or_with_an_empty_one_stops_the_release():
    with pytest.raises(release.ReleaseError, match=r"no `## \[0.3.0\]` section; rename `## \[Unreleased\]`"):
        release.notes(CHANGELOG, "0.3.0")
    with pytest.raises(release.ReleaseError, match="is empty"):
        release.notes("## [0.3.0] - 2027-02-01\n\n## [0.2.0]\n\n- x\n", "0.3.0")


def test_the_changelog_keeps_the_layout_the_script_reads():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert versions[0] == "Unreleased"
    assert release.notes(text, "Unreleased")
    for version in versions[1:]:
        assert re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d\d-\d\d$", text, re.M), version
        assert release.notes(text, version)


def test_the_release_runs_on_version_tags_only():
    assert triggers(load(RELEASE)) == {"push": {"tags": ["v*"]}}


def test_the_tag_and_the_notes_are_checked_before_anything_is_built():
    steps = jobs(load(RELEASE))["build"]["steps"]
    runs = [step.get("run", "") for step in steps]
    order = [
        next(i for i, run in enumerate(runs) if needle in run)
        for needle in ("release.py check-tag", "release.py notes", "-m build", "twine check")
    ]
    assert order == sorted(order)


def test_publishing_is_trusted_publishing_in_the_pypi_environment():
    publish = jobs(load(RELEASE))["publish"]
    assert publish["environment"] == "pypi"
    (action,) = [
        step["uses"] for step in publish["steps"] if "gh-action-pypi-publish" in step.get("uses", "")
    ]
    assert re.fullmatch(r"pypa/gh-action-pypi-publish@[0-9a-f]{40}", action)  # the one job with a token
    text = RELEASE.read_text(encoding="utf-8")
    assert "secrets." not in text and "password" not in text


def test_the_github_release_carries_the_files_and_the_notes():
    job = jobs(load(RELEASE))["github-release"]
    assert job["needs"] == "publish"
    (create,) = [step["run"] for step in job["steps"] if "gh release create" in step.get("run", "")]
    assert '"$TAG" dist/*' in create and "--notes-file notes/notes.md" in create and "--verify-tag" in create


def test_the_release_tools_are_pinned():
    lines = (ROOT / "requirements-release.txt").read_text(encoding="utf-8").splitlines()
    pins = [line for line in lines if line.strip() and not line.startswith("#")]
    assert {pin.split("==")[0] for pin in pins} >= {"build", "twine"}
    assert all(re.fullmatch(r"[\w-]+==[\w.]+", pin) for pin in pins), pins
    build = jobs(load(RELEASE))["build"]["steps"]
    assert any("-r requirements-release.txt" in step.get("run", "") for step in build)
