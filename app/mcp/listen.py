"""The HTTP server's listening socket, bound before anything is served.

``serve-mcp --http`` binds its address itself and hands the socket to uvicorn, so that a
port in use, a port the user may not bind or an address of another machine is one line
saying what to do (and exit status :data:`EXIT_CANNOT_LISTEN`) instead of uvicorn's
logged ``[Errno 98]``; and so that the line saying where it serves is printed once the
port is really listening.
"""

from __future__ import annotations

import errno
import socket

EXIT_CANNOT_LISTEN = 3
"""``serve-mcp --http``'s exit status when it cannot listen on the address asked for
(the status uvicorn gave a failed start, kept for scripts that test it)."""

BACKLOG = 2048
"""Connections the kernel queues before the server accepts them (uvicorn's default)."""


class ListenError(Exception):
    """The address cannot be listened on; ``message`` says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (TCP, IPv6 for an address with ``:``).

    Raises:
        ListenError: the port is in use or privileged, or ``host`` is no address of
            this machine.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    address = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
    try:
        socket.getaddrinfo(host.strip("[]"), port, family, socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):  # a name that resolves to nothing
        raise ListenError(_not_here(host)) from None
    try:
        return socket.create_server((host.strip("[]"), port), family=family, backlog=BACKLOG)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ListenError(
                f"cannot serve on {address}: port {port} is already in use (by another "
                "serve-mcp? `memory-tui status` lists this project's); stop that program, "
                "or choose a free port with --port"
            ) from None
        if exc.errno == errno.EACCES:
            raise ListenError(
                f"cannot serve on {address}: not allowed to listen on port {port} (ports "
                "below 1024 need privileges); choose another with --port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ListenError(_not_here(host)) from None
        raise ListenError(f"cannot serve on {address}: {exc.strerror or exc}") from None


def _not_here(host: str) -> str:
    return (
        f"cannot serve on {host}: it is not an address of this machine; give --host one "
        "of its addresses (127.0.0.1: this machine only; 0.0.0.0: every interface, with "
        "a token)"
    )
