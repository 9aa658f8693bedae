"""Keeping secrets out of memory: ``<private>`` redaction and likely-secret detection.

The one secret guard of every face (knowledge files and imported docs, ``memory-tui add``,
the app's form, MCP ``memory_add``, ``doctor --secrets``): :func:`find_secrets` runs
gitleaks' maintained rules (:mod:`.ruleset`, on RE2), Nosey Parker's (:mod:`.noseyparker`,
on RE2), the context rules (:mod:`.context`: a value a key, flag, header, table or
sentence names a credential) and the few hand-written rules below for what those miss.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import re2

from engine.guards.context import context_secrets
from engine.guards.context_values import typed_stand_in
from engine.guards.noseyparker import default_noseyparker
from engine.guards.own_rules import OWN_RULE_REASONS as OWN_RULE_REASONS
from engine.guards.ruleset import default_ruleset, shannon_entropy

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


# The maintained rules are gitleaks' (:mod:`.ruleset`, run on RE2): a finding's kind is the
# upstream rule id. These hand-written rules cover only what that set does not, each with
# its reason in OWN_RULE_REASONS (a test checks every kind has one and that its samples are
# missed by the upstream rules). Most run on Python's ``re`` (they need look-arounds),
# each written to stay linear; those that ``re`` would rescan run on RE2 (``python -m
# bench.secret_rules`` runs all of them on 1 MB adversarial inputs). A
# pattern with a ``value`` group is skipped when that value is an obvious placeholder.
# Tokens start where a run of token characters starts (not at every "-" inside one):
# with a plain \b, a long run such as "sk-sk-sk-…" is rescanned from each "-", which
# is quadratic (seconds for 20 kB).
_START = r"(?<![A-Za-z0-9_\-])"
_QUOTED_VALUE = r"(?P<value>(?![$<{%*])[^'\"\s]{8,})"
_ENV_VALUE = r"(?P<value>(?![$<{%*'\"])[^'\"\s(\[]{8,})(?=\s|$)"
_FIELD_VALUE = r"[^$<{%*;\s'\"][^;\s'\"]{3,127}"
_PLAIN_VALUE = r"(?P<value>(?![$<{%*'\"])[^\s'\";()\[\]{}]{6,})(?=\s|$)"
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str] | Any], ...] = (
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
        # ("AWS Secret Access Key [None]: …"); the key itself may end in / + or =. A
        # stand-in is not one: "xxxx…", AWS's documented "…EXAMPLEKEY" (as gitleaks'
        # AWS rule allows "EXAMPLE").
        re.compile(
            r"(?i)aws[_ ]?secret[_ ]?access[_ ]?key(?:[ \t]*\[[^\]\n]{0,20}\])?['\"]?\s*[=:]\s*"
            r"['\"]?(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
    ),
    (
        "authorization-header",
        re.compile(
            r"(?i)\b(?:authorization|proxy-authorization)['\"]?\s*[:=]\s*['\"]?"
            r"(?:bearer|basic|token)\s+(?P<value>[A-Za-z0-9._~+/\-]{8,}=*)"
        ),
    ),
    (
        "github-token",
        re.compile(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"
        ),
    ),
    (
        "ai-api-key",
        # Keys are random: a digit is all but certain, and it keeps kebab-case words
        # that happen to start with "sk-" (sk-learn-compatible-estimator) out.
        re.compile(_START + r"sk-(?:ant-|proj-)?(?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{20,}\b"),
    ),
    ("slack-token", re.compile(_START + r"xox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("telegram-bot-token", re.compile(r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_\-]{32,33}\b")),
    (
        "service-key",
        # Mailgun's own "key-" and 32 hex digits, with the service named on its line.
        re.compile(r"(?i)\bmailgun\b[^\n]{0,40}?(?<![A-Za-z0-9_\-])(?-i:key-[0-9a-f]{32})\b"),
    ),
    (
        "discord-webhook-url",
        # A Discord webhook's URL: its id (a snowflake) and its token, which posts as the
        # hook. The form of SonarSource's rule S6708 (sonar-text, discord.yaml), its
        # canary/ptb hosts and versioned API paths as Discord's clients write them.
        re.compile(
            r"(?<![\w.\-])(?:https?://)?(?:(?:canary|ptb)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?"
            r"/webhooks/[0-9]{17,20}/(?P<value>[A-Za-z0-9_\-]{60,100})(?![A-Za-z0-9_\-])"
        ),
    ),
    (
        "fcm-server-key",
        # Firebase Cloud Messaging's legacy server key: "AAAA", 7 characters, ":APA91b"
        # and 134 more (the form of SonarSource's rule S6710, sonar-text firebase.yaml,
        # taken where it starts as a server key does; a device's registration token,
        # which the same rule also takes, is no credential).
        re.compile(r"(?<![A-Za-z0-9_\-])AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{120,160}\b"),
    ),
    (
        "url-password",
        re.compile(
            r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^\s:/@]*:(?P<value>[^\s@/]{3,})@[^\s]+", re.I
        ),
    ),
    (
        "connection-string-password",
        # ADO.NET / ODBC / JDBC strings: "Server=…;User Id=sa;Password=…;" (SQL Server,
        # MySQL, Oracle, Npgsql): a Password= or Pwd= field after a ";" or first with a
        # ";" and the next field after it. On RE2: Python's re would rescan the value from
        # every "password=".
        re2.compile(r"(?i);[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?P<value>" + _FIELD_VALUE + ")"),
    ),
    (
        "connection-string-password",
        # A connection string is keyword=value pairs joined by ";" (ADO.NET's
        # DbConnectionStringBuilder, ODBC's SQLDriverConnect): the pair first needs the
        # next pair after its ";"; one pair ended by ";" is a statement ("password = value;").
        re2.compile(
            r"(?i)(?:^|[^\w.\-])(?:password|pwd)[ \t]*=[ \t]*(?P<value>" + _FIELD_VALUE + r")"
            r"[ \t]*;[ \t]*[a-z][\w \t]*="
        ),
    ),
    (
        "azure-sas-signature",
        # Microsoft security-utilities' SEC101/051 LooseSasSecret, as Microsoft wrote it
        # (src/Microsoft.Security.Utilities.Core/HighConfidenceMicrosoftSecurityModels/
        # SEC101_051_LooseSasSecret.cs; .NET's (?<refine>…) is Python's (?P<refine>…)):
        # a shared access signature's sig= (or dsas_secret=), 43 base64 characters or more
        # ending in "=" or its escape "%3d". On RE2.
        re2.compile(r"(?i)(?:^|[?;&])(?:dsas_secret|sig)=(?P<refine>[0-9a-z\/+%]{43,}(?:=|%3d))"),
    ),
    (
        "netrc-password",
        # .netrc: "machine HOST login USER password VALUE", on one line or several.
        re.compile(
            r"(?im)^[ \t]*(?:machine[ \t]+\S+|default)(?:\s+(?:login|account|port)[ \t]+\S+)*"
            r"\s+password[ \t]+(?P<value>[^\s]{4,})"
        ),
    ),
    (
        "curl-user-password",
        # curl -u user:password / --user user:password, quoted or not. On RE2: the gap
        # between "curl" and "-u" would make Python's re rescan it from every "curl".
        re2.compile(
            r"\bcurl\b[^\n]{0,200}?[ \t](?:-u|--user)(?:=|[ \t]{1,5})['\"]?"
            r"[^\s:'\"`]{1,100}:(?P<value>[^\s'\"`]{3,})"
        ),
    ),
    (
        "properties-password",
        # Java .properties and Spring: "spring.datasource.password=…" (with "=": a
        # "key.secret: value" line is YAML, where such keys hold examples in docs).
        re.compile(
            r"(?im)^[ \t]*[a-z0-9_\-]+(?:\.[a-z0-9_\-]+)*\.(?:password|passwd|pwd|secret|"
            r"secret-key|client-secret|api-key|token)[ \t]*=[ \t]*" + _PLAIN_VALUE
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


_IDENTIFIER_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_MEMBER_PATH = re.compile(r"[A-Za-z_$#][\w$#]*(?:(?:\??\.|::|->)[A-Za-z_$#][\w$#]*)+")
"""A member access in code: ``this.#internals.password`` (a JavaScript private field),
``opts?.password``, ``self->password``, ``Config::PASSWORD``."""
_CURL_PLACEHOLDER = re.compile(
    # After upstream's curl-auth-user allow-list: changeme, password, test, xxx, <…>, […].
    r"(?i)(?:change(?:it|me)|pass(?:word)?|pwd|test|token|\*+|x+|(.)\1*|[<\[].*|.*>)"
)
_TOKEN_PLACEHOLDER_WORDS = ("xxxx", "example", "here", "your")


def _random_token(token: str) -> bool:
    """A token-shaped match that is not a stand-in: no placeholder word (``ghp_xxxx…``,
    ``AKIA…EXAMPLE``, ``…TOKENHERE``) and more than 3 bits of entropy a character."""
    lowered = token.lower()
    return shannon_entropy(token) > 3.0 and not any(w in lowered for w in _TOKEN_PLACEHOLDER_WORDS)


_VALUE_CHECKS: dict[str, Callable[[str], bool]] = {
    # "self.password = other.password" is code, not a .properties line.
    "properties-password": lambda value: not _IDENTIFIER_PATH.fullmatch(value),
    # "url ? url.password : this.#internals.password" is code (got's options.ts).
    "password-in-prose": lambda value: not _MEMBER_PATH.fullmatch(value),
    "curl-user-password": lambda value: not _CURL_PLACEHOLDER.fullmatch(value),
    # "Authorization: Bearer strong-password" in docs is a stand-in, not a token.
    "authorization-header": lambda value: _random_token(value) and "password" not in value.lower(),
    **dict.fromkeys(
        (
            *("aws-access-key-id", "github-token", "slack-token", "ai-api-key"),
            *("telegram-bot-token", "discord-webhook-url", "fcm-server-key"),
        ),
        _random_token,
    ),
}
"""Further checks on the value of some hand-written rules: a value must pass to count."""
_VALUE_ONLY = frozenset(
    (
        "connection-string-password",
        "netrc-password",
        "curl-user-password",
        "properties-password",
    )
)
"""Rules whose redaction is the value alone: the host, user or key name stay readable."""


_KEY_MATERIAL = re.compile(r"[A-Za-z0-9+/=]{40}")
_UPSTREAM_CHECKS: dict[str, Callable[[str], bool]] = {
    # Upstream's private-key rule spans 64 characters of anything up to the next
    # "KEY-----": two key examples elided with "..." in one document make one finding.
    # A key has lines of base64; one run of 40 is asked for, as of the rule above.
    "private-key": lambda secret: bool(_KEY_MATERIAL.search(secret)),
}
"""Checks on some upstream findings (an addition to the rule's allow-lists)."""
_PUBLIC_HANDSHAKE = re.compile(r"(?i)\bsec-websocket-(?:key|accept)\b")
"""RFC 6455's handshake headers: a nonce the client sends in the clear and the server's
hash of it, named "key" but public by design (mojo's routing guide shows one)."""


_PUBLIC_NAME = re.compile(r"(?i)\bpub(?:lic)?[ \t_.\-]?(?:key|token)\b")


def _named_public(rule_id: str, text: str, start: int, match: str, secret: str) -> bool:
    """A generic finding whose key names it public (``Public key: …``, ``# public key:
    age1…``): upstream's allow-list takes ``public_key`` and ``publicKey``, not words."""
    if not rule_id.startswith("generic"):
        return False
    key = match[: max(0, match.find(secret))]  # the finding starts at its secret
    begin = start - len(key)
    return bool(_PUBLIC_NAME.search(text[max(0, begin - 8) : begin] + key))


def _stand_in(rule_id: str, secret: str) -> bool:
    """Whether an upstream finding is a documentation stand-in rather than a secret: a
    placeholder word (``your``, ``example``, ``xxxx``…), or the word ``password`` where
    the rule is not about passwords (``Authorization: Bearer strong-password``), or
    typed to fill the slot (:func:`.context_values.typed_stand_in`: ``abcdef123456``)."""
    lowered = secret.lower()
    return (
        any(w in lowered for w in _PLACEHOLDER_WORDS)
        or ("password" in lowered and "password" not in rule_id)
        or typed_stand_in(secret)
    )


def _is_placeholder(value: str) -> bool:
    """Whether a credential value is an obvious stand-in (docs, templates)."""
    lowered = value.lower()
    return (
        lowered in _PLACEHOLDERS
        or value.startswith(("$", "<", "{", "%", "*"))
        or any(word in lowered for word in _PLACEHOLDER_WORDS)
        or typed_stand_in(value)
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
    text: str, allow: Collection[str] = (), path: str | None = None
) -> tuple[str, list[SecretMatch]]:
    """Every likely secret of a whole text (a file, before it is cut into chunks, so no
    chunk boundary can split a key out of view) replaced, line breaks kept; ``path`` is
    that file's."""
    hits = find_secrets(text, allow, path)
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


def find_secrets(
    text: str, allow: Collection[str] = (), path: str | None = None
) -> list[SecretMatch]:
    """Likely secrets in ``text``, in order of position (overlaps dropped): the upstream
    rules' findings (:mod:`.ruleset`, kind = the rule id) and the hand-written rules'. A
    match whose text (or secret) is in ``allow``, itself or by its :func:`fingerprint`,
    is not one. Where two overlap the earlier, longer one wins; on the same span an
    upstream rule of a named service first, then a hand-written one, then
    ``generic-api-key``. ``path``: the file the text is (or is cut from), if any: upstream
    rules scoped to other files are skipped there."""
    own = (
        (SecretMatch(kind, *m.span(rx.groupindex["value"] if kind in _VALUE_ONLY else 0)), 1)
        for kind, rx in SECRET_PATTERNS
        for m in rx.finditer(text)
        if "value" not in rx.groupindex or not _is_placeholder(m.group("value"))
        if kind not in _VALUE_CHECKS or _VALUE_CHECKS[kind](_value(m) or m.group(0))
        if not allow or not _allowed((m.group(0), _value(m)), allow)
    )
    upstream = (
        (SecretMatch(f.rule_id, f.start, f.end), 2 if f.rule_id.startswith("generic") else 0)
        for f in default_ruleset().find(text, path)
        if f.rule_id not in _UPSTREAM_CHECKS or _UPSTREAM_CHECKS[f.rule_id](f.secret)
        if not _stand_in(f.rule_id, f.secret) and not _PUBLIC_HANDSHAKE.search(f.match)
        if not _named_public(f.rule_id, text, f.start, f.match, f.secret)
        if not allow or not _allowed((f.match, f.secret), allow)
    )
    second = (
        (SecretMatch(f"np:{f.rule_id}", f.start, f.end), 2 if ".generic." in f.rule_id else 0)
        for f in default_noseyparker().find(text, checked=True)
        if not _stand_in(f.rule_id, f.secret) and not _PUBLIC_HANDSHAKE.search(f.match)
        if not allow or not _allowed((f.match, f.secret), allow)
    )
    context = (
        (SecretMatch(c.kind, c.start, c.end), 1)
        for c in context_secrets(text)
        if not allow or not _allowed((c.match, text[c.start : c.end]), allow)
    )
    found = [*own, *upstream, *second, *context]
    hits = sorted(found, key=lambda h: (h[0].start, -h[0].end, h[1]))
    kept: list[SecretMatch] = []
    for hit, _ in hits:
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def _value(match: re.Match[str]) -> str:
    return (match.group("value") or "") if "value" in match.re.groupindex else ""


def _allowed(found: tuple[str, str], allow: Collection[str]) -> bool:
    return any(f and (f in allow or fingerprint(f) in allow) for f in found)


def redact_secrets(text: str, hits: list[SecretMatch]) -> str:
    """Replace each hit by its :func:`marker`."""
    for hit in reversed(hits):
        text = f"{text[: hit.start]}{marker(hit.kind)}{text[hit.end :]}"
    return text
