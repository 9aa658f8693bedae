"""Requests to the object store per operation (issue 38): an add and a one-shot open +
keyword search cost a few requests, the same after many adds, counted on a real S3 server
(moto on loopback, in this process so that its request log can be read)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeEmbedder
from s3_server import aws_env

from bench.s3_requests import Requests, counting_server
from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.embedding.base import DIMENSION
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import lance_commits, maintenance, remote_sync, remote_table
from engine.storage.record_store import RecordStore
from engine.storage.remote import remote_store


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Requests]]:
    """A store URI on an in-process S3 server, and the counter of its requests."""
    with counting_server() as (endpoint, bucket, counter):
        for name, value in aws_env(endpoint).items():
            monkeypatch.setenv(name, value)
        yield f"s3://{bucket}/project", counter


def machine(root: Path, uri: str) -> Memory:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "memory.config.toml").write_text(f'store_uri = "{uri}"\n')
    return Memory.open(root, embedder=FakeEmbedder())


def _median_requests(counter: Requests, action: Callable[[int], object]) -> dict[str, float]:
    """Requests of one run of ``action``, by method: the median of 9 runs (one of them may
    include a compaction, which runs every few adds)."""
    runs = [counter.measure(lambda n=n: action(n)) for n in range(9)]
    methods = {m for run in runs for m in run}
    medians = {m: statistics.median(run.get(m, 0) for run in runs) for m in sorted(methods)}
    return {m: n for m, n in medians.items() if n}


def test_an_add_costs_one_listing_and_no_more_after_many_adds(
    tmp_path: Path, counted: tuple[str, Requests]
) -> None:
    """The commit: one listing and three PUTs. The near-duplicate check is a vector
    search, one LanceDB query on the bucket (issue 49: no copy of the vectors): its GETs,
    about one per data file, stay bounded by the compaction however many adds."""
    uri, counter = counted
    with machine(tmp_path / "a", uri) as memory:
        memory.add_many([NewEntry(f"seed {n} about topic{n}") for n in range(50)])
        memory.add("the first single add")
        early = _median_requests(counter, lambda n: memory.add(f"early note {n}"))
        for n in range(80):
            memory.add(f"note {n} in between")
        late = _median_requests(counter, lambda n: memory.add(f"late note {n}"))
    commits = [{m: n for m, n in run.items() if m != "GET"} for run in (early, late)]
    assert commits == [{"LIST": 1, "PUT": 3}] * 2, (early, late)  # data, transaction, manifest
    assert 0 < late["GET"] <= 2 * maintenance.COMPACT_SMALL_FRAGMENTS, late


def test_a_one_shot_open_and_keyword_search_costs_three_requests(
    tmp_path: Path, counted: tuple[str, Requests]
) -> None:
    uri, counter = counted
    with machine(tmp_path / "a", uri) as memory:
        memory.add_many([NewEntry(f"seed {n} about topic{n}") for n in range(50)])
        for n in range(40):
            memory.add(f"note {n} about deploys")

    def one_shot() -> None:
        with machine(tmp_path / "a", uri) as fresh:
            assert fresh.search("topic7", mode="keyword").results

    one_shot()  # the writer's last compaction is repaired into the mirror on the next open
    per_search = counter.measure(one_shot, 3)
    assert per_search.get("LIST", 0) <= 2 and per_search.get("GET", 0) <= 1, counter.paths
    assert per_search.get("PUT", 0) == 0, counter.paths


def test_a_machine_behind_by_a_compaction_adds_and_both_see_everything(
    tmp_path: Path, counted: tuple[str, Requests], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table stays on its version between looks: a machine whose version another one
    compacted away (no old version kept) still commits on the latest one."""
    monkeypatch.setattr(maintenance, "REMOTE_KEEP_VERSIONS_FOR", timedelta(0))
    uri, _ = counted
    with machine(tmp_path / "a", uri) as first, machine(tmp_path / "b", uri) as second:
        first.add("the first machine's opening note")
        second.add("the second machine's opening note")
        for n in range(40):
            first.add(f"first machine note {n}")
        parts_of(first).store().compact()
        assert len(parts_of(first).store().table().list_versions()) == 1  # none kept but the latest
        second.add("the second machine, behind by forty commits and a compaction")
        assert parts_of(second).store().count() == 43  # the first sees it on its next look
    with machine(tmp_path / "c", uri) as third:
        found = third.search("behind by forty commits", mode="keyword").results
        assert [r.entry.content for r in found][:1] == [
            "the second machine, behind by forty commits and a compaction"
        ]
        assert parts_of(third).mirror.count() == 43


def test_the_first_look_after_a_machine_created_the_store_sees_another_machines_add(
    tmp_path: Path, counted: tuple[str, Requests], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table opened a while ago is looked at again (one listing), not taken as latest."""
    monkeypatch.setattr(remote_sync, "CHECK_EVERY", 0.5)
    uri, _ = counted
    with machine(tmp_path / "a", uri) as first:
        first.add("the first machine created the store with this note")
        with machine(tmp_path / "b", uri) as second:
            second.add("the second machine's note about rollbacks")
        time.sleep(remote_table.JUST_OPENED_S + 0.1)
        found = first.search("rollbacks", mode="keyword").results
        assert [r.entry.content for r in found] == ["the second machine's note about rollbacks"]


def test_a_commit_that_finds_its_manifest_compacted_away_is_tried_again(
    tmp_path: Path, counted: tuple[str, Requests]
) -> None:
    """Another machine's compaction removed the manifest this commit had just listed as
    latest (the message Lance gives then): nothing was committed, so it is tried again."""
    uri, _ = counted
    store = RecordStore(Path("unused"), DIMENSION, remote_store(uri))
    embedder = FakeEmbedder(dimension=DIMENSION)
    store.add([_entry("first")], embedder.embed_documents(["first"]))
    tries: list[int] = []

    def add(table: Any) -> None:
        tries.append(table.version)
        if len(tries) == 1:
            raise RuntimeError(
                "lance error: LanceError(IO): Generic N/A error: Wrapped error: Not found: "
                "team/memories.lance/_versions/18446744073709551520.manifest"
            )
        table.add([{**table.to_arrow().to_pylist()[0], "id": "second"}])

    lance_commits.committed(store.table(), add)
    assert len(tries) == 2
    assert store.count() == 2


def _entry(text: str) -> Entry:
    return Entry(
        id=text,
        content=text,
        created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00",
        content_hash=content_hash(text),
    )
