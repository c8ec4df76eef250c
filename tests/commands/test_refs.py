"""`skillscope refs` end to end, in-process, with external URLs served on loopback only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

from harness.checks import references
from tests.support.helpers import make_skill, run_cli, structural
from tests.support.linkserver import mapped_names, serving

SCHEMA = json.loads((Path(__file__).parents[2] / "schema" / "refs-report.schema.json").read_text("utf-8"))


def refs(root: Path, *extra: str, environ: dict | None = None):
    output = root.parent / "refs-report.json"
    output.unlink(missing_ok=True)
    run = run_cli(
        ["refs", "--repo", str(root), "--skills-dir", "skills/*", "--output", str(output), *extra],
        cwd=root,
        environ=environ,
    )
    report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else {}
    if report:
        assert not list(Draft202012Validator(SCHEMA).iter_errors(report))
    return run, report


def test_internal_and_external_references_in_one_report(tmp_path: Path):
    root = tmp_path / "repo"
    with serving("127.0.0.1") as ([server], _):
        body = (
            f"# A\n\nSee [ok]({server.url('/ok')}), [gone]({server.url('/missing')}) and [x](gone.md).\n"
            f"Again: {server.url('/missing')}\n"
        )
        make_skill(root / "skills", "alpha", body=body)
        run, report = refs(root, "--retries", "0", "--format", "markdown")

    assert run.code == 1
    assert sorted(f["rule"] for f in report["findings"]) == ["ref-missing-file", "ref-unreachable"]
    assert report["external_checked"] is True
    totals = report["totals"]
    assert (totals["urls"], totals["reachable"], totals["broken"], totals["external"]) == (2, 1, 1, 3)
    broken = next(u for u in report["urls"] if u["outcome"] == "broken")
    assert [(u["path"], u["line"]) for u in broken["uses"]] == [
        ("skills/alpha/SKILL.md", 7),
        ("skills/alpha/SKILL.md", 8),
    ]
    assert "## Reference check" in run.stdout and "### Failing URLs" in run.stdout
    [adopt] = [line for line in run.stdout.splitlines() if "`skillscope baseline`" in line]  # no baseline yet
    assert "`--warn ref-missing-file,ref-unreachable` demotes those rules to warnings" in adopt


def test_no_external_sends_nothing(tmp_path: Path):
    root = tmp_path / "repo"
    with serving("127.0.0.1") as ([server], _):
        make_skill(root / "skills", "alpha", body=f"# A\n\n[gone]({server.url('/missing')})\n")
        run, report = refs(root, "--no-external", "--format", "markdown")
        requests = list(server.requests)

    assert run.code == 0 and not requests
    assert report["external_checked"] is False and report["urls"] == []
    assert report["totals"]["not_checked"] == 1
    assert "not checked (`--no-external`): 1 external reference(s) not checked." in run.stdout


def test_no_external_says_how_many_references_it_skipped(tmp_path: Path):
    root = tmp_path / "repo"
    body = "# A\n\nSee https://example.invalid/a and [b](https://example.invalid/b).\n[c](https://example.invalid/a)\n"
    make_skill(root / "skills", "alpha", body=body)
    run, report = refs(root, "--no-external")

    assert run.code == 0 and report["totals"]["not_checked"] == 3
    assert "0 internal reference(s), 3 external reference(s) not checked (--no-external)" in run.stdout


def test_annotations_mark_every_line_using_a_broken_url(tmp_path: Path):
    root = tmp_path / "repo"
    with serving("127.0.0.1") as ([server], _):
        url = server.url("/missing")
        make_skill(root / "skills", "alpha", body=f"# A\n\n{url}\n\n{url}\n")
        run, _ = refs(root, "--retries", "0", environ={"GITHUB_ACTIONS": "true"})

    annotations = [line for line in run.lines if line.startswith("::error")]
    assert len(annotations) == 2
    assert "file=skills/alpha/SKILL.md,line=7" in annotations[0]
    assert "file=skills/alpha/SKILL.md,line=9" in annotations[1]
    text = [line.split(": ")[:3] for line in run.lines if ": ref-unreachable: " in line]
    assert text == [
        ["skills/alpha/SKILL.md:7", "error", "ref-unreachable"],
        ["skills/alpha/SKILL.md:9", "error", "ref-unreachable"],
    ]


def test_the_step_summary_gets_the_markdown(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root / "skills", "alpha")
    summary = tmp_path / "summary.md"
    run, report = refs(root, "--no-external", "--summary", str(summary))

    assert run.code == 0 and report["passed"] is True
    assert "Every reference resolves." in summary.read_text(encoding="utf-8")


def test_excluded_urls_and_the_cache(tmp_path: Path):
    root = tmp_path / "repo"
    cache = tmp_path / "cache.json"
    with serving("127.0.0.1") as ([server], _):
        make_skill(root / "skills", "alpha", body=f"# A\n\n{server.url('/ok')} {server.url('/missing')}\n")
        first, report = refs(root, "--exclude-url", "/missing$", "--cache", str(cache))
        second, again = refs(root, "--exclude-url", '["/missing$"]', "--cache", str(cache))
        requests = len(server.requests)

    assert first.code == second.code == 0
    assert (report["totals"]["reachable"], report["totals"]["excluded"]) == (1, 1)
    assert (again["totals"]["cached"], again["totals"]["excluded"]) == (1, 1)
    assert requests == 1


def test_docs_without_skills_is_not_a_no_skill_failure(tmp_path: Path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# Readme\n\n[guide](docs/guide.md#intro)\n", encoding="utf-8")
    (root / "docs" / "guide.md").write_text("# Intro\n", encoding="utf-8")
    run, report = refs(root, "--no-external", "--docs", "README.md,docs/*.md")

    assert run.code == 0, run.stdout
    assert report["docs"] == ["README.md", "docs/*.md"] and report["totals"]["files"] == 2


def test_bad_flags_are_usage_errors(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root / "skills", "alpha")
    for flags, words in (
        (["--jobs", "0"], "--jobs"),
        (["--exclude-url", "(x"], "--exclude-url"),
        (["--retries", "-1"], "--retries"),
        (["--request-timeout", "0"], "--request-timeout"),
        (["--docs", "../x.md"], "--docs"),
    ):
        run, _ = refs(root, *flags)
        assert run.code == 2, flags
        assert words in run.stderr and "Traceback" not in run.stderr


def test_structural_gates_on_broken_internal_links(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root / "skills", "alpha", body="# A\n\n[steps](reference/steps.md)\n")
    run, report = structural(root, "--skills-dir", "skills/*", tmp=tmp_path)

    assert run.code == 1
    assert [(f["rule"], f["line"]) for f in report["findings"]] == [("ref-missing-file", 7)]


def test_structural_external_checks_urls_too_but_only_when_asked(tmp_path: Path):
    root = tmp_path / "repo"
    with serving("127.0.0.1") as ([server], _):
        make_skill(root / "skills", "alpha", body=f"# A\n\n{server.url('/missing')} {server.url('/ok')}\n")
        offline, quiet = structural(root, "--skills-dir", "skills/*", tmp=tmp_path)
        sent_offline = len(server.requests)
        online, loud = structural(
            root,
            "--skills-dir",
            "skills/*",
            "--external",
            "--jobs",
            "2",
            "--exclude-url",
            "/ok$",
            tmp=tmp_path,
        )
        sent = server.paths()

    assert offline.code == 0 and sent_offline == 0 and quiet["findings"] == []
    assert online.code == 1
    assert [(f["rule"], f["line"]) for f in loud["findings"]] == [("ref-unreachable", 7)]
    assert "/ok" not in sent


def test_structural_external_on_a_catalog_large_enough_for_workers(tmp_path: Path):
    """As a process of its own, which forks its workers (this threaded test process would not), so the
    URL check reads the links the workers collected: every skill's URL must be asked and reported."""
    root, output = tmp_path / "repo", tmp_path / "report.json"
    count = references.SKILLS_AHEAD + 1
    with serving("127.0.0.1") as ([server], _):
        for number in range(count):
            make_skill(
                root / "skills", f"s{number:03d}", body=f"# S\n\n<{server.url(f'/missing/{number}')}>\n"
            )
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "harness",
                "structural",
                "--repo",
                str(root),
                "--skills-dir",
                "skills/*",
                "--external",
                "--output",
                str(output),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={"PATH": os.environ.get("PATH", "")},
        )
        asked = set(server.paths())

    assert done.returncode == 1, done.stderr
    report = json.loads(output.read_text(encoding="utf-8"))
    unreachable = sorted(f["path"] for f in report["findings"] if f["rule"] == "ref-unreachable")
    assert unreachable == [f"skills/s{number:03d}/SKILL.md" for number in range(count)]
    assert asked == {f"/missing/{number}" for number in range(count)}


def test_offline_the_command_says_so_once_and_reports_each_url_unchecked(tmp_path: Path, monkeypatch):
    mapped_names(monkeypatch)  # no .test name resolves, as on a machine without a network
    root = tmp_path / "repo"
    links = "".join(f"[{n}](https://host{n % 3}.test/page/{n})\n" for n in range(9))
    make_skill(root / "skills", "alpha", body=f"# A\n\n{links}")
    run, report = refs(root)

    assert run.code == 1
    offline = [line for line in run.stderr.splitlines() if "network looks unreachable" in line]
    assert len(offline) == 1 and offline[0].startswith("[refs] ")
    assert "9 external URL(s) left unchecked" in offline[0]
    assert [f["rule"] for f in report["findings"]] == ["ref-unchecked"] * 9
    assert report["totals"]["unchecked"] == 9
    assert all(u["attempts"] <= 1 for u in report["urls"])  # two probes, nothing retried


def test_structural_external_offline_says_so_once_too(tmp_path: Path, monkeypatch):
    mapped_names(monkeypatch)
    root = tmp_path / "repo"
    make_skill(root / "skills", "alpha", body="# A\n\n[a](https://one.test/a) [b](https://two.test/b)\n")
    run, report = structural(root, "--skills-dir", "skills/*", "--external", tmp=tmp_path)

    assert run.code == 1
    [said] = [line for line in run.stderr.splitlines() if "network looks unreachable" in line]
    assert said.startswith("[structural] the network looks unreachable from this machine")
    assert [f["rule"] for f in report["findings"]] == ["ref-unchecked"] * 2
    # The baseline records no URL, and an unchecked one says its own fix: no adoption line for it.
    assert "skillscope baseline" not in run.stdout
