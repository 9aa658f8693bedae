"""Keeping secrets out of memory: ``<private>`` redaction and likely-secret detection."""

from __future__ import annotations

import re
from dataclasses import dataclass

REDACTED = "[REDACTED]"
_PRIVATE = re.compile(r"<private>.*?</private>", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class SecretMatch:
    """A likely secret found in text: which pattern, and where."""

    kind: str
    start: int
    end: int


# Each pattern names a kind of credential; kept specific so prose is not flagged. A
# pattern with a ``value`` group is skipped when that value is an obvious placeholder.
# Tokens start where a run of token characters starts (not at every "-" inside one):
# with a plain \b, a long run such as "sk-sk-sk-…" is rescanned from each "-", which
# is quadratic (seconds for 20 kB).
_START = r"(?<![A-Za-z0-9_\-])"
_QUOTED_VALUE = r"(?P<value>(?![$<{%*])[^'\"\s]{8,})"
_ENV_VALUE = r"(?P<value>(?![$<{%*'\"])[^'\"\s(\[]{8,})(?=\s|$)"
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private key block",
        # A header alone (prose about the PEM format) is not a key: require key material.
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n"
            r"(?:[A-Za-z0-9-]+:[^\n]*\n|\s*\n)*"
            r"\s*[A-Za-z0-9+/=]{40,}.*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.DOTALL,
        ),
    ),
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    (
        "AWS secret access key",
        re.compile(r"(?i)aws_?secret_?access_?key\s*[=:]\s*['\"]?[A-Za-z0-9/+=]{40}\b"),
    ),
    (
        "GitHub token",
        re.compile(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"
        ),
    ),
    ("GitLab token", re.compile(_START + r"glpat-[A-Za-z0-9_\-]{20,}\b")),
    ("Slack token", re.compile(_START + r"xox[abposr]-[A-Za-z0-9-]{10,}\b")),
    (
        "OpenAI/Anthropic API key",
        # Keys are random: a digit is all but certain, and it keeps kebab-case words
        # that happen to start with "sk-" (sk-learn-compatible-estimator) out.
        re.compile(_START + r"sk-(?:ant-|proj-)?(?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{20,}\b"),
    ),
    ("Google API key", re.compile(_START + r"AIza[0-9A-Za-z_\-]{35}\b")),
    ("Stripe key", re.compile(_START + r"(?:sk|rk)_live_[0-9A-Za-z]{20,}\b")),
    (
        "JSON Web Token",
        re.compile(_START + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ),
    (
        "password in URL",
        re.compile(
            r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^\s:/@]*:(?P<value>[^\s@/]{3,})@[^\s]+", re.I
        ),
    ),
    (
        "password assignment",
        # Also DB_PASSWORD, client_secret, "apiKey": "…" (JSON): the keyword may end a
        # longer name and may be followed by the key's closing quote.
        re.compile(
            r"(?i)(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)"
            r"['\"]?\s*[=:]\s*['\"]" + _QUOTED_VALUE + r"['\"]"
        ),
    ),
    (
        "secret in environment file",
        # KEY=value lines of .env files (no spaces around "=", unlike code).
        re.compile(
            r"(?m)^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*"
            r"(?:PASSWORD|PASSWD|SECRET|API_KEY|APIKEY|ACCESS_TOKEN|AUTH_TOKEN)[A-Z0-9_]*="
            + _ENV_VALUE
        ),
    ),
)
_PLACEHOLDER_WORDS = ("your", "example", "changeme", "placeholder", "xxxx", "redacted", "dummy")
_PLACEHOLDERS = {"password", "passwd", "pass", "pwd", "secret", "token", "user", "***"}


def _is_placeholder(value: str) -> bool:
    """Whether a credential value is an obvious stand-in (docs, templates)."""
    lowered = value.lower()
    return (
        lowered in _PLACEHOLDERS
        or value.startswith(("$", "<", "{", "%", "*"))
        or any(word in lowered for word in _PLACEHOLDER_WORDS)
    )


def redact_private(text: str) -> str:
    """Replace every ``<private>…</private>`` block (any case, multi-line) by ``[REDACTED]``."""
    return _PRIVATE.sub(REDACTED, text)


def find_secrets(text: str) -> list[SecretMatch]:
    """Likely secrets in ``text``, in order of position (overlaps dropped)."""
    hits = sorted(
        (
            SecretMatch(kind, m.start(), m.end())
            for kind, rx in SECRET_PATTERNS
            for m in rx.finditer(text)
            if "value" not in rx.groupindex or not _is_placeholder(m.group("value"))
        ),
        key=lambda h: (h.start, -h.end),
    )
    kept: list[SecretMatch] = []
    for hit in hits:
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def redact_secrets(text: str, hits: list[SecretMatch]) -> str:
    """Replace each hit by ``[REDACTED:<kind>]``."""
    for hit in reversed(hits):
        text = f"{text[: hit.start]}[REDACTED:{hit.kind}]{text[hit.end :]}"
    return text
