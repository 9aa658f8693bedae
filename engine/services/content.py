"""What may be stored: content and keywords checked, cleaned and redacted, once per write.

``<private>`` blocks are always redacted; other likely secrets
(:mod:`engine.guards.privacy`) are rejected or redacted according to the secret policy;
length and keywords are validated.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.config import Config
from engine.core.errors import ContentTooLongError, InvalidInputError, SecretDetectedError
from engine.core.hashing import normalize_content
from engine.core.models import MAX_CONTENT_LENGTH, SecretPolicy
from engine.core.validation import clean_keywords, require_unicode
from engine.guards.privacy import REDACTED, find_secrets, redact_private, redact_secrets


def checked_content(
    content: str, config: Config, *, secret_policy: SecretPolicy | None = None, path: str = ""
) -> tuple[str, tuple[str, ...]]:
    """Validate and clean content for storage: returns (content, redacted kinds).

    ``secret_policy`` overrides the configured one. ``path``: the file the content is
    from, if any (the secret rules scoped to other files are skipped for it).
    """
    if not isinstance(content, str):
        raise InvalidInputError("content must be text")
    require_unicode(content, "content")
    text = normalize_content(redact_private(content))
    if not text or text == REDACTED:
        raise InvalidInputError("content is empty (after removing <private> blocks)")
    hits = find_secrets(text, config.secret_allowlist, path or None)
    kinds = tuple(dict.fromkeys(h.kind for h in hits))
    if hits:
        if (secret_policy or config.secret_policy) == SecretPolicy.REJECT:
            raise SecretDetectedError(
                "content looks like it contains a secret (" + ", ".join(kinds) + "); "
                "remove it, wrap it in <private>…</private>, or set secret_policy = "
                '"redact"'
            )
        text = redact_secrets(text, hits)
    if len(text) > MAX_CONTENT_LENGTH:
        raise ContentTooLongError(
            f"content is {len(text):,} characters; the limit is {MAX_CONTENT_LENGTH:,}"
        )
    return text, kinds


def redacted(text: str, config: Config) -> str:
    """``text`` with ``<private>`` blocks and likely secrets replaced by their markers,
    whatever the secret policy; no length or emptiness check. For a long text of which a
    part is kept (a session's transcript): redacted whole first, so a cut cannot split a
    secret or a ``<private>`` block out of view."""
    require_unicode(text, "text")
    text = redact_private(text)
    return redact_secrets(text, find_secrets(text, config.secret_allowlist))


def checked_keywords(
    keywords: Sequence[str], config: Config, secret_policy: SecretPolicy | None
) -> tuple[str, ...]:
    """Clean keywords; one that looks like a secret is rejected or dropped."""
    kept = []
    for keyword in clean_keywords(keywords):
        hits = find_secrets(keyword, config.secret_allowlist)
        if not hits:
            kept.append(keyword)
        elif (secret_policy or config.secret_policy) == SecretPolicy.REJECT:
            raise SecretDetectedError(f"a keyword looks like a secret ({hits[0].kind}); remove it")
    return tuple(kept)
