"""harness.authoring.home: the project's one home, read from the metadata of the copy that runs, else from the
pyproject.toml beside a checkout's package; the launcher, which may import nothing, reads the same."""

from __future__ import annotations

import importlib.util
import sys
from importlib import metadata
from pathlib import Path

import pytest

from harness import __version__
from harness.authoring import home
from harness.errors import HarnessError

ROOT = Path(__file__).resolve().parents[2]
if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]


def launcher():
    spec = importlib.util.spec_from_file_location("skillscope_launch_home", ROOT / "action" / "launch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_checkout_reads_the_source_url_its_pyproject_declares():
    assert home.source_url() == DECLARED["Source"]
    assert home.repository() == DECLARED["Source"].removeprefix("https://github.com/")
    assert home.release_tag() == f"v{__version__}"


def test_every_project_url_lives_under_the_one_home():
    assert all(url.startswith(DECLARED["Source"]) for url in DECLARED.values()), DECLARED


def test_the_launcher_reads_the_same_home_without_importing_a_toml_parser():
    assert home.source_url() == launcher().DEFAULT_SOURCE


def test_the_launcher_reads_only_the_project_urls_table(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[tool.other]\nSource = "https://example.invalid/wrong"\n\n'
        "[project.urls]  # where it lives\n"
        "Homepage = 'https://example.invalid/a'\n"
        'Source = "https://example.invalid/a"  # the home\n'
    )
    assert launcher().declared_home(pyproject) == "https://example.invalid/a"
    assert launcher().declared_home(tmp_path / "missing.toml") is None


def test_without_a_home_the_launcher_asks_for_a_source(monkeypatch):
    launch = launcher()
    monkeypatch.setattr(launch, "DEFAULT_SOURCE", None)
    with pytest.raises(launch.LaunchError, match="set SKILLSCOPE_SOURCE"):
        launch.source_url(None, {})


class FakeDistribution:
    """What home reads of a distribution: where it put the package, and its Project-URL entries."""

    def __init__(self, located: Path, urls: list[str]):
        self.located, self.urls = located, urls
        self.metadata = self

    def locate_file(self, name: str) -> Path:
        return self.located / name

    def get_all(self, key: str) -> list[str]:
        return self.urls if key == "Project-URL" else []


def test_an_installed_copy_reads_its_own_metadata(monkeypatch):
    installed = FakeDistribution(
        home.PACKAGE.parent, ["Homepage, https://x.invalid", "Source, https://x.invalid/y"]
    )
    monkeypatch.setattr(metadata, "distribution", lambda name: installed)
    assert home.source_url() == "https://x.invalid/y"


def test_metadata_of_another_copy_is_passed_over(monkeypatch, tmp_path):
    """An editable install elsewhere, or a checkout on PYTHONPATH: its metadata is not this copy's."""
    elsewhere = FakeDistribution(tmp_path, ["Source, https://x.invalid/elsewhere"])
    monkeypatch.setattr(metadata, "distribution", lambda name: elsewhere)
    assert home.source_url() == DECLARED["Source"]


def test_no_home_at_all_is_one_sentence(monkeypatch, tmp_path):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    monkeypatch.setattr(home, "PACKAGE", tmp_path / "harness")
    with pytest.raises(HarnessError, match="declares a Source URL; reinstall the harness"):
        home.source_url()


def test_a_home_off_github_cannot_make_a_uses_line(monkeypatch):
    monkeypatch.setattr(home, "source_url", lambda: "https://git.example.invalid/a/b")
    with pytest.raises(HarnessError, match="not a GitHub repository"):
        home.repository()
