"""External URL checks against real HTTP servers on loopback only; sleeping and clocks are injected."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from harness import __version__
from harness.cancel import Cancellation, on_signals
from harness.checks import external
from harness.checks.external import Checker, ExternalOptions, Use
from harness.errors import Interrupted, UsageError
from tests.support.linkserver import LinkServer, mapped_names, refused_url, serving

WAIT_S = 300  # a bound on a broken run, never a measure of speed


def run(urls: list[str], sleeps: list[float] | None = None, **options) -> external.ExternalReport:
    opts = ExternalOptions(**{"request_timeout_s": 5.0, **options})
    checker = Checker(opts, sleep=(sleeps.append if sleeps is not None else lambda _s: None))
    return checker.check({url: [Use("SKILL.md", 3 + i)] for i, url in enumerate(urls)})


def outcome(report: external.ExternalReport, url: str) -> external.UrlCheck:
    return next(item for item in report.urls if item.url == url)


def test_reachable_answers_pass_and_failures_become_findings():
    with serving("127.0.0.1") as ([server], _):
        urls = {name: server.url(f"/{name}") for name in ("ok", "redirect", "no-head", "rate", "missing")}
        report = run(list(urls.values()))

    assert outcome(report, urls["ok"]).outcome == "ok"
    assert outcome(report, urls["redirect"]).status == 200
    assert outcome(report, urls["no-head"]).outcome == "ok"
    assert outcome(report, urls["rate"]).outcome == "ok"
    missing = outcome(report, urls["missing"])
    assert (missing.outcome, missing.status, missing.attempts) == ("broken", 404, 1)
    assert [f.rule for f in report.findings] == ["ref-unreachable"]
    assert "HTTP 404" in report.findings[0].message


def test_head_refused_falls_back_to_get_and_404_is_not_retried():
    with serving("127.0.0.1") as ([server], _):
        run([server.url("/no-head"), server.url("/missing")])
        seen = [(r.method, r.path) for r in server.requests]

    assert seen.count(("HEAD", "/no-head")) == 1 and seen.count(("GET", "/no-head")) == 1
    assert seen.count(("HEAD", "/missing")) == 1 and seen.count(("GET", "/missing")) == 1


def test_a_503_is_retried_with_backoff_until_it_answers():
    sleeps: list[float] = []
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/flaky")], sleeps=sleeps, retries=2, backoff_s=0.5)

    item = report.urls[0]
    assert (item.outcome, item.attempts) == ("ok", 2)
    assert sleeps == [0.5]


def test_retries_are_bounded_and_reported():
    sleeps: list[float] = []
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/down")], sleeps=sleeps, retries=2, backoff_s=1.0)

    assert report.urls[0].attempts == 3
    assert sleeps == [1.0, 2.0]
    assert "HTTP 500" in report.findings[0].message


def test_a_slow_host_times_out():
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/slow")], retries=0, request_timeout_s=0.3)

    item = report.urls[0]
    assert item.outcome == "broken"
    assert "no answer within 0.3 s" in item.detail


def test_connection_refused_is_retried_then_reported():
    with refused_url() as url:
        report = run([url], retries=1)

    item = report.urls[0]
    assert (item.outcome, item.attempts) == ("broken", 2)
    assert "Connection refused" in item.detail


def test_a_redirect_loop_is_reported_without_retrying():
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/loop")], max_redirects=3)

    item = report.urls[0]
    assert (item.outcome, item.attempts) == ("broken", 1)
    assert "redirect loop" in item.detail


def test_one_request_at_a_time_per_host_while_hosts_run_in_parallel():
    hosts = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
    with serving(*hosts, delay_s=0.05) as (servers, recorder):
        urls = [server.url(f"/page-{i}") for server in servers for i in range(5)]
        report = run(urls, jobs=8)

    assert all(item.outcome == "ok" for item in report.urls)
    assert [server.max_active for server in servers] == [1, 1, 1]
    assert recorder.max_active >= 2  # different hosts were in flight together


def test_each_distinct_url_is_fetched_once_and_every_use_is_listed():
    with serving("127.0.0.1") as ([server], _):
        url = server.url("/missing")
        uses = {url: [Use("b.md", 9), Use("a.md", 3), Use("a.md", 3)]}
        report = Checker(ExternalOptions(), sleep=lambda _s: None).check(uses)
        heads = server.paths("HEAD")

    assert heads == ["/missing"]
    assert [str(u) for u in report.urls[0].uses] == ["a.md:3", "b.md:9"]
    assert report.findings[0].location == "a.md:3"
    assert "used at a.md:3, b.md:9" in report.findings[0].message


def test_excluded_urls_are_not_fetched():
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/missing")], exclude=(r"/miss",))
        requests = list(server.requests)

    assert report.urls[0].outcome == "excluded"
    assert not requests and not report.findings


def test_an_invalid_exclude_regex_is_a_usage_error():
    with pytest.raises(UsageError, match="--exclude-url"):
        external.compile_excludes(["(unclosed"])


def test_the_user_agent_names_skillscope_and_its_version():
    with serving("127.0.0.1") as ([server], _):
        run([server.url("/ok")])
        agents = {r.user_agent for r in server.requests}

    assert agents == {f"skillscope/{__version__} (reference check)"}


def test_a_cache_hit_sends_no_request_and_stale_entries_are_fetched_again(tmp_path: Path):
    cache = tmp_path / "urls.json"
    now = [1_000_000.0]
    with serving("127.0.0.1") as ([server], _):
        url = server.url("/ok")

        def check() -> external.ExternalReport:
            opts = ExternalOptions(cache_path=cache, cache_max_age_s=3600)
            checker = Checker(opts, sleep=lambda _s: None, wall_clock=lambda: now[0])
            return checker.check({url: [Use("a.md", 1)]})

        assert check().urls[0].outcome == "ok"
        assert check().urls[0].outcome == "cached"
        assert len(server.paths()) == 1
        now[0] += 3601
        assert check().urls[0].outcome == "ok"
        assert len(server.paths()) == 2

    saved = json.loads(cache.read_text(encoding="utf-8"))
    assert saved["urls"][url]["status"] == 200


def test_failures_and_rate_limits_are_not_cached(tmp_path: Path):
    cache = tmp_path / "urls.json"
    with serving("127.0.0.1") as ([server], _):
        run([server.url("/missing"), server.url("/rate")], cache_path=cache)

    assert json.loads(cache.read_text(encoding="utf-8"))["urls"] == {}


def test_a_damaged_cache_is_a_warning_and_is_rewritten(tmp_path: Path):
    cache = tmp_path / "urls.json"
    cache.write_text("{not json", encoding="utf-8")
    with serving("127.0.0.1") as ([server], _):
        report = run([server.url("/ok")], cache_path=cache)

    assert [(f.rule, f.severity) for f in report.findings] == [("cache-unreadable", "warning")]
    assert json.loads(cache.read_text(encoding="utf-8"))["format"] == 1


def test_nothing_is_sent_once_the_command_deadline_has_passed():
    with serving("127.0.0.1") as ([server], _):
        checker = Checker(ExternalOptions(), sleep=lambda _s: None, deadline=time.monotonic() - 1)
        report = checker.check({server.url("/ok"): [Use("a.md", 1)]})
        requests = list(server.requests)

    assert not requests
    assert report.urls[0].outcome == "unchecked"
    assert [f.rule for f in report.findings] == ["ref-unchecked"]


class TimeoutRecordingSession(requests.Session):
    """A real session that remembers the timeout of every request it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.timeouts: list[float] = []

    def request(self, method, url, **kwargs):
        self.timeouts.append(kwargs.get("timeout"))
        return super().request(method, url, **kwargs)


def test_the_request_timeout_shrinks_to_what_the_deadline_leaves():
    sessions: list[TimeoutRecordingSession] = []

    def new_session() -> TimeoutRecordingSession:
        sessions.append(TimeoutRecordingSession())
        return sessions[-1]

    with serving("127.0.0.1") as ([server], _):
        checker = Checker(
            ExternalOptions(retries=0, request_timeout_s=30),
            session_factory=new_session,
            sleep=lambda _s: None,
            deadline=time.monotonic() + 0.4,
        )
        report = checker.check({server.url("/slow"): [Use("a.md", 1)]})

    timeouts = [t for session in sessions for t in session.timeouts]
    assert timeouts and all(0 < t <= 0.4 for t in timeouts)  # not the 30 s --request-timeout
    assert report.urls[0].outcome == "broken"


class OrderRecordingSession(requests.Session):
    """A real session that adds the URL of every request it sends to a list shared by a run's sessions."""

    def __init__(self, sent: list[str]) -> None:
        super().__init__()
        self.sent = sent

    def request(self, method, url, **kwargs):
        self.sent.append(url)
        return super().request(method, url, **kwargs)


def test_the_busiest_hosts_are_started_first():
    # One host at a time (--jobs 1) shows the order: the run lasts as long as its longest chain from
    # the moment that chain starts, so the host with the most URLs goes first.
    sent: list[str] = []
    with serving("127.0.0.2", "127.0.0.3", "127.0.0.4") as (servers, _):
        counts = dict(zip(servers, (1, 3, 2), strict=True))
        urls = [server.url(f"/page-{i}") for server, count in counts.items() for i in range(count)]
        checker = Checker(ExternalOptions(jobs=1), session_factory=lambda: OrderRecordingSession(sent))
        report = checker.check({url: [Use("a.md", 1)] for url in urls})

    assert all(item.outcome == "ok" for item in report.urls)
    hosts = [url.split("/")[2] for url in sent]
    order = [servers[1], servers[2], servers[0]]
    assert hosts == [server.url("").split("/")[2] for server in order for _ in range(counts[server])]


@pytest.mark.parametrize(
    ("status", "reachable", "retryable"),
    [
        (200, True, False),
        (204, True, False),
        (429, True, False),
        (404, False, False),
        (403, False, False),
        (408, False, True),
        (425, False, True),
        (500, False, True),
        (503, False, True),
    ],
)
def test_status_classification(status: int, reachable: bool, retryable: bool):
    assert external.is_reachable(status) is reachable
    assert external.is_retryable(status) is retryable


def test_proxy_variables_still_apply_per_host_though_read_once(monkeypatch):
    # requests' environment settings are asked once per scheme and host: the proxy still carries every
    # request to a proxied host, and a host in NO_PROXY is still fetched directly, on every request.
    with serving("127.0.0.1", "127.0.0.2", "127.0.0.3") as ([target, proxy, direct], _):
        monkeypatch.setenv("HTTP_PROXY", proxy.url(""))
        monkeypatch.setenv("NO_PROXY", "127.0.0.3")
        proxied = [target.url(f"/via/{n}") for n in range(3)]
        bypassed = [direct.url(f"/direct/{n}") for n in range(3)]
        report = run([*proxied, *bypassed])
        through_proxy, seen_direct, seen_target = proxy.paths("HEAD"), direct.paths("HEAD"), target.paths()

    assert all(item.outcome == "ok" for item in report.urls)
    assert through_proxy == proxied and seen_target == []  # absolute URLs: the proxy was asked
    assert seen_direct == [f"/direct/{n}" for n in range(3)]


@pytest.fixture
def names(monkeypatch):
    return mapped_names(monkeypatch)


def test_when_no_host_name_resolves_the_links_are_unchecked_not_broken(names):
    urls = ["http://alpha.test/a", "http://alpha.test/b", "http://beta.test/c"]
    report = run(urls, retries=0)

    assert {item.outcome for item in report.urls} == {"unchecked"}
    assert [f.rule for f in report.findings] == ["ref-unchecked"] * 3
    message = report.findings[0].message
    assert "was not checked because the network looks unreachable from this machine" in message
    assert "--no-external" in message and "--timeout" not in message


def recording(sent: list[str]):
    return lambda: OrderRecordingSession(sent)


def test_offline_costs_two_requests_said_once_and_nothing_is_retried(names):
    # Offline, every URL would fail its retries with backoff (about 3 s each, one host's URLs in a row):
    # the first two named hosts answer for the network, and nothing else is sent to a named host.
    named = ["http://alpha.test/1", "http://alpha.test/2", "http://alpha.test/3", "http://beta.test/1"]
    named.append("http://gamma.test/1")
    sent: list[str] = []
    sleeps: list[float] = []
    said: list[str] = []
    with serving("127.0.0.1") as ([server], _):
        local = server.url("/ok")
        checker = Checker(
            ExternalOptions(), session_factory=recording(sent), sleep=sleeps.append, say=said.append
        )
        report = checker.check({url: [Use("SKILL.md", n)] for n, url in enumerate([*named, local], 1)})

    assert [url for url in sent if ".test/" in url] == ["http://alpha.test/1", "http://beta.test/1"]
    assert sleeps == []
    assert {outcome(report, url).outcome for url in named} == {"unchecked"}
    assert outcome(report, local).outcome == "ok"  # loopback answers offline too, so it is still checked
    assert [f.rule for f in report.findings] == ["ref-unchecked"] * len(named)
    assert len(said) == 1
    assert said[0].startswith("the network looks unreachable from this machine (alpha.test: connection")
    assert "beta.test" in said[0] and "Name or service not known" in said[0]
    assert "5 external URL(s) left unchecked" in said[0] and "--no-external" in said[0]


def test_a_proxy_that_refuses_leaves_the_network_unreachable(monkeypatch):
    # A proxy variable naming a port that refuses (a stale corporate proxy, a sandbox's): every request
    # would fail the same way, whatever its host.
    said: list[str] = []
    with refused_url() as proxy:
        for name in ("NO_PROXY", "no_proxy", "http_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTP_PROXY", proxy)
        checker = Checker(ExternalOptions(request_timeout_s=5.0), sleep=lambda _s: None, say=said.append)
        report = checker.check({url: [Use("a.md", 1)] for url in ("http://alpha.test/", "http://beta.test/")})

    assert {item.outcome for item in report.urls} == {"unchecked"}
    assert len(said) == 1 and "the proxy failed: Connection refused" in said[0]


class UnroutableSession(requests.Session):
    """A session on a machine without a route out: every request fails as connect() does there."""

    def __init__(self, sent: list[str]) -> None:
        super().__init__()
        self.sent = sent

    def request(self, method, url, **kwargs):
        import errno

        self.sent.append(url)
        raise requests.exceptions.ConnectionError(OSError(errno.ENETUNREACH, "Network is unreachable"))


def test_no_route_leaves_the_network_unreachable():
    sent: list[str] = []
    said: list[str] = []
    urls = ["http://alpha.test/1", "http://alpha.test/2", "http://beta.test/1", "http://gamma.test/1"]
    checker = Checker(
        ExternalOptions(),
        session_factory=lambda: UnroutableSession(sent),
        sleep=lambda _s: None,
        say=said.append,
    )
    report = checker.check({url: [Use("a.md", 1)] for url in urls})

    assert sent == ["http://alpha.test/1", "http://beta.test/1"]  # HEAD only: a connection failure skips GET
    assert {item.outcome for item in report.urls} == {"unchecked"}
    assert len(said) == 1 and "Network is unreachable" in said[0]


def test_a_named_host_on_a_closed_port_shows_the_network_is_up(names):
    # A refused connection is an answer from the host's machine: the network works, so the name that
    # did not resolve is a dead domain (broken), and nothing is said about being offline.
    said: list[str] = []
    with refused_url() as refused:
        names["shut.test"] = "127.0.0.1"
        shut = refused.replace("127.0.0.1", "shut.test")
        checker = Checker(ExternalOptions(retries=0), sleep=lambda _s: None, say=said.append)
        report = checker.check({url: [Use("a.md", 1)] for url in ("http://gone.test/a", shut)})

    assert said == []
    assert [
        (outcome(report, u).outcome, outcome(report, u).attempts) for u in ("http://gone.test/a", shut)
    ] == [
        ("broken", 1),
        ("broken", 1),
    ]
    assert sorted(f.rule for f in report.findings) == ["ref-unreachable"] * 2


def test_a_probe_that_answers_is_the_first_attempt_of_its_url(names):
    # The probe's request is not sent again: each URL is still fetched once.
    sent: list[str] = []
    with serving("127.0.0.1") as ([server], _):
        names["up.test"] = "127.0.0.1"
        urls = [server.url(f"/ok/{n}").replace("127.0.0.1", "up.test") for n in range(3)]
        checker = Checker(ExternalOptions(), session_factory=recording(sent), sleep=lambda _s: None)
        report = checker.check({url: [Use("a.md", 1)] for url in [*urls, "http://gone.test/x"]})

    assert sorted(sent) == sorted([*urls, *["http://gone.test/x"] * 3])  # its two retries, after the probe
    assert {outcome(report, u).outcome for u in urls} == {"ok"}
    assert outcome(report, "http://gone.test/x").attempts == 3


def test_one_name_that_does_not_resolve_beside_one_that_does_is_a_broken_link(names):
    with serving("127.0.0.1") as ([server], _):
        names["good.test"] = "127.0.0.1"
        good = server.url("/ok").replace("127.0.0.1", "good.test")
        report = run([good, "http://gone.test/page"], retries=0)

    assert outcome(report, good).outcome == "ok"
    gone = outcome(report, "http://gone.test/page")
    assert (gone.outcome, gone.unresolved) == ("broken", True)
    assert [f.rule for f in report.findings] == ["ref-unreachable"]
    assert "Name or service not known" in report.findings[0].message


def test_a_single_host_that_does_not_resolve_is_a_broken_link(names):
    report = run(["http://gone.test/a", "http://gone.test/b"], retries=0)

    assert {item.outcome for item in report.urls} == {"broken"}
    assert [f.rule for f in report.findings] == ["ref-unreachable"] * 2


def test_a_refused_connection_is_not_taken_for_an_unresolved_name(names):
    with refused_url() as refused:
        report = run([refused, "http://gone.test/a", "http://other.test/b"], retries=0)

    assert outcome(report, refused).unresolved is False
    assert outcome(report, refused).outcome == "broken"
    # the two names failed to resolve, and the address literal does not say the network is up
    assert {outcome(report, u).outcome for u in ("http://gone.test/a", "http://other.test/b")} == {
        "unchecked"
    }


def test_after_ctrl_c_a_url_never_sent_is_unchecked_whatever_state_it_was_left_in():
    sent = external.UrlCheck("http://a.test/1", external.OK, [Use("a.md", 1)], status=200, attempts=1)
    failed = external.UrlCheck("http://a.test/2", external.BROKEN, [Use("a.md", 2)], status=404, attempts=1)
    never = external.UrlCheck("http://b.test/1", external.BROKEN, [Use("a.md", 3)])  # its host never started
    external.left_unsent([[sent, failed], [never]])
    assert [(u.outcome, u.detail) for u in (sent, failed)] == [(external.OK, ""), (external.BROKEN, "")]
    assert (never.outcome, never.detail) == (external.UNCHECKED, external.INTERRUPTED)
    assert "interrupted (Ctrl-C) first" in external.failure(never).message


def until(condition: Callable[[], object]) -> bool:
    """Whether `condition` came true before the bound on a broken run ran out."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def signal_once_held(server: LinkServer, cancel: Cancellation, *signums: int) -> None:
    """From a thread, each signal to this process once `server` holds a request and the signal before
    it was handled: the test acts while the request is in flight, however slowly the machine runs.
    Held means the `held_from`-th request or a later one: a request before it is in flight too, briefly."""
    held = server.held_from or 1

    def send() -> None:
        if not until(lambda: len(server.requests) >= held and server.active):
            return
        for count, signum in enumerate(signums, 1):
            os.kill(os.getpid(), signum)
            if not until(lambda: cancel.signals >= count):  # noqa: B023 (read before the next turn)
                return

    threading.Thread(target=send, daemon=True).start()


def release_once(server: LinkServer, cancel: Cancellation) -> None:
    """The held request is answered only after the signal: nothing after it can have been sent."""
    if until(cancel.is_set):
        server.release.set()


def test_a_signal_during_the_probe_cuts_its_request_and_leaves_every_url_unchecked(names):
    # The probe asks on the main thread, where the signal ends its request: the URL it asked is
    # unchecked like the rest, not broken with no reason.
    with serving("127.0.0.1") as ([server], _):
        server.held_from = 1
        names["up.test"] = names["other.test"] = "127.0.0.1"
        urls = [
            server.url(f"/ok/{n}").replace("127.0.0.1", name)
            for n, name in enumerate(["up.test", "other.test"])
        ]
        with on_signals(Cancellation()) as cancel:
            signal_once_held(server, cancel, signal.SIGINT)
            checker = Checker(ExternalOptions(request_timeout_s=WAIT_S), cancel=cancel)
            report = checker.check({url: [Use("a.md", n)] for n, url in enumerate(urls, 1)})
        sent = len(server.requests)
        server.release.set()

    assert sent == 1 and report.interrupted == 130
    assert {(item.outcome, item.detail) for item in report.urls} == {
        (external.UNCHECKED, external.INTERRUPTED)
    }
    assert [f.rule for f in report.findings] == ["ref-unchecked"] * 2


def test_after_sigterm_what_was_never_sent_is_unchecked_and_says_so():
    with serving("127.0.0.1") as ([server], _):
        server.held_from = 2
        urls = [server.url(f"/ok/{n}") for n in range(4)]
        with on_signals(Cancellation()) as cancel:
            signal_once_held(server, cancel, signal.SIGTERM)
            threading.Thread(target=release_once, args=(server, cancel), daemon=True).start()
            report = Checker(ExternalOptions(), cancel=cancel).check({url: [Use("a.md", 1)] for url in urls})
        sent = len(server.requests)

    assert report.interrupted == 143 and sent == 2  # the request held when the signal came ended on its own
    assert [item.outcome for item in report.urls] == [external.OK] * 2 + [external.UNCHECKED] * 2
    [unsent, _] = [f.message for f in report.findings]
    assert "stopped (SIGTERM) first" in unsent and "run the command again" in unsent
    with pytest.raises(Interrupted) as ended:
        report.ended(0)
    assert ended.value.exit_code == 143


def test_a_second_signal_gives_up_on_the_requests_in_flight():
    # The first signal stops the sending and waits for the request in flight; the second stops waiting
    # while the host still holds it (no report: what that request found is not known).
    with serving("127.0.0.1") as ([server], _):
        server.held_from = 1
        urls = [server.url(f"/ok/{n}") for n in range(3)]
        with on_signals(Cancellation()) as cancel:
            signal_once_held(server, cancel, signal.SIGINT, signal.SIGINT)
            checker = Checker(ExternalOptions(request_timeout_s=WAIT_S), cancel=cancel)
            with pytest.raises(Interrupted) as stopped:
                checker.check({url: [Use("a.md", 1)] for url in urls})
        held, sent = server.active, len(server.requests)
        server.release.set()
        # The chain given up on ends once answered: no thread is left to the next test.
        assert until(lambda: not any(t.name.startswith("skillscope-url") for t in threading.enumerate()))

    assert (held, sent) == (1, 1)
    assert stopped.value.exit_code == 130 and "no report was written" in str(stopped.value)
