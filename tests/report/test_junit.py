"""harness.report.junit: JUnit XML with counts, failures, errors and escaped text."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from pathlib import Path

from harness.report import junit, renderers
from harness.report.junit import JUnitCase, render
from tests.support.saved_reports import load


def write(path: Path, suite: str, cases: list[JUnitCase]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(suite, cases), encoding="utf-8")


def test_counts_and_outcomes_are_written(tmp_path: Path) -> None:
    path = tmp_path / "out" / "junit.xml"
    write(
        path,
        "skillscope routing",
        [
            JUnitCase("routing.alpha", "passes", time_s=0.5),
            JUnitCase("routing.alpha", "misses", time_s=1.25, failure="expected alpha\ngot none"),
            JUnitCase("routing.beta", "errored", error="the run timed out", output="stderr tail"),
        ],
    )
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite.attrib == {
        "name": "skillscope routing",
        "tests": "3",
        "failures": "1",
        "errors": "1",
        "time": "1.750",
    }
    passed, missed, errored = suite.findall("testcase")
    assert list(passed) == []
    failure = missed.find("failure")
    assert failure.attrib["message"] == "expected alpha" and failure.text == "expected alpha\ngot none"
    assert errored.find("error").text == "the run timed out"
    assert errored.find("system-out").text == "stderr tail"


def test_markup_in_text_is_escaped_not_injected(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write(path, "s", [JUnitCase("c", "<name & more>", failure="</failure><oops>")])
    case = ET.parse(path).getroot().find("testsuite/testcase")
    assert case.attrib["name"] == "<name & more>"
    assert case.find("failure").text == "</failure><oops>"


def test_an_empty_failure_text_still_marks_the_case_failed(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write(path, "s", [JUnitCase("c", "n", failure="")])
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite.attrib["failures"] == "1"
    assert suite.find("testcase/failure").attrib["message"] == ""


def test_render_is_the_document_write_saves(tmp_path: Path) -> None:
    cases = [JUnitCase("c", "n", failure="why"), JUnitCase("c", "m", output="note")]
    path = tmp_path / "junit.xml"
    write(path, "s", cases)
    assert path.read_text(encoding="utf-8") == render("s", cases)
    assert ET.fromstring(render("s", cases)).find("testsuite").attrib["tests"] == "2"


def test_control_characters_from_a_dataset_never_make_the_xml_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write(
        path,
        "skillscope routing",
        [
            JUnitCase(
                "demo",
                "good-\x1b[2Jclear",
                failure="prompt \x00 with \x1b[31m and \u202e and \ud800",
                output="kept\x07",
            )
        ],
    )
    case = ET.parse(path).getroot().find("testsuite/testcase")
    assert case.get("name") == "good-\\x1b[2Jclear"
    assert case.find("failure").text == "prompt \\x00 with \\x1b[31m and \\u202e and \\ud800"
    assert case.find("system-out").text == "kept\\x07"


def test_a_case_whose_time_the_report_does_not_know_has_no_time_and_adds_none_to_the_suite():
    from harness.report.junit import JUnitCase, render

    text = render("s", [JUnitCase("a", "timed", 1.5), JUnitCase("a", "unknown", None)])

    assert '<testcase classname="a" name="unknown" />' in text
    assert 'tests="2" failures="0" errors="0" time="1.500"' in text


def junit_xml(report: dict) -> ET.Element:
    return ET.fromstring(junit.render("s", renderers(report["command"]).junit(report)))


def test_a_routing_case_takes_its_own_time_and_an_unknown_one_none():
    report = copy.deepcopy(load("routing"))
    first = report["cases"][0]  # 32.564 s; its samples, each rounded, add up to 32.565
    assert first["elapsed_s"] != round(sum(s["elapsed_s"] for s in first["samples"]), 3)
    first["elapsed_s"] = None
    for sample in first["samples"]:
        sample["elapsed_s"] = None
    second = report["cases"][1]

    times = {case.get("name"): case.get("time") for case in junit_xml(report).iter("testcase")}

    assert times[first["id"]] is None  # unknown: left out, not written as 0.000
    assert times[second["id"]] == f"{second['elapsed_s']:.3f}"


def test_a_compare_case_without_a_known_time_has_none():
    report = copy.deepcopy(load("compare"))
    for side in ("baseline", "candidate"):
        report["cases"][0][side]["elapsed_s"] = None

    case = junit_xml(report).find("testsuite/testcase")

    assert case.get("time") is None


def test_cases_never_timed_have_no_time_nor_does_their_suite():
    suite = ET.fromstring(render("s", [JUnitCase("structural", "alpha"), JUnitCase("a", "zero", 0.0)]))

    times = {case.get("name"): case.get("time") for case in suite.iter("testcase")}
    assert times == {"alpha": None, "zero": "0.000"}  # a known zero stays
    assert (
        ET.fromstring(render("s", [JUnitCase("structural", "alpha")])).find("testsuite").get("time") is None
    )
