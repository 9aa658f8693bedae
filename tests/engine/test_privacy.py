"""Secrets never reach the memory: <private> redaction and likely-secret detection.

Sample credentials are assembled from pieces so that no scanner mistakes this file
for a leak; none of them is real.
"""

from __future__ import annotations

import time

import pytest
from secret_samples import PEM, SAMPLES

from engine.guards.context import CONTEXT_RULES
from engine.guards.privacy import (
    OWN_RULE_REASONS,
    REDACTED,
    SECRET_PATTERNS,
    find_secrets,
    redact_private,
    redact_secrets,
)
from engine.guards.ruleset import default_ruleset

CONTEXT_KINDS = {kind for kind, _, _ in CONTEXT_RULES} | {"table-secret"}


def test_every_hand_written_rule_has_a_sample_and_a_reason() -> None:
    own = {kind for kind, _ in SECRET_PATTERNS}
    assert own <= set(SAMPLES)
    assert own == set(OWN_RULE_REASONS)


@pytest.mark.parametrize("kind", sorted(OWN_RULE_REASONS))
def test_each_hand_written_rule_catches_what_the_upstream_rules_miss(kind: str) -> None:
    # Its reason holds: some sample of its kind is found by no upstream rule at all.
    upstream = default_ruleset()
    assert any(not upstream.find(text) for text in SAMPLES[kind]), kind


@pytest.mark.parametrize(
    ("kind", "text"), [(kind, text) for kind, texts in SAMPLES.items() for text in texts]
)
def test_secret_is_detected_by_its_pattern(kind: str, text: str) -> None:
    hits = find_secrets(f"Some notes before.\n{text}\nAnd after.")
    # Or by the second source or a context rule (issue 48) where one of theirs is more
    # specific on the same span (Nosey Parker's Azure or Telegram rule, a config key).
    second = [h.kind for h in hits if h.kind.startswith("np:") or h.kind in CONTEXT_KINDS]
    assert [h.kind for h in hits] == [kind] or (hits and len(second) == len(hits))


@pytest.mark.parametrize(
    "text",
    [
        "password = os.environ['DB_PASSWORD']",
        "PASSWORD = os.environ['X']",
        'api_key = os.getenv("OPENAI_API_KEY")',
        "Use sk-learn style estimators; scikit-learn is imported as sklearn.",
        "The sk-learn-compatible-estimator-interface is documented here.",
        'Set secret_policy = "redact" to keep going.',
        "The password must be at least 12 characters long.",
        "password: str = Field(min_length=8)",
        'password = "${DB_PASSWORD}"',
        'api_key = "<your-api-key>"',
        'password: "{{ vault_db_password }}"',
        'API_KEY = "your-api-key-here"',
        "DATABASE_URL=postgresql://user:password@localhost:5432/mydb",
        "postgres://user:pass@localhost/db and postgres://app:${PGPASS}@db/app",
        "See https://example.com:8080/path and https://medium.com/@author/post",
        "git@github.com:org/repo.git",
        "API_KEY=${OPENAI_API_KEY}",
        "SECRET_KEY=os.environ['X']",
        "The key file must start with -----BEGIN PRIVATE KEY----- and end with the END line.",
        "AKIA prefixes access key ids; ghp_ prefixes GitHub tokens.",
        "token = request.headers['Authorization']",
        "UUID 123e4567-e89b-12d3-a456-426614174000 and a sha: "
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "def get_secret(name: str) -> str: ...",
        "https://acme.blob.core.windows.net/c/x.txt?sv=2022-11-02&sp=r&sig=<signature>",
        "Append the SAS token (?sv=…&sig=…) to the blob URL.",
        # a member access is code (sindresorhus/got's options.ts; optional chaining)
        "const password = url ? url.password : this.#internals.password;",
        "password: opts?.password ?? env.password",
        # one keyword=value pair ended by ";" is a statement, not a connection string
        # (mobx.dart's form example: a setter's body)
        "  void setPassword(String value) {\n    password = value;\n  }",
        "pwd = readPassword();",
        # RFC 6455's handshake: a nonce sent in the clear and its hash (mojo's guide)
        "Sec-WebSocket-Key: IDM3ODE4NDk2MjA1OTcxOQ==\nSec-WebSocket-Accept: "
        "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        "Webhooks are https://discord.com/api/webhooks/<id>/<token> URLs.",
        "https://discord.com/api/webhooks/1143503308481384529/" + "x" * 68,
        "https://discord.com/api/webhooks/1/a and https://discord.com/channels/1/2",
        "The legacy FCM server key starts with AAAA and holds :APA91b.",
        "aws_secret_access_key = " + "x" * 40,
        "Public key: " + "a8Kq2mZx9Lp4Rt7Vn3Wb6Ycq8W4tN2pL",
        "# public key: age1" + "q8f3l4xw0k2m9v7c6z5n4b3h2j1g0f9d8s7a6p5o4i3u2y1t0r9e8w7",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    ],
)
def test_ordinary_prose_and_code_are_not_flagged(text: str) -> None:
    assert find_secrets(text) == []


def test_overlapping_hits_are_reported_once() -> None:
    # Both "password-assignment" and "url-password" match; the longer, first one wins.
    text = 'password = "postgres://app:' + "Pr0d-s3cr3t" + '@db/app"'
    hits = find_secrets(text)
    assert [h.kind for h in hits] == ["password-assignment"]


def test_hits_are_in_position_order() -> None:
    text = SAMPLES["gitlab-pat"][0] + " then " + SAMPLES["aws-access-key-id"][0]
    assert [h.kind for h in find_secrets(text)] == ["gitlab-pat", "aws-access-key-id"]


def test_redact_secrets_replaces_each_hit() -> None:
    token = SAMPLES["gitlab-pat"][0]
    text = f"first {token} middle {SAMPLES['slack-bot-token'][0]} end"
    redacted = redact_secrets(text, find_secrets(text))
    assert redacted == "first [redacted: gitlab-pat] middle [redacted: slack-bot-token] end"
    assert find_secrets(redacted) == []


def test_whole_private_key_is_redacted() -> None:
    text = f"key:\n{PEM}\nafter the key"
    redacted = redact_secrets(text, find_secrets(text))
    assert redacted == "key:\n[redacted: private-key]\nafter the key"


def test_unterminated_private_key_is_redacted_to_the_end() -> None:
    text = "pasted:\n" + PEM.split("-----END")[0]
    assert redact_secrets(text, find_secrets(text)) == "pasted:\n[redacted: private-key]"


class TestPrivateBlocks:
    def test_block_is_replaced(self) -> None:
        assert redact_private("a <private>secret</private> b") == f"a {REDACTED} b"

    def test_case_insensitive_multiline_and_non_greedy(self) -> None:
        text = "x <PRIVATE>one\ntwo</Private> y <private>three</private> z"
        assert redact_private(text) == f"x {REDACTED} y {REDACTED} z"

    def test_an_unclosed_block_hides_the_rest_of_the_text(self) -> None:
        assert redact_private("a <private>b\nc") == "a [redacted: private]"

    def test_attributes_case_and_nesting(self) -> None:
        assert redact_private('a <Private reason="x">b</PRIVATE> c') == "a [redacted: private] c"
        nested = "a <private>b <private>c</private> d</private> e"
        assert redact_private(nested) == "a [redacted: private] e"
        assert redact_private("a <privateer>b</privateer>") == "a <privateer>b</privateer>"
        assert (
            redact_private("x\n<private>\ny\n</private>z", keep_lines=True)
            == "x\n[redacted: private]\n\nz"
        )


@pytest.mark.parametrize(
    "text",
    [
        "a" * 1_000_000,
        "sk-" * 300_000,
        "password=" * 100_000,
        "x://" * 200_000,
        ("A" * 50 + "_") * 20_000,
        "-----BEGIN PRIVATE KEY-----\n" * 30_000,
    ],
    ids=["letters", "sk-run", "password=", "scheme-run", "env-like", "pem-headers"],
)
def test_large_inputs_are_scanned_quickly(text: str) -> None:
    started = time.monotonic()
    find_secrets(text)
    assert time.monotonic() - started < 10.0  # quadratic patterns take minutes
