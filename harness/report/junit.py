"""JUnit XML, for CI systems that draw test tables from it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class JUnitCase:
    classname: str
    name: str
    time_s: float = 0.0
    failure: str | None = None
    error: str | None = None
    output: str | None = None


def write(path: Path, suite: str, cases: list[JUnitCase]) -> None:
    failures = sum(1 for c in cases if c.failure is not None)
    errors = sum(1 for c in cases if c.error is not None)
    root = ET.Element("testsuites")
    node = ET.SubElement(
        root,
        "testsuite",
        name=suite,
        tests=str(len(cases)),
        failures=str(failures),
        errors=str(errors),
        time=f"{sum(c.time_s for c in cases):.3f}",
    )
    for case in cases:
        item = ET.SubElement(
            node, "testcase", classname=case.classname, name=case.name, time=f"{case.time_s:.3f}"
        )
        for kind, text in (("error", case.error), ("failure", case.failure)):
            if text is not None:
                first = text.splitlines()[0][:200] if text else ""
                ET.SubElement(item, kind, message=first).text = text
                break
        if case.output:
            ET.SubElement(item, "system-out").text = case.output
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
