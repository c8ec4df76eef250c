"""The runs-on labels a leg asks for: a GitHub-hosted image for its platform, or self-hosted labels + the OS.

GitHub-hosted runners are addressed by one image label and carry no other, while a self-hosted runner
carries `self-hosted` and its OS (`Linux`, `Windows`, `macOS`) among its default labels. So the OS is
appended only to self-hosted labels; a hosted leg gets the image of its own platform instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from harness.errors import HarnessError, UsageError

# Image label families of GitHub-hosted runners (ubuntu-latest, ubuntu-24.04-arm, windows-2025, macos-15...).
HOSTED_FAMILIES = {"ubuntu-": "Linux", "windows-": "Windows", "macos-": "macOS"}
DEFAULT_IMAGES = {"Linux": "ubuntu-latest", "Windows": "windows-latest", "macOS": "macos-latest"}
SELF_HOSTED = "self-hosted"


def parse_hosted_images(text: str | None, flag: str = "--hosted-images") -> dict[str, str]:
    """`Linux=ubuntu-24.04,macOS=macos-15` or a JSON object, over the defaults; blank means the defaults."""
    images = dict(DEFAULT_IMAGES)
    if text is None or not text.strip():
        return images
    for platform, label in _pairs(text.strip(), flag):
        if not platform.strip() or not label.strip() or "," in label:
            raise UsageError(
                f"{flag}: '{platform}={label}' needs a platform and one runner label, such as "
                "Linux=ubuntu-24.04."
            )
        known = {name.lower(): name for name in images}
        images[known.get(platform.strip().lower(), platform.strip())] = label.strip()
    return images


def _pairs(text: str, flag: str) -> list[tuple[str, str]]:
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"{flag}: invalid JSON ({exc.msg}, column {exc.colno}); pass an object such as "
                '{"Linux": "ubuntu-24.04"}, or Linux=ubuntu-24.04.'
            ) from None
        if not all(isinstance(value, str) for value in data.values()):
            raise UsageError(
                f'{flag}: each platform maps to one label string, such as {{"Linux": "ubuntu-24.04"}}.'
            )
        return list(data.items())
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        platform, sep, label = item.partition("=")
        if not sep:
            raise UsageError(f"{flag}: '{item}' is not PLATFORM=LABEL; pass e.g. Linux=ubuntu-24.04.")
        pairs.append((platform, label))
    return pairs


def hosted_platform(label: str, images: Mapping[str, str]) -> str | None:
    """The platform a GitHub-hosted image label runs, or None when the label is not a hosted image."""
    for platform, image in images.items():
        if image.lower() == label.lower():
            return platform
    return next(
        (platform for prefix, platform in HOSTED_FAMILIES.items() if label.lower().startswith(prefix)), None
    )


def runs_on(labels: Iterable[str], os_name: str, images: Mapping[str, str], where: str) -> list[str]:
    """One leg's runs-on labels on `os_name`, from its base labels plus any hardware labels it asks for.

    `where` names what chose the labels (a machine.yml, a flag) for the error when they can never match.
    """
    labels = unique(labels)
    hosted = [label for label in labels if hosted_platform(label, images)]
    if not hosted or SELF_HOSTED in {label.lower() for label in labels}:
        return unique([*labels, os_name])
    if len(labels) > 1:
        others = ", ".join(label for label in labels if label != hosted[0])
        # A usage error: the runner flags (--behavior-runner, --scoped-runner, --runner-types) need fixing.
        raise UsageError(
            f"{where}: a leg asks for the GitHub-hosted image {hosted[0]} together with {others}, but a "
            "hosted runner carries only its image label, so the leg would wait forever; put your "
            "self-hosted runners' labels (starting with self-hosted) in --scoped-runner or the runner type."
        )
    hosted_on = hosted_platform(labels[0], images)  # not None: the one label is the hosted one
    if hosted_on is not None and hosted_on.lower() == os_name.lower():
        return labels
    image = {platform.lower(): label for platform, label in images.items()}.get(os_name.lower())
    if image is None:
        raise HarnessError(
            f"{where}: the leg runs on {os_name}, which has no GitHub-hosted image; name one with "
            f"--hosted-images {os_name}=LABEL, or give the leg self-hosted labels."
        )
    return [image]


def unique(labels: Iterable[str]) -> list[str]:
    """Runs-on labels without repeats, first spelling and order kept (GitHub labels ignore case)."""
    seen: dict[str, str] = {}
    for label in labels:
        seen.setdefault(label.lower(), label)
    return list(seen.values())
