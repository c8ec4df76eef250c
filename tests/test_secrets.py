"""Known secret values are blanked in one place; kept logs are private to their owner."""

from __future__ import annotations

from harness.secrets import MIN_SECRET_CHARS, SECRET_VARS, Redactor, write_private

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
