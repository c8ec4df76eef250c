"""An agent CLI's `--version` and `--help` are asked once per machine and executable: a later run reads
the answers from the user's cache until the file changes; a failed probe, a damaged entry or a cache
that cannot be written costs a probe, never an error. Its shell sandbox's verdict is kept by the same
rules, and only when the sandbox starts (the real CLI's: tests/agent/test_probes_sandbox.py)."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from harness.agent import AgentUnavailable, LocatedCLI, SandboxSupport, locate, probes
from harness.agent.probes import PROBES, ProbeCache, sandbox_context
from harness.cancel import Cancellation

HELP = "Usage: claude [options]\n  --settings <file>\n  --setting-sources <s>\n"


def counting_claude(directory: Path, version: str = "9.8.7", fail_first: bool = False) -> Path:
    """A `claude` that answers --version and --help and appends each flag it is asked to starts.log;
    with `fail_first`, its first --version exits 1."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "claude"
    failing = (
        f'[ -e "{directory}/failed" ] || {{ touch "{directory}/failed"; echo broken >&2; exit 1; }}\n'
        if fail_first
        else ""
    )
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$1" >> "{directory}/starts.log"\n'
        'case "$1" in\n'
        f'  --version) {failing.strip() + "; " if failing else ""}echo "{version} (Claude Code)"; exit 0;;\n'
        f"  --help) printf '%s' '{HELP}'; exit 0;;\n"
        "esac\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def starts(script: Path) -> list[str]:
    log = script.parent / "starts.log"
    return log.read_text().split() if log.exists() else []


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_a_second_run_reads_both_answers_and_starts_the_cli_not_at_all(tmp_path, environ):
    script = counting_claude(tmp_path / "bin")
    first = locate(str(script), environ)
    assert starts(script) == ["--version", "--help"]
    again = locate(str(script), environ)
    assert again == first == LocatedCLI(str(script), "9.8.7", frozenset({"--settings", "--setting-sources"}))
    assert starts(script) == ["--version", "--help"]  # nothing more
    assert list((tmp_path / "cache" / "skillscope" / PROBES).glob("*.json"))


def test_a_changed_executable_is_probed_again(tmp_path, environ):
    script = counting_claude(tmp_path / "bin", "1.0.0")
    assert locate(str(script), environ).version == "1.0.0"
    counting_claude(tmp_path / "bin", "2.0.0")  # upgraded in place
    assert locate(str(script), environ).version == "2.0.0"
    assert starts(script) == ["--version", "--help"] * 2


def test_each_executable_has_its_own_answers(tmp_path, environ):
    one, other = counting_claude(tmp_path / "one", "1.0.0"), counting_claude(tmp_path / "other", "3.0.0")
    assert [locate(str(s), environ).version for s in (one, other, one)] == ["1.0.0", "3.0.0", "1.0.0"]


def test_a_failed_probe_is_not_kept_and_the_next_run_asks_again(tmp_path, environ):
    script = counting_claude(tmp_path / "bin", fail_first=True)
    with pytest.raises(AgentUnavailable, match="exited 1"):
        locate(str(script), environ)
    assert locate(str(script), environ).version == "9.8.7"
    assert starts(script) == ["--version", "--version", "--help"]


def test_a_damaged_entry_costs_a_probe(tmp_path, environ):
    script = counting_claude(tmp_path / "bin")
    locate(str(script), environ)
    for entry in (tmp_path / "cache" / "skillscope" / PROBES).glob("*.json"):
        entry.write_text('{"key": "another", "said": "0.0.1"}')
    assert locate(str(script), environ).version == "9.8.7"
    assert starts(script) == ["--version", "--help"] * 2


def test_a_cache_that_cannot_be_written_costs_a_probe_never_an_error(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    environ = {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(blocked)}
    script = counting_claude(tmp_path / "bin")
    assert locate(str(script), environ).version == locate(str(script), environ).version == "9.8.7"
    assert starts(script) == ["--version", "--help"] * 2


@pytest.mark.agent_cli
def test_the_real_cli_is_probed_once_per_machine(claude_bin, tmp_path, environ):
    """The pinned claude: once its answers are kept, a run already interrupted still locates it, since
    nothing is started (a probe would stop at once, "interrupted while ...")."""
    first = locate(claude_bin, environ)
    assert len(list((tmp_path / "cache" / "skillscope" / PROBES).glob("*.json"))) == 2  # --version, --help
    interrupted = Cancellation()
    interrupted.cancel(signal.SIGINT)
    assert locate(claude_bin, environ, cancel=interrupted) == first
    assert first.supports("--setting-sources")
    with pytest.raises(AgentUnavailable, match="interrupted while"):
        locate(claude_bin, {**environ, "XDG_CACHE_HOME": str(tmp_path / "empty")}, cancel=interrupted)


# --- the shell sandbox's verdict ------------------------------------------------------------------


class CountingProbe:
    """A sandbox probe answering `support` and counting how often it was asked."""

    def __init__(self, support: SandboxSupport):
        self.support, self.asked = support, 0

    def __call__(self) -> SandboxSupport:
        self.asked += 1
        return self.support


def context(tmp_path: Path, **changed: object) -> dict:
    return {**sandbox_context(("bwrap", "socat"), str(tmp_path / "tools"), {"sandbox": True}), **changed}


def test_a_sandbox_that_starts_is_kept_and_the_next_run_probes_not_at_all(tmp_path, environ):
    script, cache = counting_claude(tmp_path / "bin"), ProbeCache.of(environ)
    probe = CountingProbe(SandboxSupport(True))
    first = cache.sandbox(str(script), context(tmp_path), probe)
    again = cache.sandbox(str(script), context(tmp_path), probe)
    assert (first, again) == (SandboxSupport(True), SandboxSupport(True, kept=True))
    assert probe.asked == 1


@pytest.mark.parametrize(
    "support",
    [SandboxSupport(False, "bubblewrap (bwrap) not installed"), SandboxSupport(None, "claude did not start")],
)
def test_a_sandbox_that_is_off_or_unknown_is_never_kept(tmp_path, environ, support):
    script, cache = counting_claude(tmp_path / "bin"), ProbeCache.of(environ)
    probe = CountingProbe(support)
    assert [cache.sandbox(str(script), context(tmp_path), probe) for _ in range(2)] == [support, support]
    assert probe.asked == 2
    assert not (tmp_path / "cache" / "skillscope" / PROBES).is_dir()


CHANGES = ["the CLI", "a tool on PATH", "a tool gone", "the kernel", "the user", "the settings", "skillscope"]


@pytest.mark.parametrize("change", CHANGES)
def test_any_change_the_verdict_depends_on_probes_again(tmp_path, environ, monkeypatch, change):
    script, cache = counting_claude(tmp_path / "bin"), ProbeCache.of(environ)
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("bwrap", "socat"):
        (tools / name).write_text(f"#!/bin/sh\n# {name}\n")
        (tools / name).chmod(0o755)
    probe = CountingProbe(SandboxSupport(True))
    cache.sandbox(str(script), context(tmp_path), probe)
    if change == "the CLI":
        counting_claude(tmp_path / "bin", "9.9.9")
    elif change == "a tool on PATH":
        (tools / "socat").write_text("#!/bin/sh\n# socat, upgraded\n")
    elif change == "a tool gone":
        (tools / "bwrap").unlink()
    elif change == "the kernel":
        sysname, node, release, version, machine = os.uname()
        upgraded = os.uname_result((sysname, node, release + "-next", version, machine))
        monkeypatch.setattr(os, "uname", lambda: upgraded)
    elif change == "the user":
        monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)
    elif change == "skillscope":
        monkeypatch.setattr(probes, "__version__", "0.0.0-other")
    settings = {"settings": {"sandbox": False}} if change == "the settings" else {}
    changed = context(tmp_path, **settings)
    assert cache.sandbox(str(script), changed, probe) == SandboxSupport(True)  # probed, not kept
    assert probe.asked == 2


def test_a_damaged_or_unwritable_sandbox_entry_costs_a_probe_never_an_error(tmp_path, environ):
    script, cache = counting_claude(tmp_path / "bin"), ProbeCache.of(environ)
    probe = CountingProbe(SandboxSupport(True))
    cache.sandbox(str(script), context(tmp_path), probe)
    for entry in (tmp_path / "cache" / "skillscope" / PROBES).glob("*.json"):
        entry.write_text("{not json")
    assert cache.sandbox(str(script), context(tmp_path), probe) == SandboxSupport(True)
    assert cache.sandbox(str(script), context(tmp_path), probe).kept  # written whole again
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    unwritable = ProbeCache.of({"XDG_CACHE_HOME": str(blocked)})
    kept = [unwritable.sandbox(str(script), context(tmp_path), probe).kept for _ in range(2)]
    assert kept == [False, False]
    assert probe.asked == 4
