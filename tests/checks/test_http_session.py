"""The external check's session: requests' environment settings, worked out once per scheme and host."""

from __future__ import annotations

import pytest
import requests

from harness.checks.external import new_session
from harness.checks.http_session import SettledSession


@pytest.fixture
def merges(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs requests' own merge_environment_settings was asked about."""
    asked: list[str] = []
    own = requests.Session.merge_environment_settings

    def counted(self, url, proxies, stream, verify, cert):
        asked.append(url)
        return own(self, url, proxies, stream, verify, cert)

    monkeypatch.setattr(requests.Session, "merge_environment_settings", counted)
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "skipped.example")
    return asked


def test_requests_is_asked_once_per_scheme_and_host(merges):
    session = SettledSession()
    first = session.merge_environment_settings("https://a.example/one", {}, None, None, None)
    again = session.merge_environment_settings("https://a.example/two?q", {}, None, None, None)
    session.merge_environment_settings("http://a.example/one", {}, None, None, None)
    skipped = session.merge_environment_settings("https://skipped.example/", {}, None, None, None)

    assert merges == ["https://a.example/one", "http://a.example/one", "https://skipped.example/"]
    assert first == again
    assert first["proxies"]["https"] == "http://127.0.0.1:9"
    assert "https" not in skipped["proxies"]  # no_proxy still applies, per host


def test_each_answer_gets_its_own_proxies_so_a_request_cannot_change_the_next(merges):
    session = SettledSession()
    first = session.merge_environment_settings("https://a.example/", {}, None, None, None)
    first["proxies"]["https"] = "changed"
    again = session.merge_environment_settings("https://a.example/", {}, None, None, None)
    assert again["proxies"]["https"] == "http://127.0.0.1:9"


def test_the_checks_session_is_a_settled_one_with_its_headers_and_redirect_limit():
    session = new_session(max_redirects=3)
    assert isinstance(session, SettledSession)
    assert session.max_redirects == 3
    assert session.headers["Accept"] == "*/*"
