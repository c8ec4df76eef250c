"""GitHub Actions workflow commands: one annotation per finding, escaped as the runner expects."""

from __future__ import annotations

from collections.abc import Iterable

from harness.model.findings import Finding


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str, message: str, file: str | None = None, line: int | None = None, title: str | None = None
) -> str:
    props = []
    if file:
        props.append(f"file={escape_property(file)}")
    if line:
        props.append(f"line={line}")
    if title:
        props.append(f"title={escape_property(title)}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{escape_data(message)}"


def finding_annotations(findings: Iterable[Finding]) -> list[str]:
    return [
        annotation(
            "error" if f.fails else "notice" if f.baseline else "warning",
            f.message,
            file=None if f.path == "." else f.path,
            line=f.line,
            title=f"skillscope {f.rule}",
        )
        for f in findings
    ]
