"""The shared HTTP server's token: where it comes from, and how each request is checked.

``serve-mcp --http`` bound beyond loopback refuses to start without a token; on loopback
one is optional. The token comes from the ``MEMORY_TUI_HTTP_TOKEN`` environment variable
or from a file only its owner can read (``--token-file``), never from a command-line
argument (``ps`` shows those to every user of the machine).

Each request is checked by the MCP SDK's own bearer authentication for streamable HTTP:
the server is built with a :class:`SharedTokenVerifier` and :func:`auth_settings`, so the
SDK's ``BearerAuthBackend`` reads ``Authorization: Bearer …`` and its
``RequireAuthMiddleware`` answers 401 with a ``WWW-Authenticate: Bearer`` header before
the request reaches the MCP transport. The token is never logged nor put in a message.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken
    from mcp.server.auth.settings import AuthSettings

TOKEN_ENV = "MEMORY_TUI_HTTP_TOKEN"
"""The environment variable that holds the token."""

MIN_TOKEN_LENGTH = 16
"""Shortest token accepted: 16 base64 characters carry 96 bits when drawn at random."""

MAX_TOKEN_FILE_BYTES = 4096

B64TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
"""The characters a bearer token may have (RFC 6750, section 2.1: ``b64token``)."""

CLIENT_ID = "memory-tui-shared-token"
"""Who a request with the right token is, for the SDK: everyone who holds the token."""

HOW_TO_SET = (
    f"put one in the {TOKEN_ENV} environment variable, or in a file only you can read "
    "(chmod 600) given with --token-file, never on the command line; make one with "
    "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
)


TOKEN_FILE = "token file given with --token-file"
"""How a message names that file: never by its path, which may be the token itself,
typed where the path was expected."""


class TokenError(Exception):
    """The token is missing where it is required, or cannot be used; ``message`` says
    why in one line and never contains the token, nor the path given for its file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address only this machine reaches (``localhost`` included)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_token(
    token_file: Path | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The token from ``--token-file`` or ``$MEMORY_TUI_HTTP_TOKEN``; None when neither
    is given. Raises :class:`TokenError` for both at once, an empty value, a file others
    can read or a token of the wrong shape."""
    env = os.environ if environ is None else environ
    from_env = env.get(TOKEN_ENV)
    if token_file is not None and from_env is not None:
        raise TokenError(f"give the token one way, {TOKEN_ENV} or --token-file, not both")
    if token_file is not None:
        return _checked(_read_token_file(token_file), f"the token in the {TOKEN_FILE}")
    if from_env is not None:
        return _checked(from_env, TOKEN_ENV)
    return None


def require_token_beyond_loopback(host: str, token: str | None) -> None:
    """Refuse to serve ``host`` beyond loopback without a token."""
    if token is None and not is_loopback(host):
        raise TokenError(
            f"serve-mcp --http on {host} needs a token, or anyone who can reach the port "
            f"can read and change the memory: {HOW_TO_SET}"
        )


def _read_token_file(path: Path) -> str:
    """The file's text, once it is known to be a regular file only its owner can read.
    The checks are made on the open file, so they hold for what is read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise TokenError(
            f"cannot read the {TOKEN_FILE}: {exc.strerror} (--token-file takes the path of "
            "a file that holds the token, not the token itself)"
        ) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # checked before fdopen, which refuses a folder
        os.close(fd)
        raise TokenError(f"the {TOKEN_FILE} is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        if os.name == "posix" and info.st_mode & 0o077:
            mode = stat.S_IMODE(info.st_mode)
            raise TokenError(
                f"the {TOKEN_FILE} can be read by other users (mode {mode:04o}): "
                "run `chmod 600` on it and change the token, it may have been seen"
            )
        if info.st_size > MAX_TOKEN_FILE_BYTES:
            raise TokenError(f"the {TOKEN_FILE} is {info.st_size} bytes; a token is one short line")
        data = handle.read(MAX_TOKEN_FILE_BYTES + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TokenError(f"the {TOKEN_FILE} is not text") from None


def _checked(value: str, where: str) -> str:
    token = value.strip()
    if not token:
        raise TokenError(f"{where} is empty")
    if not B64TOKEN.fullmatch(token):
        raise TokenError(
            f"{where} has characters a bearer token cannot carry: use letters, digits "
            "and - . _ ~ + / (RFC 6750), e.g. from secrets.token_urlsafe(32)"
        )
    if len(token) < MIN_TOKEN_LENGTH:
        raise TokenError(
            f"{where} is too short to guess-proof the memory: use at least "
            f"{MIN_TOKEN_LENGTH} characters, e.g. from secrets.token_urlsafe(32)"
        )
    return token


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


class SharedTokenVerifier:
    """The SDK's ``TokenVerifier`` for one token shared by the team.

    Presented and expected tokens are hashed to equal lengths and compared with
    :func:`hmac.compare_digest`, so the time taken says nothing of how much of the token
    matched (nor of its length).
    """

    def __init__(self, token: str) -> None:
        from mcp.server.auth.provider import AccessToken

        self._expected = _digest(token.encode("ascii"))
        # What the SDK keeps in each accepted request's scope (it reads it, never changes
        # it), built once; the token is not put in it.
        self._granted = AccessToken(token="shared-token", client_id=CLIENT_ID, scopes=[])

    async def verify_token(self, token: str) -> AccessToken | None:
        """An access token for the right bearer token, None for any other."""
        # Header values reach us decoded as latin-1, so this gives back the bytes sent.
        presented = _digest(token.encode("latin-1", errors="replace"))
        if not hmac.compare_digest(presented, self._expected):
            return None
        return self._granted

    def __repr__(self) -> str:
        return "SharedTokenVerifier(<token hidden>)"


def auth_settings() -> AuthSettings:
    """The SDK's auth settings for a resource server that only checks bearer tokens.

    No ``resource_server_url``: the 401 then carries no ``resource_metadata`` pointer and
    the server publishes no OAuth metadata, so a client is not sent into an OAuth flow
    that does not exist here. ``issuer_url`` is required by the settings model but used
    only for those OAuth routes, which are not mounted.
    """
    from mcp.server.auth.settings import AuthSettings
    from pydantic import AnyHttpUrl

    return AuthSettings(
        issuer_url=AnyHttpUrl("http://localhost"),
        resource_server_url=None,
        required_scopes=[],
    )
