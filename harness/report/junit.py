"""JUnit XML, for CI systems that draw test tables from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.model.dataset import located
from harness.model.envelope import Halt
from harness.model.findings import Finding, lies_in
from harness.printable import escaped
from harness.report.text import adoption_note


@dataclass(frozen=True)
class JUnitCase:
    classname: str
    name: str
    time_s: float | None = None  # None: not measured, or the report does not know it (left out)
    failure: str | None = None
    error: str | None = None
    output: str | None = None
    file: str | None = None  # root-relative: where the case is written (its dataset)
    line: int | None = None


def case_at(case: dict, classname: str, name: str, **outcome: Any) -> JUnitCase:
    """A JUnit case at a report case's dataset line; a built-in shared negative has no file in the repo."""
    path, line = located(case["source"], case["line"])
    return JUnitCase(classname, name, file=None if path == "." else path, line=line, **outcome)


def render(suite: str, cases: list[JUnitCase]) -> str:
    """The XML document of one suite, as text: for a file or for stdout (`--format junit`)."""
    failures = sum(1 for c in cases if c.failure is not None)
    errors = sum(1 for c in cases if c.error is not None)
    import xml.etree.ElementTree as ET  # only when JUnit is asked for

    root = ET.Element("testsuites")
    node = ET.SubElement(
        root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures), errors=str(errors)
    )
    timed = [c.time_s for c in cases if c.time_s is not None]
    if timed:  # a suite of cases never timed has no time, rather than a made-up 0
        node.set("time", f"{sum(timed):.3f}")
    for case in cases:
        item = ET.SubElement(
            node,
            "testcase",
            classname=escaped(case.classname),
            name=escaped(case.name),
        )
        if case.time_s is not None:  # JUnit's time is optional: left out rather than made up
            item.set("time", f"{case.time_s:.3f}")
        if case.file:
            item.set("file", case.file)
        if case.line:
            item.set("line", str(case.line))
        for kind, text in (("error", case.error), ("failure", case.failure)):
            if text is not None:
                first = text.splitlines()[0][:200] if text else ""
                ET.SubElement(item, kind, message=escaped(first)).text = escaped(text)
                break
        if case.output:
            ET.SubElement(item, "system-out").text = escaped(case.output)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def findings_cases(kind: str, units: dict[str, str], found: list[Finding]) -> list[JUnitCase]:
    """One case per unit (a name and the root-relative folder or file it covers), failed by the error
    findings in it, its warnings as output; findings in no unit make one more case, `(repo)`."""
    cases, placed = [], set()
    for name, where in units.items():
        mine = [f for f in found if lies_in(f, where)]
        placed.update(mine)
        cases.append(finding_case(kind, name, mine))
    rest = [f for f in found if f not in placed]
    if rest or not cases:
        cases.append(finding_case(kind, "(repo)", rest))
    return cases


def finding_case(kind: str, name: str, found: list[Finding]) -> JUnitCase:
    """Failed by the findings that fail the run; warnings, demoted and known findings are output."""

    def listed(chosen: list[Finding]) -> str | None:
        return "\n".join(f"{f.location}: {f.rule}: {f.message}{adoption_note(f)}" for f in chosen) or None

    failing = [f for f in found if f.fails]
    return JUnitCase(
        classname=kind, name=name, failure=listed(failing), output=listed([f for f in found if not f.fails])
    )


def halt_cases(kind: str, meta: dict) -> list[JUnitCase]:
    """One errored case saying why a paid run stopped early, so a CI test table shows it."""
    halt = Halt.of(meta)
    text = halt.sentence()
    if text is None:
        return []
    return [JUnitCase(classname=kind, name="(interrupted)" if halt.interrupted else "(agent)", error=text)]
