"""Known secret values are blanked in one place; kept logs are private to their owner."""

from __future__ import annotations

import base64
import re
from urllib.parse import quote, quote_plus, unquote, unquote_plus

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.secrets import MIN_SECRET_CHARS, SECRET_VARS, Redactor, write_private
from tests.support.examples import examples

KEY = "sk-ant-0123456789abcdef"


def test_every_known_secret_value_is_replaced_by_its_name():
    redact = Redactor.of({"ANTHROPIC_API_KEY": KEY, "GEMINI_API_KEY": "AIza-fake-key-42", "PATH": "/usr/bin"})
    text = f"x-api-key: {KEY}\ngemini AIza-fake-key-42, path /usr/bin"
    assert redact(text) == (
        "x-api-key: [redacted ANTHROPIC_API_KEY]\ngemini [redacted GEMINI_API_KEY], path /usr/bin"
    )


def test_a_value_inside_another_is_replaced_longest_first():
    redact = Redactor.of({"OPENAI_API_KEY": "token-1234", "ANTHROPIC_AUTH_TOKEN": "token-1234-extended"})
    assert redact("a token-1234-extended b token-1234") == (
        "a [redacted ANTHROPIC_AUTH_TOKEN] b [redacted OPENAI_API_KEY]"
    )


def test_short_and_missing_values_are_left_alone():
    short = "k" * (MIN_SECRET_CHARS - 1)
    redact = Redactor.of({"ANTHROPIC_API_KEY": short, "OPENAI_API_KEY": ""})
    assert redact.secrets == () and redact(f"keep {short}") == f"keep {short}"


def test_documents_are_redacted_in_keys_values_and_lists():
    redact = Redactor.of({"COPILOT_PROVIDER_API_KEY": KEY})
    document = {"cases": [{"prompt": f"say {KEY}", "n": 3, KEY: None}], "ok": True}
    assert redact.data(document) == {
        "cases": [
            {
                "prompt": "say [redacted COPILOT_PROVIDER_API_KEY]",
                "n": 3,
                "[redacted COPILOT_PROVIDER_API_KEY]": None,
            }
        ],
        "ok": True,
    }


def test_the_runtimes_keys_are_all_known():
    assert {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "GEMINI_API_KEY"} <= set(
        SECRET_VARS
    )
    assert "COPILOT_PROVIDER_API_KEY" in SECRET_VARS


def test_private_files_are_owner_only_even_when_they_existed(tmp_path):
    path = tmp_path / "logs" / "case.judge.txt"
    path.parent.mkdir()
    path.write_text("old")
    path.chmod(0o644)
    write_private(path, "new")
    assert path.read_text() == "new" and path.stat().st_mode & 0o777 == 0o600


# --- every usual encoding of a secret (hypothesis) -------------------------------------------------

SECRETS = (
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=MIN_SECRET_CHARS, max_size=48)
    .map(str.strip)
    .filter(lambda value: len(value) >= MIN_SECRET_CHARS)
)
AROUND = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
AROUND_BYTES = st.binary(max_size=12)
BASE64_RUNS = {"standard": re.compile(r"[A-Za-z0-9+/]+"), "url-safe": re.compile(r"[A-Za-z0-9_-]+")}
DECODERS = {"standard": base64.b64decode, "url-safe": base64.urlsafe_b64decode}


def base64_holds(text: str, raw: bytes, alphabet: str) -> bool:
    """Whether some run of base64 characters in `text`, decoded from any of its four offsets, holds
    `raw`: an oracle that knows nothing of how the redactor finds its encodings."""
    for run in BASE64_RUNS[alphabet].findall(text):
        for offset in range(4):
            piece = run[offset:]
            piece = piece[: len(piece) - 1] if len(piece) % 4 == 1 else piece  # one char is no byte
            piece += "=" * (-len(piece) % 4)  # a stream cut short, or without its padding
            if piece and raw in DECODERS[alphabet](piece):
                return True
    return False


@settings(max_examples=examples(150), deadline=None)
@given(
    secret=SECRETS,
    before=AROUND,
    after=AROUND,
    lead=AROUND_BYTES,
    tail=AROUND_BYTES,
    alphabet=st.sampled_from(sorted(BASE64_RUNS)),
    padded=st.booleans(),
)
def test_a_secret_in_base64_at_any_offset_of_a_longer_stream_is_redacted(
    secret, before, after, lead, tail, alphabet, padded
):
    raw = secret.encode("utf-8")
    encode = base64.b64encode if alphabet == "standard" else base64.urlsafe_b64encode
    alone, inside = encode(raw).decode(), encode(lead + raw + tail).decode()
    if not padded:
        alone, inside = alone.rstrip("="), inside.rstrip("=")
    redact = Redactor.of({"FOO_TOKEN": secret})
    for shown in (alone, inside):
        assert base64_holds(shown, raw, alphabet)  # the oracle sees it before
        out = redact(f"{before}{shown}{after}")
        assert not base64_holds(out, raw, alphabet), (shown, out)
        assert "[redacted FOO_TOKEN]" in out


@settings(max_examples=examples(150), deadline=None)
@given(secret=SECRETS, before=AROUND, after=AROUND, upper=st.booleans())
def test_a_secret_in_hex_is_redacted(secret, before, after, upper):
    shown = secret.encode("utf-8").hex()
    out = Redactor.of({"AWS_SECRET_ACCESS_KEY": secret})(
        f"{before}{shown.upper() if upper else shown}{after}"
    )
    assert shown not in out.lower() and "[redacted AWS_SECRET_ACCESS_KEY]" in out


@settings(max_examples=examples(150), deadline=None)
@given(
    secret=SECRETS,
    before=AROUND,
    after=AROUND,
    encode=st.sampled_from([lambda v: quote(v, safe=""), quote, quote_plus]),
    lower=st.booleans(),
)
def test_a_secret_percent_encoded_is_redacted(secret, before, after, encode, lower):
    shown = encode(secret)
    if lower:
        shown = re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), shown)
    out = Redactor.of({"SKILLSCOPE_CACHE_KEY": secret})(f"{before}{shown}{after}")
    assert secret not in unquote(out) and secret not in unquote_plus(out)
    assert shown not in out


def test_any_variable_named_like_a_secret_is_known_and_others_are_not():
    environ = {
        "AWS_SECRET_ACCESS_KEY": "aws-secret-value-1",
        "FOO_TOKEN": "foo-token-value-2",
        "SKILLSCOPE_CACHE_KEY": "cache-key-value-3",
        "DB_PASSWORD": "db-password-value-4",
        "HOME": "/home/someone/here",
    }
    out = Redactor.of(environ)(" ".join(environ.values()))
    assert out == (
        "[redacted AWS_SECRET_ACCESS_KEY] [redacted FOO_TOKEN] [redacted SKILLSCOPE_CACHE_KEY] "
        "[redacted DB_PASSWORD] /home/someone/here"
    )
