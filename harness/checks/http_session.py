"""The requests Session the external URL check sends with: requests' own, except that it works out the
environment's settings for a URL once per scheme and host.

Imported on first use: a structural run without --external never pays for requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests

if TYPE_CHECKING:
    from requests.sessions import _Settings  # the stubs' name for what the merge returns


class SettledSession(requests.Session):
    """requests' merge_environment_settings reads the proxy variables by scanning the whole environment
    twice for every request (a third of a link check's CPU), and its answer depends on the URL only
    through its scheme and host (no_proxy, per-scheme proxies): it is asked once per scheme and host.
    The settings still come from requests itself, so proxies, no_proxy and CA bundles behave exactly
    as they do for any requests user."""

    def __init__(self) -> None:
        super().__init__()
        self.settled: dict[tuple[object, ...], _Settings] = {}

    def merge_environment_settings(self, url, proxies, stream, verify, cert) -> _Settings:
        parts = urlsplit(url)
        key = (parts.scheme, parts.netloc, repr(proxies), stream, verify, cert)
        if key not in self.settled:
            self.settled[key] = super().merge_environment_settings(url, proxies, stream, verify, cert)
        found = self.settled[key]
        return {**found, "proxies": dict(found.get("proxies") or {})}
