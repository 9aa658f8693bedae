"""The store of record on S3-compatible storage vs the local folder (issue 22) —
``python -m bench.remote_store [--adds 200] [--searches 100] [--entries 10000]``.

A moto S3 server (``moto[server]``, the test extra) runs on loopback in this process; the
same work runs against a local folder and against ``s3://bucket/prefix`` on it:

- ``--adds`` single adds through ``Memory.add`` (p50, p95);
- ``--searches`` keyword and hybrid searches in a long-lived process (one ``Memory``),
  and one-shot keyword searches (open, search, close: what the CLI and the hook pay);
- a new machine: ``--entries`` entries written by one machine (``add_many``, 500 a
  batch), then the time another project folder takes to open its memory and build its
  mirror, vectors and embedding cache from the store, and its first hybrid search;
- a stopped server: seconds until an add fails with the "unreachable" message;
- requests to the object store per operation, by HTTP method (moto's request log): what
  docs/REMOTE_STORE.md prices.

The embedder is the deterministic bag-of-words fake of the tests (tests/fakes.py) at the
real model's 384 dimensions, so that the figures are the storage's: the real model adds
the same few milliseconds of embedding to an add and a hybrid search in both cases.
Loopback has no network latency: against a real bucket add each request's round trip.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.services.parts import parts_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder
from s3_server import aws_env, start_server

from bench.metrics import p50_p95, timed_ms
from bench.s3_requests import Requests, counting_server
from engine.core.errors import StorageError
from engine.services.entries import NewEntry
from engine.services.memory import Memory

DIMENSION = 384


def _open(root: Path, uri: str) -> Memory:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    config = f'store_uri = "{uri}"\n' if uri else ""
    (root / ".claude" / "memory.config.toml").write_text(config)
    return Memory.open(root, embedder=FakeEmbedder(DIMENSION))


def latencies(tmp: Path, uri: str, adds: int, searches: int) -> dict[str, list[float]]:
    """Add and search latencies of one store (local when ``uri`` is "")."""
    root = tmp / ("remote" if uri else "local")
    with _open(root, uri) as memory:
        memory.add("warm up the store")
        add = timed_ms(lambda n: memory.add(f"note {n}: service {n} restarts after deploy"), adds)
        words = [f"service {n} deploy" for n in range(searches)]
        keyword = timed_ms(lambda n: memory.search(words[n], mode="keyword"), searches)
        hybrid = timed_ms(lambda n: memory.search(words[n], mode="hybrid"), searches)

    def one_shot(n: int) -> None:
        with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as fresh:
            fresh.search(words[n], mode="keyword")

    return {
        "add": add,
        "keyword search (long-lived)": keyword,
        "hybrid search (long-lived)": hybrid,
        "one-shot open + keyword search": timed_ms(one_shot, min(searches, 30)),
    }


def new_machine(tmp: Path, uri: str, entries: int) -> None:
    """Fill the store from one machine, then time another one building its mirror."""
    with _open(tmp / "writer", uri) as writer:
        for start in range(0, entries, 500):
            batch = range(start, min(entries, start + 500))
            writer.add_many(
                [NewEntry(f"entry {n} about topic{n % 997} and item{n}") for n in batch]
            )
        count = parts_of(writer).store().count()
    started = time.perf_counter()
    with _open(tmp / "newcomer", uri) as newcomer:
        built = time.perf_counter() - started
        assert parts_of(newcomer).mirror.count() == count, (
            parts_of(newcomer).mirror.count(),
            count,
        )
        first = time.perf_counter()
        newcomer.search("topic42 item42", mode="hybrid")
        search = (time.perf_counter() - first) * 1000
        newcomer_embedded = parts_of(newcomer).base_embedder.texts_embedded  # type: ignore[attr-defined]
    print(
        f"new machine, {count:,} entries: mirror + vectors + embedding cache built in "
        f"{built:.1f} s; first hybrid search {search:.0f} ms; texts embedded {newcomer_embedded}"
    )


def stopped_server(tmp: Path, server: object, uri: str) -> None:
    """Seconds until an add fails once the server is gone."""
    with _open(tmp / "outage", uri) as memory:
        memory.add("before the outage")
        server.stop()  # type: ignore[attr-defined]
        started = time.perf_counter()
        try:
            memory.add("during the outage")
        except StorageError as exc:
            print(f"server stopped: add failed after {time.perf_counter() - started:.1f} s")
            print(f"  {exc.message[:160]}…")


def requests_per_operation(tmp: Path) -> None:
    """Object store requests of one add, one search and the rest, by method, counted on an
    in-process moto server (bench/s3_requests.py: the child server's log is not ours)."""
    with counting_server() as (endpoint, bucket, counter):
        saved = {k: os.environ.get(k) for k in aws_env(endpoint)}
        os.environ.update(aws_env(endpoint))
        try:
            _requests(tmp, f"s3://{bucket}/requests", counter)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _requests(tmp: Path, uri: str, counter: Requests) -> None:
    def count(what: str, action: Callable[[], object], times: int = 1) -> None:
        print(f"  {what:52s} {counter.measure(action, times)}")

    print("object store requests per operation (by HTTP method):")
    root = tmp / "requests"
    with _open(root, uri) as memory:
        memory.add_many([NewEntry(f"seed {n} about topic{n}") for n in range(300)])
        for n in range(20):  # the small fragments of single adds, as in daily use
            memory.add(f"warm note {n}")
        count("add (one note, mean of 20)", lambda: memory.add(f"note {time.time_ns()}"), 20)
        for n in range(160):
            memory.add(f"more note {n}")
        count("add after 200 adds (mean of 20)", lambda: memory.add(f"n {time.time_ns()}"), 20)
        time.sleep(2.1)
        memory.search("topic6")  # the look after the adds: this machine's own commits
        time.sleep(2.1)
        count("search, remote version looked at, unchanged", lambda: memory.search("topic7"))
        count("search within the 2 s", lambda: memory.search("topic8"))
        with _open(tmp / "other", uri) as other:
            other.add("a note from another machine")
        time.sleep(2.1)
        count("search, look finds another machine's add", lambda: memory.search("topic5"))
        count("compaction (memory-tui compact)", lambda: parts_of(memory).store().compact())

    def one_shot() -> None:
        with _open(root, uri) as fresh:
            fresh.search("topic9", mode="keyword")

    count("one-shot open + keyword search (mean of 5)", one_shot, 5)
    count(
        "new machine: open and build the mirror (~520 entries)",
        lambda: _open(tmp / "n", uri).close(),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adds", type=int, default=200)
    parser.add_argument("--searches", type=int, default=100)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--requests-only", action="store_true")
    args = parser.parse_args()
    server = start_server()
    os.environ.update(aws_env(server.endpoint))
    bucket = server.bucket()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if args.requests_only:
            requests_per_operation(tmp)
            return
        local = latencies(tmp, "", args.adds, args.searches)
        remote = latencies(tmp, f"s3://{bucket}/team", args.adds, args.searches)
        print(f"{'':34s} {'local folder':28s} loopback S3 (moto)")
        for what, times in local.items():
            print(f"{what:34s} {p50_p95(times, width=6):28s} {p50_p95(remote[what], width=6)}")
        tenth = max(1, args.adds // 10)
        for name, run in (("local", local["add"]), ("S3", remote["add"])):
            first, last = statistics.median(run[:tenth]), statistics.median(run[-tenth:])
            print(f"add p50 {name}: first 10 % {first:.1f} ms, last 10 % {last:.1f} ms")
        new_machine(tmp, f"s3://{bucket}/big", args.entries)
        requests_per_operation(tmp)
        stopped_server(tmp, server, f"s3://{bucket}/outage")


if __name__ == "__main__":
    main()
