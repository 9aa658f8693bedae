"""A store of record on object storage (``store_uri = "s3://bucket/prefix"``): how LanceDB
opens it, and what an error says when the object store cannot be reached.

The endpoint and credentials come from the object store's standard environment, read
when the store is opened and passed to LanceDB in memory only: never written to a file or
a log (``repr`` hides them, and messages name the URI alone). Plain HTTP is allowed for a
loopback endpoint (a test server, a local MinIO) or with ``store_allow_http = true``.
Retries are bounded so that a stopped server fails a call in seconds, not minutes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from ipaddress import ip_address
from urllib.parse import urlsplit

from engine.core.errors import StorageError

CONNECT_TIMEOUT = "2s"
REQUEST_TIMEOUT = "30s"
MAX_RETRIES = "3"
RETRY_TIMEOUT = "10"
"""Object store client limits (LanceDB's defaults retry for up to 3 minutes): a stopped
server fails a call in about 5 s (tests/engine/test_remote_store.py)."""

_AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "aws_access_key_id",
    "AWS_SECRET_ACCESS_KEY": "aws_secret_access_key",
    "AWS_SESSION_TOKEN": "aws_session_token",
    "AWS_REGION": "aws_region",
}
_UNREACHABLE = (
    "error sending request",
    "connection refused",
    "tcp connect",
    "dns error",
    "timed out",
    "timeout",
    "retryerror",
    "error performing",
    "connection reset",
)


@dataclass(frozen=True, slots=True)
class RemoteStore:
    """Where LanceDB opens a remote store: the URI and the object store options."""

    uri: str
    options: Mapping[str, str] = field(default_factory=dict, repr=False)
    endpoint: str = ""
    """The endpoint (no credentials): named in messages and by ``doctor``."""

    @property
    def where(self) -> str:
        """The store as messages name it."""
        return f"{self.uri} (endpoint {self.endpoint})" if self.endpoint else self.uri


def remote_store(
    uri: str, *, allow_http: bool = False, environ: Mapping[str, str] | None = None
) -> RemoteStore:
    """The options LanceDB needs to open ``uri``, from the object store's environment.

    Raises:
        StorageError: the endpoint is plain HTTP, not loopback, and ``store_allow_http``
            is off.
    """
    env = os.environ if environ is None else environ
    options = {
        "connect_timeout": CONNECT_TIMEOUT,
        "timeout": REQUEST_TIMEOUT,
        "client_max_retries": MAX_RETRIES,
        "client_retry_timeout": RETRY_TIMEOUT,
    }
    endpoint = ""
    if uri.startswith("s3://"):
        options |= {key: env[var] for var, key in _AWS_ENV.items() if env.get(var)}
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
        if region:
            options["aws_region"] = region
        endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL") or ""
        if endpoint:
            options["aws_endpoint"] = endpoint
    if endpoint.startswith("http://"):
        if not (allow_http or is_loopback(endpoint)):
            raise StorageError(
                f"the object store endpoint {endpoint} is plain HTTP and not on this machine: "
                "credentials and entries would cross the network unencrypted. Use https://, "
                "or set store_allow_http = true (CLAUDE_MEMORY_STORE_ALLOW_HTTP=1) if the "
                "network is trusted"
            )
        options["allow_http"] = "true"
    return RemoteStore(uri=uri, options=options, endpoint=without_userinfo(endpoint))


def without_userinfo(url: str) -> str:
    """``url`` without a ``user:password@`` part (what messages may show of it)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]).geturl()


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine (localhost, 127.0.0.0/8, ::1)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def is_unreachable(exc: BaseException) -> bool:
    """Whether an object store call failed because the server could not be reached."""
    text = str(exc).lower()
    return any(marker in text for marker in _UNREACHABLE)


def unreachable(where: str, exc: BaseException) -> str:
    """The message of an object store that cannot be reached (never credentials: LanceDB's
    errors name the endpoint and the request, not the keys)."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (
        f"the store of record at {where} is unreachable ({first[:300]}). Check the "
        "network, the endpoint (AWS_ENDPOINT_URL) and the credentials; searches and lists "
        "keep working from this machine's keyword index meanwhile"
    )


def store_error(where: str, exc: BaseException, otherwise: str) -> StorageError:
    """A :class:`StorageError` for a failed object store call: unreachable, or ``otherwise``."""
    return StorageError(unreachable(where, exc) if is_unreachable(exc) else otherwise)
