"""The release workflow's two checks, standard library only (it runs before anything is installed).

    python .github/scripts/release.py check-tag v0.2.0   # the tag is harness.__version__, or exit 1
    python .github/scripts/release.py notes v0.2.0       # that version's CHANGELOG.md section, or exit 1

CHANGELOG.md keeps the Keep a Changelog layout: one `## [0.2.0] - 2027-01-31` heading per release,
newest first, under `## [Unreleased]`, with link definitions (`[0.2.0]: https://...`) at the end.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.compile(r"^__version__\s*=\s*[\"']([^\"']+)[\"']", re.M)
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\]", re.M)
LINK_DEFINITION = re.compile(r"^\[[^\]]+\]:\s*\S+\s*$")


class ReleaseError(Exception):
    """Why this tag cannot be released; printed as a GitHub error annotation."""


def package_version(root: Path = ROOT) -> str:
    found = VERSION.search((root / "harness" / "__init__.py").read_text(encoding="utf-8"))
    if not found:
        raise ReleaseError("harness/__init__.py sets no __version__.")
    return found.group(1)


def check_tag(tag: str, root: Path = ROOT) -> str:
    """The version a tag releases; an error unless the tag is `v` + harness.__version__."""
    version = package_version(root)
    if tag != f"v{version}":
        raise ReleaseError(
            f"the tag {tag} does not release harness.__version__ {version}: tag v{version}, or set "
            "__version__ in harness/__init__.py (and the pins the tests list) and tag again."
        )
    return version


def notes(changelog: str, version: str) -> str:
    """The body of `## [version]` in a changelog, without its heading or the link definitions."""
    headings = list(HEADING.finditer(changelog))
    for index, heading in enumerate(headings):
        if heading["version"] != version:
            continue
        end = headings[index + 1].start() if index + 1 < len(headings) else len(changelog)
        lines = changelog[heading.end() : end].splitlines()[1:]  # the rest of the heading line is its date
        body = "\n".join(line for line in lines if not LINK_DEFINITION.match(line)).strip()
        if not body:
            raise ReleaseError(
                f"CHANGELOG.md's section for {version} is empty; say what the release changes."
            )
        return body + "\n"
    raise ReleaseError(
        f"CHANGELOG.md has no `## [{version}]` section; rename `## [Unreleased]` to "
        f"`## [{version}] - <date>` and open a new Unreleased section above it."
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("check-tag", "notes"):
        print(__doc__, file=sys.stderr)
        return 2
    command, tag = argv
    try:
        version = check_tag(tag) if command == "check-tag" else tag.removeprefix("v")
        if command == "notes":
            sys.stdout.write(notes((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), version))
        else:
            print(f"{tag} releases skillscope-harness {version}")
    except ReleaseError as exc:
        print(f"::error title=release::{exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
