"""Keeping secrets out of memory: ``<private>`` redaction and likely-secret detection."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass

REDACTED = "[redacted: private]"
"""What a ``<private>`` block becomes."""


def marker(kind: str) -> str:
    """What a secret of this kind becomes: ``[redacted: aws-secret-key]``."""
    return f"[redacted: {kind}]"


_PRIVATE_TAG = re.compile(r"<(/?)private\b[^>\n]{0,200}>", re.IGNORECASE)
"""An opening (attributes allowed: ``<private reason="x">``) or closing tag, any case."""


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
        "private-key",
        # A header alone (prose about the PEM format) is not a key: require key material.
        re.compile(
            # Its lines may also have been joined by spaces (pasted through a chat or a
            # form that folds lines).
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[ \t]*\r?\n(?:[A-Za-z0-9-]+:[^\n]*\n|\s*\n)*|[ \t]+)"
            r"\s*[A-Za-z0-9+/=]{40,}.*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.DOTALL,
        ),
    ),
    (
        "private-key",
        # The same inside JSON or a string literal: line breaks written as \n.
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\\[rn])+"
            r"[A-Za-z0-9+/=\\]{40,}[^\"]*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?=\")|\Z)"
        ),
    ),
    ("aws-access-key-id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    (
        "aws-secret-key",
        # By its key name, in config files and in an `aws configure` transcript
        # ("AWS Secret Access Key [None]: …"); the key itself may end in / + or =.
        re.compile(
            r"(?i)aws[_ ]?secret[_ ]?access[_ ]?key(?:[ \t]*\[[^\]\n]{0,20}\])?['\"]?\s*[=:]\s*"
            r"['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
        ),
    ),
    ("npm-token", re.compile(_START + r"npm_[A-Za-z0-9]{36}\b")),
    (
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/]{20,}"),
    ),
    (
        "authorization-header",
        re.compile(
            r"(?i)\b(?:authorization|proxy-authorization)['\"]?\s*[:=]\s*['\"]?"
            r"(?:bearer|basic|token)\s+(?P<value>[A-Za-z0-9._~+/\-]{8,}=*)"
        ),
    ),
    (
        "azure-storage-key",
        re.compile(r"(?i)\b(?:AccountKey|SharedAccessKey)=(?P<value>[A-Za-z0-9+/]{20,}={0,2})"),
    ),
    (
        "github-token",
        re.compile(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"
        ),
    ),
    ("gitlab-token", re.compile(_START + r"glpat-[A-Za-z0-9_\-]{20,}\b")),
    ("slack-token", re.compile(_START + r"xox[abposr]-[A-Za-z0-9-]{10,}\b")),
    (
        "ai-api-key",
        # Keys are random: a digit is all but certain, and it keeps kebab-case words
        # that happen to start with "sk-" (sk-learn-compatible-estimator) out.
        re.compile(_START + r"sk-(?:ant-|proj-)?(?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{20,}\b"),
    ),
    ("google-api-key", re.compile(_START + r"AIza[0-9A-Za-z_\-]{35}\b")),
    # Fixed-prefix tokens of other services, after the rules of gitleaks
    # (github.com/gitleaks/gitleaks, config/gitleaks.toml): a prefix and a length that
    # prose and code do not produce by chance.
    ("sendgrid-key", re.compile(_START + r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b")),
    ("twilio-key", re.compile(_START + r"SK[0-9a-fA-F]{32}\b")),
    ("shopify-token", re.compile(_START + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b")),
    ("pypi-token", re.compile(_START + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}")),
    ("huggingface-token", re.compile(_START + r"hf_[A-Za-z]{34}\b")),
    ("digitalocean-token", re.compile(_START + r"do[opr]_v1_[a-f0-9]{64}\b")),
    ("databricks-token", re.compile(_START + r"dapi[a-f0-9]{32}\b")),
    ("telegram-bot-token", re.compile(r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_\-]{32,33}\b")),
    ("vault-token", re.compile(_START + r"hv[sb]\.[A-Za-z0-9_\-]{90,}")),
    ("age-secret-key", re.compile(r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b")),
    (
        "service-key",
        # Keys without a prefix of their own, named by their service and the word key or
        # token just before them: "HEROKU_API_KEY=<uuid>", "datadog api key: <32 hex>".
        re.compile(
            r"(?i)\b(?:mailgun|heroku|datadog|dd)[A-Za-z0-9_ .\-]{0,12}?(?:key|token)s?['\"]?"
            r"[ \t]*[:=][ \t'\"]*"
            r"(?P<value>key-[0-9a-f]{32}|[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}"
            r"|[0-9a-f]{32}(?:[0-9a-f]{8})?)(?![0-9a-z])"
        ),
    ),
    (
        "service-key",
        # Mailgun's own "key-" and 32 hex digits, with the service named on its line.
        re.compile(r"(?i)\bmailgun\b[^\n]{0,40}?(?<![A-Za-z0-9_\-])(?-i:key-[0-9a-f]{32})\b"),
    ),
    ("stripe-key", re.compile(_START + r"(?:sk|rk)_live_[0-9A-Za-z]{20,}\b")),
    (
        "jwt",
        re.compile(_START + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ),
    (
        "url-password",
        re.compile(
            r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^\s:/@]*:(?P<value>[^\s@/]{3,})@[^\s]+", re.I
        ),
    ),
    (
        "password-assignment",
        # Also DB_PASSWORD, client_secret, "apiKey": "…" (JSON): the keyword may end a
        # longer name and may be followed by the key's closing quote.
        re.compile(
            r"(?i)(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)"
            r"['\"]?\s*[=:]\s*['\"]" + _QUOTED_VALUE + r"['\"]"
        ),
    ),
    (
        "password-in-prose",
        # "the staging password is <value>", "admin password: <value>", where the value
        # has letters and a digit or symbol: "is required", "is stored in Vault",
        # "`$DB_PASS`" and code such as "password: parts[2]" are not one.
        re.compile(
            r"(?i)\b(?:password|passwd|passphrase)(?:[ \t]+for[ \t]+[\w .\-]{1,30}?)?"
            r"[ \t]*(?:[ \t]is|[ \t]was|=|:)[ \t]+"
            r"(?P<value>(?=[^\s'\"`()\[\]{}<>,;]*[0-9!@#%^&*+?])(?=[^\s'\"`()\[\]{}<>,;]*[A-Za-z])"
            r"[^\s'\"`$<{%*(\[][^\s'\"`()\[\]{}<>,;]{7,}+)(?![(\[{<])"
        ),
    ),
    (
        "yaml-secret",
        # KEY: value lines (compose files, CI), unquoted; quoted values are caught above.
        re.compile(
            r"(?m)^[ \t-]*[A-Za-z0-9_]*"
            r"(?:PASSWORD|PASSWD|SECRET|API_KEY|APIKEY|ACCESS_TOKEN|AUTH_TOKEN)[A-Za-z0-9_]*"
            r"[ \t]*:[ \t]+(?P<value>[^'\"\s#$<{%*][^\s#]{7,})[ \t]*$"
        ),
    ),
    (
        "env-secret",
        # KEY=value of .env files and shells (no spaces around "=", unlike code).
        re.compile(
            # At the start of a line or after a blank: also inline, in a command line
            # ("DD_API_KEY=… ./run") or in prose that quotes one.
            r"(?m)(?:^|(?<=[ \t]))(?:export[ \t]+)?[A-Z0-9_]*"
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


def private_spans(text: str) -> list[tuple[int, int]]:
    """Where ``<private>`` blocks are: nested tags make one span from the outermost opening
    tag to its closing one, and a tag never closed runs to the end of the text (better
    to hide too much than to store what someone marked private). One linear scan."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for match in _PRIVATE_TAG.finditer(text):
        if match.group(1) != "/":
            if depth == 0:
                start = match.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, match.end()))
    if depth:
        spans.append((start, len(text)))
    return spans


def redact_private(text: str, *, keep_lines: bool = False) -> str:
    """Replace every ``<private>`` block by :data:`REDACTED` (see :func:`private_spans`);
    ``keep_lines`` keeps its line breaks, so line numbers after it still hold."""
    return _replace(text, [(a, b, REDACTED) for a, b in private_spans(text)], keep_lines)


def redact_secrets_in_place(
    text: str, allow: Collection[str] = ()
) -> tuple[str, list[SecretMatch]]:
    """Every likely secret of a whole text (a file, before it is cut into chunks, so no
    chunk boundary can split a key out of view) replaced, line breaks kept."""
    hits = find_secrets(text, allow)
    return _replace(text, [(h.start, h.end, marker(h.kind)) for h in hits], True), hits


def _replace(text: str, spans: list[tuple[int, int, str]], keep_lines: bool) -> str:
    out, pos = [], 0
    for start, end, marker in spans:
        out += [text[pos:start], marker, "\n" * text.count("\n", start, end) if keep_lines else ""]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def fingerprint(secret: str) -> str:
    """How an allow-list names a match without holding it: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()


def find_secrets(text: str, allow: Collection[str] = ()) -> list[SecretMatch]:
    """Likely secrets in ``text``, in order of position (overlaps dropped). A match whose
    text (or value) is in ``allow``, itself or by its :func:`fingerprint`, is not one."""
    hits = sorted(
        (
            SecretMatch(kind, m.start(), m.end())
            for kind, rx in SECRET_PATTERNS
            for m in rx.finditer(text)
            if "value" not in rx.groupindex or not _is_placeholder(m.group("value"))
            if not allow or not _allowed(m, allow)
        ),
        key=lambda h: (h.start, -h.end),
    )
    kept: list[SecretMatch] = []
    for hit in hits:
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def _allowed(match: re.Match[str], allow: Collection[str]) -> bool:
    found = [match.group(0)]
    if "value" in match.re.groupindex and match.group("value"):
        found.append(match.group("value"))
    return any(f in allow or fingerprint(f) in allow for f in found)


def redact_secrets(text: str, hits: list[SecretMatch]) -> str:
    """Replace each hit by its :func:`marker`."""
    for hit in reversed(hits):
        text = f"{text[: hit.start]}{marker(hit.kind)}{text[hit.end :]}"
    return text
