"""harness.select.runners: hosted images per platform, self-hosted labels plus the OS, and the overrides."""

from __future__ import annotations

import pytest

from harness.errors import HarnessError, UsageError
from harness.select.runners import DEFAULT_IMAGES, hosted_platform, parse_hosted_images, runs_on

PLATFORMS = ("Linux", "Windows", "macOS")


@pytest.mark.parametrize("os_name", PLATFORMS)
def test_a_hosted_base_gets_the_image_of_the_legs_platform(os_name):
    assert runs_on(["ubuntu-latest"], os_name, DEFAULT_IMAGES, "x") == [DEFAULT_IMAGES[os_name]]


@pytest.mark.parametrize("os_name", PLATFORMS)
@pytest.mark.parametrize(
    "base", [["self-hosted"], ["self-hosted", "x64"], ["gpu-box"], ["self-hosted", "ubuntu-latest"]]
)
def test_a_self_hosted_base_keeps_its_labels_and_adds_the_os(base, os_name):
    assert runs_on(base, os_name, DEFAULT_IMAGES, "x") == [*base, os_name]


@pytest.mark.parametrize(
    ("base", "os_name", "expected"),
    [
        (["ubuntu-24.04"], "Linux", ["ubuntu-24.04"]),  # the caller's own image of that platform stays
        (["ubuntu-24.04-arm"], "linux", ["ubuntu-24.04-arm"]),
        (["ubuntu-24.04"], "Windows", ["windows-latest"]),
        (["windows-2025"], "macOS", ["macos-latest"]),
        (["macos-15"], "macOS", ["macos-15"]),
    ],
)
def test_a_hosted_image_of_another_platform_gives_way_to_that_platforms_image(base, os_name, expected):
    assert runs_on(base, os_name, DEFAULT_IMAGES, "x") == expected


def test_the_os_label_is_not_repeated_on_a_self_hosted_base():
    assert runs_on(["self-hosted", "LINUX"], "Linux", DEFAULT_IMAGES, "x") == ["self-hosted", "LINUX"]


def test_a_label_named_in_hosted_images_counts_as_hosted():
    images = parse_hosted_images("Linux=linux-16-core")
    assert hosted_platform("linux-16-core", images) == "Linux"
    assert runs_on(["linux-16-core"], "Linux", images, "x") == ["linux-16-core"]
    assert runs_on(["linux-16-core"], "Windows", images, "x") == ["windows-latest"]


def test_hardware_labels_on_a_hosted_base_are_an_error_naming_where_and_the_fix():
    with pytest.raises(HarnessError) as caught:
        runs_on(["ubuntu-latest", "gpu"], "Linux", DEFAULT_IMAGES, "skills/g/evals/machine.yml")
    message = str(caught.value)
    assert message.startswith("skills/g/evals/machine.yml: ")
    assert "ubuntu-latest together with gpu" in message and "--scoped-runner" in message


def test_a_platform_without_a_hosted_image_is_an_error_naming_the_flag():
    with pytest.raises(HarnessError, match=r"--hosted-images FreeBSD=LABEL"):
        runs_on(["ubuntu-latest"], "FreeBSD", DEFAULT_IMAGES, "skill 'a'")
    assert runs_on(["ubuntu-latest"], "FreeBSD", parse_hosted_images("FreeBSD=bsd-14"), "x") == ["bsd-14"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", DEFAULT_IMAGES),
        ("linux=ubuntu-24.04", {**DEFAULT_IMAGES, "Linux": "ubuntu-24.04"}),
        (
            "Windows=windows-2025, macOS=macos-15",
            {**DEFAULT_IMAGES, "Windows": "windows-2025", "macOS": "macos-15"},
        ),
        ('{"MACOS": "macos-14"}', {**DEFAULT_IMAGES, "macOS": "macos-14"}),
    ],
)
def test_hosted_images_override_the_defaults_platform_by_platform(text, expected):
    assert parse_hosted_images(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Linux", "is not PLATFORM=LABEL"),
        ("Linux=", "needs a platform and one runner label"),
        ("{not json", "invalid JSON"),
        ('{"Linux": ["a"]}', "maps to one label string"),
    ],
)
def test_malformed_hosted_images_are_usage_errors(text, fragment):
    with pytest.raises(UsageError, match=fragment):
        parse_hosted_images(text)
