"""A real S3-compatible server on loopback for the remote-store tests: moto in server
mode (``moto[server]``, the ``test`` extra).

The server runs in a child process (this file run as a script), not in a thread of the
test process, where it shared the GIL with the test's own work. The child keeps its
buckets in memory while it stops listening (connections are refused) and listens again on
the same port, so a test can take the server down and bring it back with nothing lost."""

from __future__ import annotations

import atexit
import contextlib
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass

REGION = "us-east-1"
KEY_ID = "AKIAMEMORYTUITESTKEY"[:20]
SECRET = "memory-tui-test-secret-never-logged"

_RUNNING: list[subprocess.Popen[str]] = []  # ended at exit if a test did not close its own


@dataclass
class S3Server:
    """A running moto server (a child process) and how to reach it."""

    server: subprocess.Popen[str]
    endpoint: str
    port: int

    def client(self) -> object:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=KEY_ID,
            aws_secret_access_key=SECRET,
            region_name=REGION,
        )

    def bucket(self) -> str:
        """A new empty bucket."""
        name = f"mem-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)  # type: ignore[attr-defined]
        return name

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        """Every object key under ``prefix``."""
        pages = self.client().get_paginator("list_objects_v2")  # type: ignore[attr-defined]
        return [
            o["Key"]
            for p in pages.paginate(Bucket=bucket, Prefix=prefix)
            for o in p.get("Contents", [])
        ]

    def stop(self) -> None:
        """Stop listening (connections are refused); the buckets are kept."""
        _command(self.server, "stop")

    def start(self) -> None:
        """Listen again, on the same port, with the same buckets."""
        _command(self.server, "start")

    def close(self) -> None:
        """End the server process."""
        _end(self.server)


def _command(proc: subprocess.Popen[str], word: str) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(word + "\n")
    proc.stdin.flush()
    answer = proc.stdout.readline().strip()
    if not answer.startswith("ok"):
        raise RuntimeError(f"the moto server did not {word}: {answer!r} (exit {proc.poll()})")
    return answer


def _end(proc: subprocess.Popen[str]) -> None:
    if proc in _RUNNING:
        _RUNNING.remove(proc)
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()  # the child exits at the end of its input
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for stream in (proc.stdout, proc.stdin):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


@atexit.register
def _end_all() -> None:
    for proc in list(_RUNNING):
        _end(proc)


def start_server(port: int = 0) -> S3Server:
    """Start moto's S3 server on 127.0.0.1 in a child process (any free port unless
    ``port``); it answers once this returns."""
    with tempfile.TemporaryFile(mode="w+") as log:  # the child's stderr, read if it fails
        proc = subprocess.Popen(
            [sys.executable, __file__, str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            bufsize=1,
        )
        _RUNNING.append(proc)
        assert proc.stdout is not None
        ready = proc.stdout.readline().split()
        if len(ready) != 2 or ready[0] != "ok":
            _end(proc)
            log.seek(0)
            raise RuntimeError(f"the moto server did not start:\n{log.read()[-2000:]}")
    bound = int(ready[1])
    return S3Server(proc, f"http://127.0.0.1:{bound}", bound)


def aws_env(endpoint: str) -> dict[str, str]:
    """The object store environment a machine of the team would have."""
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_REGION": REGION,
    }


def _serve(port: int) -> None:
    """The child: serve on ``port``, answer ``stop`` and ``start`` read from stdin (one a
    line, each acknowledged with ``ok``), and exit at the end of stdin."""
    import functools
    import logging
    import threading

    import moto.core.serialize
    from moto.s3.responses import S3Response
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    # moto parses each key's stored timestamp text again (with dateutil) every time a listing
    # names it, and LanceDB lists its _versions/ folder several times per commit: a cache of
    # that pure function makes a listing of a few hundred versions about a third cheaper and
    # leaves every response byte for byte the same.
    parse = moto.core.serialize.parse_to_aware_datetime
    moto.core.serialize.parse_to_aware_datetime = functools.lru_cache(maxsize=65536)(parse)
    # S3 answers a conditional PUT (If-None-Match: *, how Lance commits a version there:
    # its ConditionalPutCommitHandler) in one step; moto checks that the key is absent, then
    # stores it, so under load two machines' commits of one version both pass the check
    # and the later replaces the earlier without a word (one note of four lost in one
    # round of test_machines_creating_the_store_at_once_keep_every_note, session 26). One
    # lock around moto's PUT makes the check and the store one step, as S3's are.
    put_object = S3Response.put_object
    one_at_a_time = threading.Lock()

    def put_object_at_once(self: S3Response) -> object:
        with one_at_a_time:
            return put_object(self)

    S3Response.put_object = put_object_at_once  # type: ignore[method-assign]

    def listen(on: int) -> ThreadedMotoServer:
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=on, verbose=False)
        server.start()  # returns once the socket is bound and listening
        return server

    def close(server: ThreadedMotoServer) -> None:
        server.stop()
        server._server.server_close()  # type: ignore[union-attr]  # refuse, don't queue

    server: ThreadedMotoServer | None = listen(port)
    port = server.get_host_and_port()[1]
    print("ok", port, flush=True)
    for line in sys.stdin:
        if line.strip() == "stop" and server is not None:
            close(server)
            server = None
        elif line.strip() == "start" and server is None:
            server = listen(port)
        print("ok", flush=True)
    if server is not None:
        close(server)


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
