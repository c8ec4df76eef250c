"""Reading a page's Content-Security-Policy back and checking it against the page itself: every inline
script and stylesheet the page holds is allowed by the hash of its own text, nothing inline else is
(no 'unsafe-inline', no style or event-handler attribute the policy would refuse). A data block
(<script type="application/json">) is never run, so the policy has nothing to allow for it."""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser


class Inline(HTMLParser):
    """The page's CSP, the text of each inline <script> and <style>, and every attribute."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=False)
        self.policy: str | None = None
        self.texts: dict[str, list[str]] = {"script": [], "style": [], "data": []}
        self.attrs: list[tuple[str, str | None]] = []
        self._open: str | None = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.attrs += attrs
        found = dict(attrs)
        if tag == "meta" and (found.get("http-equiv") or "").lower() == "content-security-policy":
            assert self.policy is None, "two policies"
            self.policy = found["content"]
        if tag == "script" and found.get("type") is not None:
            assert found["type"] == "application/json", f"a script of type {found['type']}"
            tag = "data"
        if tag in self.texts:
            self._open = tag
            self.texts[tag].append("")

    def handle_endtag(self, tag):
        self._open = None

    def handle_data(self, data):
        if self._open:
            self.texts[self._open][-1] += data


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_only_its_own_inline_code(page: str) -> None:
    inline = Inline(page)
    assert inline.policy, "the page has no Content-Security-Policy"
    policy = directives(inline.policy)
    assert policy["default-src"] == ["'none'"]
    for tag, directive in (("script", "script-src"), ("style", "style-src")):
        hashes = sorted({sha256_source(text) for text in inline.texts[tag]})
        assert sorted(policy[directive]) == (hashes or ["'none'"]), directive
    assert "'unsafe-inline'" not in inline.policy and "'unsafe-eval'" not in inline.policy
    # What a hash-only policy refuses would break the page: none of it may be on it.
    assert not [name for name, _ in inline.attrs if name == "style" or name.startswith("on")]
