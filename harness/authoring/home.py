"""Where skillscope lives and which tag this version is: what `init` and the docs tell users to pin.

The home is declared once, as the `Source` URL of pyproject.toml's [project.urls]. An installed
harness reads it from its distribution's metadata (Project-URL); a source checkout, whose metadata
may belong to another copy, reads the pyproject.toml beside its package.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from harness import __version__, tomlsafe
from harness.errors import HarnessError

DISTRIBUTION = "skillscope-harness"
PACKAGE = Path(__file__).resolve().parents[1]  # the harness package
GITHUB = re.compile(r"^https://github\.com/(?P<repository>[\w.-]+/[\w.-]+?)(?:\.git)?/?$")


def source_url() -> str:
    """The project's home, such as https://github.com/owner/name."""
    found = _from_metadata() or _from_pyproject(PACKAGE.parent / "pyproject.toml")
    if not found:
        raise HarnessError(
            f"cannot tell where skillscope lives: neither the {DISTRIBUTION} metadata of this copy nor a "
            "pyproject.toml beside it declares a Source URL; reinstall the harness."
        )
    return found


def repository() -> str:
    """The home as GitHub's owner/name, the form a workflow's `uses:` line takes."""
    url = source_url()
    match = GITHUB.match(url)
    if not match:
        raise HarnessError(f"the Source URL {url} is not a GitHub repository, which `uses:` lines need.")
    return match["repository"]


def release_tag() -> str:
    """The git tag of this version, which workflows and pre-commit pin."""
    return f"v{__version__}"


def _from_metadata() -> str | None:
    """Project-URL `Source` of the installed distribution, when this very package is what it installed."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    # An editable install, or a checkout on PYTHONPATH beside another install, is not this copy.
    if Path(str(dist.locate_file("harness/authoring/home.py"))).resolve() != Path(__file__).resolve():
        return None
    return source_of(dist.metadata.get_all("Project-URL") or [])


def source_of(project_urls: list[str]) -> str | None:
    """The URL labelled Source among `Label, URL` entries of core metadata."""
    for entry in project_urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "source" and url.strip():
            return url.strip()
    return None


def _from_pyproject(path: Path) -> str | None:
    try:
        project = tomlsafe.load(path).get("project", {})
    except tomlsafe.TomlProblem:
        return None
    if project.get("name") != DISTRIBUTION:
        return None  # some other project's pyproject.toml, not this checkout's
    source = project.get("urls", {}).get("Source")
    return source if isinstance(source, str) and source.strip() else None
