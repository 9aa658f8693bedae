"""Counting the requests that reach an S3 server, by HTTP method (LIST = ``GET ?list-type=2``).

tests/s3_server.py runs moto in a child process, whose request log the bench cannot read;
:func:`counting_server` runs moto's ``ThreadedMotoServer`` in this process instead, where
werkzeug's request log (one line per request) reaches :class:`Requests`. Used by
``bench.remote_store --requests-only`` and ``bench.s3_flat``.
"""

from __future__ import annotations

import contextlib
import logging
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterator

import boto3

_LINE = re.compile(r'"(?:\x1b\[[0-9;]*m)*(GET|PUT|HEAD|DELETE|POST) (\S+)')


class Requests(logging.Handler):
    """Counts the requests moto's server logs, by HTTP method."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[str] = Counter()
        self.paths: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        found = _LINE.search(record.getMessage())
        if found:
            method, path = found.groups()
            listing = method == "GET" and "list-type=2" in path
            self.counts["LIST" if listing else method] += 1
            self.paths.append(f"{'LIST' if listing else method} {path}")

    def per(self, times: int = 1) -> dict[str, float]:
        """Requests per run of ``times`` runs, by method."""
        return {m: round(n / times, 1) for m, n in sorted(self.counts.items())}

    def measure(self, action: Callable[[], object], times: int = 1) -> dict[str, float]:
        """Run ``action`` ``times`` times and return its requests per run."""
        self.counts.clear()
        self.paths.clear()
        for _ in range(times):
            action()
        return self.per(times)


@contextlib.contextmanager
def counting_server() -> Iterator[tuple[str, str, Requests]]:
    """An in-process moto S3 server on loopback: (endpoint, a new bucket, the counter)."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    counter = Requests()
    log = logging.getLogger("werkzeug")
    saved = (list(log.handlers), log.level, log.propagate)
    for handler in saved[0]:
        log.removeHandler(handler)
    log.addHandler(counter)
    log.setLevel(logging.INFO)
    log.propagate = False
    try:
        client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            aws_access_key_id="AKIAMEMORYTUIBENCH00",
            aws_secret_access_key="bench",
            region_name="us-east-1",
        )
        bucket = f"bench-{uuid.uuid4().hex[:12]}"  # moto's buckets outlive its server
        client.create_bucket(Bucket=bucket)
        yield endpoint, bucket, counter
    finally:
        log.removeHandler(counter)
        for handler in saved[0]:
            log.addHandler(handler)
        log.setLevel(saved[1])
        log.propagate = saved[2]
        server.stop()
