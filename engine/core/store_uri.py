"""The ``store_uri`` setting: where the store of record lives when it is not the local
folder, checked so that no credential is ever kept in a config file or a log.

Credentials and the endpoint come from the object store's own environment
(``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_ENDPOINT_URL``, ``AWS_REGION``;
``GOOGLE_APPLICATION_CREDENTIALS``; ``AZURE_STORAGE_ACCOUNT_NAME``…). A URI that carries
them (``s3://KEY:SECRET@bucket``, ``?secret_access_key=…``) is refused, and the message
never repeats it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from engine.core.errors import ConfigError

REMOTE_SCHEMES = ("s3", "gs", "az")
"""Object stores LanceDB opens (Amazon S3 and S3-compatible servers, Google Cloud
Storage, Azure Blob Storage)."""

_SECRET_WORDS = re.compile(
    r"secret|access[_-]?key|password|passwd|token|credential|signature|sas|sig=|key=",
    re.IGNORECASE,
)
_KEY_SHAPES = re.compile(r"(AKIA|ASIA)[0-9A-Z]{16}")
"""The shape of an AWS access key id."""

CREDENTIALS_REFUSAL = (
    "{where} holds credentials; remove them: memory-tui never keeps credentials in its "
    "configuration. Set them in the object store's environment instead "
    "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL, AWS_REGION for S3)"
)


def check_store_uri(value: object, where: str) -> str:
    """``value`` as a store URI ("" for the local folder).

    Raises:
        ConfigError: not a string, not ``s3://bucket[/prefix]`` (or ``gs://``, ``az://``),
            or credentials in it (the message does not repeat the value then).
    """
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a string such as s3://bucket/prefix")
    text = value.strip()
    if not text:
        return ""
    if holds_credentials(text):
        raise ConfigError(CREDENTIALS_REFUSAL.format(where=where))
    parts = urlsplit(text)
    if parts.scheme not in REMOTE_SCHEMES or not parts.netloc:
        raise ConfigError(
            f"{where}: expected s3://bucket/prefix (or gs://, az://), got {text!r}; "
            "leave it empty for the local folder .claude/memory/vectors"
        )
    return text.rstrip("/")


def holds_credentials(text: str) -> bool:
    """Whether a URI carries a user name, password, key or token."""
    parts = urlsplit(text)
    if "@" in parts.netloc or parts.query or parts.fragment:
        return True  # user:password@, ?key=…: a store URI needs neither
    return bool(_SECRET_WORDS.search(text) and "=" in text) or bool(_KEY_SHAPES.search(text))


def looks_like_credential_key(key: str) -> bool:
    """Whether a config key names a credential (``aws_secret_access_key``, ``token``…)."""
    return bool(_SECRET_WORDS.search(key)) or key.lower() in {"key", "aws_key"}
