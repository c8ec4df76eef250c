"""External URLs: is each one reachable? Fetched once per URL, hosts in parallel, one request at a
time per host, HEAD then GET, bounded retries, an optional cache of recent successes. A cancelling
signal (Ctrl-C, SIGTERM) stops the sending: what was never sent is reported unchecked.

Everything that touches the world (the HTTP session, sleeping, both clocks) is injected, so tests
drive it deterministically against loopback servers.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from harness import __version__, jsonsafe
from harness.cancel import CANCEL_SIGNALS, Cancellation, Cancelled
from harness.checks.external_options import ExternalOptions
from harness.checks.references import Scan
from harness.checks.url_outcomes import BROKEN, CACHED, EXCLUDED, OK, UNCHECKED
from harness.errors import Interrupted, UsageError
from harness.files import MAX_REPORT_BYTES
from harness.model import findings
from harness.model.findings import Finding
from harness.writer import write_text

if TYPE_CHECKING:
    import requests


USER_AGENT = f"skillscope/{__version__} (reference check)"
RETRYABLE_STATUSES = frozenset({408, 425})
CACHE_FORMAT = 1

# When this many named hosts fail at the network level (no name resolves, no route, the proxy is down)
# on their first request, the machine is offline: a dead domain fails alone, not in company.
OFFLINE_HOSTS = 2
OFFLINE = "the network looks unreachable from this machine"
PAST_DEADLINE = "the --timeout deadline passed before it was checked"
INTERRUPTED = "the run was interrupted (Ctrl-C) first"
TERMINATED = "the run was stopped (SIGTERM) first"


@dataclass(frozen=True, order=True)
class Use:
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class UrlCheck:
    """One distinct URL: its outcome (ok, cached, excluded, broken, unchecked) and who uses it."""

    url: str
    outcome: str
    uses: list[Use]
    status: int | None = None
    detail: str = ""
    attempts: int = 0
    unresolved: bool = False  # the last attempt failed to resolve the host's name
    unroutable: bool = False  # the last attempt found no route to the host, or a proxy that failed

    def to_json(self) -> dict:
        return {
            "url": self.url,
            "outcome": self.outcome,
            "status": self.status,
            "detail": self.detail,
            "attempts": self.attempts,
            "uses": [{"path": u.path, "line": u.line} for u in self.uses],
        }


@dataclass
class ExternalReport:
    urls: list[UrlCheck] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # A signal stopped the fetching (what was not sent is unchecked): the exit code it gives, 130 after
    # SIGINT and 143 after SIGTERM; 0 when none came.
    interrupted: int = 0

    def ended(self, code: int) -> int:
        """The command's exit code once its reports are written: an interrupted fetch ends it as a
        signal ends any run, through the CLI's one handler."""
        if self.interrupted:
            raise Interrupted("interrupted; the report lists the URLs left unchecked.", self.interrupted)
        return code


@dataclass
class Attempt:
    status: int | None
    detail: str
    retryable: bool
    unresolved: bool = False
    unroutable: bool = False

    @property
    def reachable(self) -> bool:
        return self.status is not None and is_reachable(self.status)

    @property
    def network_down(self) -> bool:
        """A failure that says nothing about the host itself: this machine cannot reach any."""
        return self.unresolved or self.unroutable


def is_reachable(status: int) -> bool:
    """2xx, and 429: a rate limit is a fact about this run, not about the link."""
    return 200 <= status < 300 or status == 429


def is_retryable(status: int) -> bool:
    return status in RETRYABLE_STATUSES or 500 <= status < 600


def compile_excludes(patterns: Iterable[str]) -> list[re.Pattern[str]]:
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern))
        except re.error as exc:
            raise UsageError(
                f"--exclude-url: '{pattern}' is not a valid regex ({exc}); fix or quote it."
            ) from None
    return compiled


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def is_name(host: str) -> bool:
    """A host that needs resolving: not an IP address, not localhost (both resolve offline too)."""
    import ipaddress  # here, not above: a structural run imports this module and never fetches

    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return True
    return False


def new_session(max_redirects: int) -> requests.Session:
    # On first use: a structural run without --external never pays for importing requests.
    from harness.checks.http_session import SettledSession

    session = SettledSession()
    session.headers.update({"User-Agent": USER_AGENT, "Accept": "*/*"})
    session.max_redirects = max_redirects
    return session


def check_scan(
    scan: Scan,
    options: ExternalOptions,
    deadline: float | None = None,
    say: Callable[[str], None] = lambda _line: None,
    cancel: Cancellation | None = None,
) -> ExternalReport:
    """Every URL the reference scan found, fetched once, with the places that use it; `say` gets the
    one line that tells an offline machine so. Once `cancel` is set, nothing more is sent."""
    uses: dict[str, list[Use]] = {}
    for use in scan.external:
        uses.setdefault(use.url, []).append(Use(use.path, use.line))
    return Checker(options, deadline=deadline, say=say, cancel=cancel).check(uses)


class Checker:
    """Checks a set of URLs. `deadline` is a `monotonic()` instant after which nothing is sent, and
    nothing is sent either once `cancel` is set (the command's handlers set it on SIGINT or SIGTERM)."""

    def __init__(
        self,
        options: ExternalOptions,
        session_factory: Callable[[], requests.Session] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        deadline: float | None = None,
        say: Callable[[str], None] = lambda _line: None,
        cancel: Cancellation | None = None,
    ) -> None:
        self.options = options
        self.say = say
        self.probed: dict[str, Attempt] = {}  # url -> the probe's answer, its first attempt
        self.session_factory = session_factory or (lambda: new_session(options.max_redirects))
        self.sleep = sleep
        self.monotonic = monotonic
        self.wall_clock = wall_clock
        self.deadline = deadline
        self.excludes = compile_excludes(options.exclude)
        self.cancel = cancel or Cancellation()  # once set, the host threads send nothing more

    def check(self, uses: dict[str, list[Use]]) -> ExternalReport:
        report = ExternalReport()
        cache = UrlCache(self.options.cache_path, self.options.cache_max_age_s, self.wall_clock)
        report.findings.extend(cache.load())
        by_host: dict[str, list[UrlCheck]] = {}
        for url in sorted(uses):
            item = UrlCheck(url=url, outcome=BROKEN, uses=sorted(set(uses[url])))
            report.urls.append(item)
            if any(pattern.search(url) for pattern in self.excludes):
                item.outcome = EXCLUDED
            elif cache.fresh(url):
                item.outcome = CACHED
            else:
                by_host.setdefault(host_of(url), []).append(item)
        # The busiest hosts first: a run lasts as long as its longest chain from the moment that starts.
        hosts = sorted(by_host.values(), key=len, reverse=True)
        down = self.probe(hosts)
        if hosts and not self.cancel.is_set():
            self.fetch(self.leave_offline(hosts, down) if down else hosts)
        if self.cancel.is_set():  # what was never sent is unchecked, and the exit says why
            report.interrupted = self.cancel.exit_code
            left_unsent(hosts, TERMINATED if self.cancel.signum == signal.SIGTERM else INTERRUPTED)
        for item in report.urls:
            if item.outcome == OK and item.status is not None and 200 <= item.status < 300:
                cache.remember(item.url, item.status)
            elif item.outcome in (BROKEN, UNCHECKED):
                report.findings.append(failure(item))
        report.findings.extend(cache.save())
        return report

    def probe(self, hosts: list[list[UrlCheck]]) -> str | None:
        """Before the fan-out, one request to the first URL of each of the first named hosts, one after
        another, until one shows the network is up. Returns why the network looks down when
        OFFLINE_HOSTS of them failed at the network level, else None. A probe is its URL's first
        attempt, so no URL is asked twice for it. The probe runs on the main thread: a cancelling
        signal ends its request where it is."""
        named = [items for items in hosts if is_name(host_of(items[0].url))]
        if len(named) < OFFLINE_HOSTS:
            return None  # one name that does not resolve is a dead domain, not an offline machine
        failures = []
        session = self.session_factory()
        try:
            with self.cancel.interruptible():
                for items in named[:OFFLINE_HOSTS]:
                    item = items[0]
                    if self.remaining() <= 0:
                        return None
                    attempt = self.probed[item.url] = self.ask(session, item)
                    if not attempt.network_down:
                        return None
                    failures.append(f"{host_of(item.url)}: {attempt.detail}")
        except Cancelled:
            return None  # the cancellation is set: check() leaves every URL not sent unchecked
        finally:
            session.close()
        return "; ".join(failures)

    def leave_offline(self, hosts: list[list[UrlCheck]], down: str) -> list[list[UrlCheck]]:
        """Every URL of a named host unchecked, said once; the hosts left to fetch (loopback and IP
        addresses, which answer offline too)."""
        named = [item for items in hosts if is_name(host_of(items[0].url)) for item in items]
        for item in named:
            item.outcome, item.status, item.detail = UNCHECKED, None, OFFLINE
        self.say(
            f"{OFFLINE} ({down}): {len(named)} external URL(s) left unchecked (ref-unchecked); check "
            "them where the network is reachable (CI), or pass --no-external here."
        )
        return [items for items in hosts if not is_name(host_of(items[0].url))]

    def ask(self, session: requests.Session, item: UrlCheck) -> Attempt:
        """One attempt at `item`'s URL, recorded on it."""
        item.attempts += 1
        attempt = self.attempt(session, item.url)
        item.status, item.detail = attempt.status, attempt.detail
        item.unresolved, item.unroutable = attempt.unresolved, attempt.unroutable
        return attempt

    def fetch(self, hosts: list[list[UrlCheck]]) -> None:
        """Each host's URLs on one of up to --jobs threads. Once cancelled, no request is sent: `say`
        tells so, each host's request in flight ends on its own while the main thread waits, and
        check() leaves the URLs never sent unchecked, so the report still says what was and was not
        checked. A second signal while those requests end gives up on them: Interrupted, no report."""
        chains = Chains(self.check_host, hosts, max(1, min(self.options.jobs, len(hosts))))
        try:
            with self.cancel.interruptible():
                chains.wait()
        except Cancelled:
            self.say(
                f"{self.cancel.name} received: no further request is sent; waiting for the requests in "
                "flight (a second signal stops waiting, and writes no report)."
            )
            self.wait_for_flight(chains)
        chains.raise_failure()  # a failure inside a host's chain is raised here, not lost

    def wait_for_flight(self, chains: Chains) -> None:
        try:
            with self.cancel.interruptible(spare=1):
                chains.wait()
        except Cancelled:
            raise Interrupted(
                "interrupted again: stopped waiting for the requests in flight; no report was written.",
                self.cancel.exit_code,
            ) from None

    def check_host(self, items: list[UrlCheck]) -> None:
        """One host's URLs, strictly one after another: never two requests at once to a host."""
        session = self.session_factory()
        try:
            for item in items:
                self.check_url(session, item)
        finally:
            session.close()

    def check_url(self, session: requests.Session, item: UrlCheck) -> None:
        for attempt_number in range(self.options.retries + 1):
            if attempt_number:
                pause = self.options.backoff_s * 2 ** (attempt_number - 1)
                if self.remaining() < pause:
                    return
                self.sleep(pause)
            probed = None if attempt_number else self.probed.get(item.url)  # the probe asked already
            if probed is None and self.remaining() <= 0:
                if not item.attempts:  # once cancelled, left_unsent says why instead
                    item.outcome, item.detail = UNCHECKED, PAST_DEADLINE
                return
            attempt = probed or self.ask(session, item)
            if attempt.reachable:
                item.outcome = OK
                return
            if not attempt.retryable:
                return

    def attempt(self, session: requests.Session, url: str) -> Attempt:
        """HEAD, then GET when HEAD does not succeed (many servers refuse or mishandle HEAD); a
        connection-level failure skips the GET, which would fail the same way."""
        head = self.request(session, "HEAD", url)
        if head.reachable or head.status is None:
            return head
        return self.request(session, "GET", url)

    def request(self, session: requests.Session, method: str, url: str) -> Attempt:
        import requests

        timeout = max(0.001, min(self.options.request_timeout_s, self.remaining()))
        try:
            response = session.request(
                method, url, timeout=timeout, allow_redirects=True, stream=method == "GET"
            )
        except requests.exceptions.TooManyRedirects:
            limit = self.options.max_redirects
            return Attempt(None, f"more than {limit} redirects (a redirect loop?)", False)
        except requests.exceptions.Timeout:
            return Attempt(None, f"no answer within {timeout:g} s", True)
        except requests.exceptions.ProxyError as exc:
            return Attempt(None, f"the proxy failed: {connection_reason(exc)}", True, unroutable=True)
        except requests.exceptions.ConnectionError as exc:
            reason = f"connection failed: {connection_reason(exc)}"
            return Attempt(None, reason, True, unresolved(exc), no_route(exc))
        except (requests.exceptions.RequestException, ValueError) as exc:
            return Attempt(None, f"not a fetchable URL ({type(exc).__name__})", False)
        with response:
            status = response.status_code
        detail = f"HTTP {status}" + (f" {response.reason}" if response.reason else "")
        return Attempt(status, detail, is_retryable(status))

    def remaining(self) -> float:
        if self.cancel.is_set():
            return 0.0
        return float("inf") if self.deadline is None else self.deadline - self.monotonic()


class Chains:
    """Each host's chain of URLs on one of `workers` daemon threads, busiest host first. Daemon: a run
    that gives up on the requests in flight (a second signal) ends without waiting for them."""

    def __init__(self, chain: Callable[[list[UrlCheck]], None], hosts: list[list[UrlCheck]], workers: int):
        self._chain = chain
        self._pending = list(reversed(hosts))  # popped from the end: the busiest host first
        self._lock = threading.Lock()
        self._failures: list[BaseException] = []
        self._running = workers
        self._done = threading.Event()
        named = (f"skillscope-url-{n}" for n in range(workers))
        self._threads = [threading.Thread(target=self._work, name=name, daemon=True) for name in named]
        for thread in self._threads:
            thread.start()

    def _work(self) -> None:
        # A signal is the main thread's to take: there its handler runs at once, and wakes the wait.
        signal.pthread_sigmask(signal.SIG_BLOCK, CANCEL_SIGNALS)
        try:
            while items := self._next():
                try:
                    self._chain(items)
                except BaseException as exc:  # kept for the main thread, which raises it
                    with self._lock:
                        self._failures.append(exc)
        finally:
            with self._lock:
                self._running -= 1
                if not self._running:
                    self._done.set()

    def _next(self) -> list[UrlCheck] | None:
        with self._lock:
            return self._pending.pop() if self._pending else None

    def wait(self) -> None:
        """Until every chain has ended. An event, not the threads' join: a signal handler's exception
        inside a join can leave its thread marked as ended while it runs (Python 3.11)."""
        self._done.wait()
        for thread in self._threads:
            thread.join()  # each has only its last lines left

    def raise_failure(self) -> None:
        if self._failures:
            raise self._failures[0]


def left_unsent(hosts: list[list[UrlCheck]], why: str = INTERRUPTED) -> None:
    """Once cancelled, a URL no request was sent for is unchecked, never broken: its host may not even
    have been started. So is one whose only request the signal cut off (a probe, on the main thread),
    which left neither a status nor a detail as every attempt that came back does. `why` names the
    signal."""
    for item in (item for items in hosts for item in items if not item.attempts or not answered(item)):
        item.outcome, item.detail = UNCHECKED, why


def answered(item: UrlCheck) -> bool:
    return item.status is not None or bool(item.detail)


def causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and every exception inside it, however requests and urllib3 wrap them: in args, in a
    retry error's reason, or as the cause or context."""
    seen: set[int] = set()
    pending: list[object] = [exc]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [*current.args, getattr(current, "reason", None), current.__cause__, current.__context__]


def unresolved(exc: BaseException) -> bool:
    """Whether a connection error comes from name resolution (socket.gaierror)."""
    import socket

    return any(isinstance(cause, socket.gaierror) for cause in causes(exc))


def no_route(exc: BaseException) -> bool:
    """Whether a connection error says this machine has no route there (ENETUNREACH, EHOSTUNREACH)."""
    import errno

    unroutable = {errno.ENETUNREACH, errno.EHOSTUNREACH}
    return any(isinstance(cause, OSError) and cause.errno in unroutable for cause in causes(exc))


def connection_reason(exc: Exception) -> str:
    """The innermost cause in words ("Connection refused"), not urllib3's nested repr."""
    text = str(exc)
    errno = re.search(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
    if errno:
        return errno.group(1).strip()
    return "the host could not be reached"


def failure(item: UrlCheck) -> Finding:
    first = item.uses[0]
    where = ", ".join(str(u) for u in item.uses)
    if item.outcome == UNCHECKED:
        fix = {
            OFFLINE: "check external links where the network is reachable (CI), or pass --no-external here",
            INTERRUPTED: "run the command again to check it",
            TERMINATED: "run the command again to check it",
        }.get(item.detail, "raise --timeout")
        return findings.error(
            "ref-unchecked",
            first.path,
            f"`{item.url}` was not checked because {item.detail} (used at {where}); {fix}.",
            first.line,
        )
    return findings.error(
        "ref-unreachable",
        first.path,
        f"`{item.url}` is unreachable ({item.detail}), "
        f"used at {where}; fix or remove the link, or pass --exclude-url for a host that "
        "refuses automated checks.",
        first.line,
    )


class UrlCache:
    """A JSON file of URLs that answered 2xx and when; entries older than `max_age_s` are ignored
    and dropped. A missing or damaged cache is an empty one."""

    def __init__(self, path: Path | None, max_age_s: float, wall_clock: Callable[[], float]) -> None:
        self.path = path
        self.max_age_s = max_age_s
        self.wall_clock = wall_clock
        self.entries: dict[str, dict] = {}

    def load(self) -> list[Finding]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = jsonsafe.load(self.path, limit=MAX_REPORT_BYTES)
            urls = data["urls"] if data.get("format") == CACHE_FORMAT else {}
            now = self.wall_clock()
            self.entries = {
                url: entry
                for url, entry in urls.items()
                if 0 <= now - float(entry["checked_at"]) < self.max_age_s
            }
        except (jsonsafe.JsonProblem, ValueError, KeyError, TypeError, AttributeError):
            return [
                findings.warning(
                    "cache-unreadable",
                    self.path.as_posix(),
                    "the URL cache is damaged and was ignored; it is rewritten after this run, or delete it.",
                )
            ]
        return []

    def fresh(self, url: str) -> bool:
        return url in self.entries

    def remember(self, url: str, status: int) -> None:
        self.entries[url] = {"checked_at": self.wall_clock(), "status": status}

    def save(self) -> list[Finding]:
        if self.path is None:
            return []
        body = json.dumps({"format": CACHE_FORMAT, "urls": self.entries}, indent=1, sort_keys=True) + "\n"
        try:
            write_text(self.path, body, self.path.parent)
        except OSError as exc:
            return [
                findings.warning(
                    "cache-unwritable",
                    self.path.as_posix(),
                    f"the URL cache cannot be written ({exc.strerror or exc}); pass a writable --cache path.",
                )
            ]
        return []
