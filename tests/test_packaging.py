"""The release artefacts: `python -m build` makes an sdist and a wheel that install into a fresh venv and run.

Offline by construction: the build runs without isolation (its backend is pinned in
requirements-dev.txt), the wheel installs with --no-index --no-deps, and the fresh venv sees the
runtime dependencies already installed here through a .pth file, so `pip check` still proves the
wheel's declared ranges are met by them.
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.support.working_tree import tracked_copy

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "skillscope-harness"

# The sdist and wheel are built once for the module, in one worker.
pytestmark = [pytest.mark.venv, pytest.mark.xdist_group("packaging")]


def quiet_pip_env() -> dict[str, str]:
    """No machine pip configuration: the install below must need nothing but what it is given."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "SKILLSCOPE_"))}
    environ["PIP_CONFIG_FILE"] = os.devnull
    return environ


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory) -> dict[str, Path]:
    source = tracked_copy(tmp_path_factory.mktemp("checkout"))
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        check=True,
        capture_output=True,
        env=quiet_pip_env(),
    )
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return {"source": source, "wheel": wheel, "sdist": sdist}


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_the_metadata_is_fit_for_a_package_index(artefacts):
    meta = wheel_metadata(artefacts["wheel"])
    assert meta["Name"] == DISTRIBUTION
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.10"
    assert "Programming Language :: Python :: 3.13" in meta.get_all("Classifier")
    assert any(url.startswith("Source, ") for url in meta.get_all("Project-URL"))
    assert meta.get_payload().startswith("# skillscope")  # the README is the long description
    for requirement in map(Requirement, meta.get_all("Requires-Dist")):
        assert not any(spec.operator == "==" for spec in requirement.specifier), requirement


def test_the_pins_of_requirements_txt_fall_within_the_declared_ranges(artefacts):
    declared = {
        Requirement(r).name.lower(): Requirement(r)
        for r in wheel_metadata(artefacts["wheel"]).get_all("Requires-Dist")
    }
    lines = (line.split("#", 1)[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines())
    pinned = [Requirement(line) for line in lines if line]
    assert {r.name.lower() for r in pinned} == set(declared)
    for pin in pinned:
        (version,) = (spec.version for spec in pin.specifier)
        assert declared[pin.name.lower()].specifier.contains(version), (
            f"{pin} is outside {declared[pin.name.lower()]}"
        )


def test_the_sdist_carries_what_the_wheel_is_built_from(artefacts):
    with tarfile.open(artefacts["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "pyproject.toml"} <= names
    shipped = {f"harness/data/{p.name}" for p in (ROOT / "harness" / "data").iterdir() if p.is_file()}
    assert shipped <= names, shipped - names
    assert "harness/schema/evals.schema.json" in names


def test_the_wheel_carries_every_data_file_and_schema(artefacts):
    with zipfile.ZipFile(artefacts["wheel"]) as archive:
        names = set(archive.namelist())
    for folder in ("data", "schema"):
        files = {f"harness/{folder}/{p.name}" for p in (ROOT / "harness" / folder).iterdir() if p.is_file()}
        assert files and files <= names, files - names


def test_the_wheel_installs_into_a_fresh_venv_and_runs_the_main_job(artefacts, tmp_path):
    env_dir = tmp_path / "venv"
    # No pip seeded into it (ensurepip is most of a venv's CPU): this interpreter's pip runs under the
    # venv's python (`--python`), so the install and `pip check` still see that venv alone.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
    )
    (site / "runtime-deps.pth").write_text("\n".join(sorted(dependency_dirs(artefacts["wheel"]))) + "\n")
    environ = quiet_pip_env()
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "install", "--quiet", "--no-index", "--no-deps", str(artefacts["wheel"])],
        check=True,
        env=environ,
    )
    subprocess.run([*pip, "check"], check=True, env=environ, capture_output=True)

    where = subprocess.check_output(
        [python, "-c", "import harness; print(harness.__file__)"], text=True, env=environ, cwd=tmp_path
    )
    assert Path(where.strip()).is_relative_to(site)
    skillscope = str(env_dir / "bin" / "skillscope")
    version = subprocess.run(
        [skillscope, "--version"], capture_output=True, text=True, env=environ, check=True
    )
    assert version.stdout.startswith("skillscope ")
    done = subprocess.run(
        [
            skillscope,
            "structural",
            "--skills-dir",
            "examples/skills/*",
            "--skill-files",
            "skill-card.md",
            "--skill-sections",
            "Description,Owner,License",
            "--output",
            str(tmp_path / "report.json"),
        ],
        cwd=artefacts["source"],
        capture_output=True,
        text=True,
        env=environ,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 skill(s)" in done.stdout

    # Installed, the harness has no pyproject.toml beside it: init reads the home from the metadata.
    adopter = tmp_path / "adopter"
    adopter.mkdir()
    init = subprocess.run([skillscope, "init"], cwd=adopter, capture_output=True, text=True, env=environ)
    assert init.returncode == 0, init.stdout + init.stderr
    source = next(
        url for url in wheel_metadata(artefacts["wheel"]).get_all("Project-URL") if url.startswith("Source")
    )
    repository = source.split(", ", 1)[1].removeprefix("https://github.com/")
    workflow = (adopter / ".github" / "workflows" / "skills.yml").read_text()
    assert (
        f"uses: {repository}/.github/workflows/reusable.yml@v{meta_version(artefacts['wheel'])}" in workflow
    )


def meta_version(wheel: Path) -> str:
    return wheel_metadata(wheel)["Version"]


def dependency_dirs(wheel: Path) -> set[str]:
    """Where this interpreter holds each runtime dependency the wheel declares for it."""
    folders = set()
    for requirement in map(Requirement, wheel_metadata(wheel).get_all("Requires-Dist")):
        if requirement.marker is None or requirement.marker.evaluate():
            folders.add(str(metadata.distribution(requirement.name).locate_file("")))
    return folders
