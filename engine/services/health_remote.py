"""``doctor`` on a store of record on object storage (``store_uri``): reachable, writable,
versions and size, in one line; called by :mod:`engine.services.health`."""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING

from engine.core.errors import StorageError
from engine.services.health_report import HealthReport, Status
from engine.services.parts import parts_of
from engine.storage.maintenance import REMOTE_KEEP_VERSIONS_FOR
from engine.storage.remote import store_error

if TYPE_CHECKING:
    from engine.services.memory import Memory
    from engine.storage.record_store import RecordStore

PROBE_PREFIX = "doctor_probe_"
"""Name of the throw-away table that shows the store is writable (removed at once)."""
_FIX = (
    "check the network, AWS_ENDPOINT_URL, AWS_REGION and the credentials "
    "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"
)


def check_remote(memory: Memory, report: HealthReport) -> bool:
    """Report on the remote store of ``memory``; True when there is none (a local folder)
    or it is reachable and writable, so that the other store checks can run."""
    if not memory.paths.store_uri:
        return True
    try:
        store = parts_of(memory).store()
        started = time.monotonic()
        exists = store.exists()
        reached = (time.monotonic() - started) * 1000
        probe = _probe(store)
        facts = (
            _facts(store) if exists else "no entries yet (the table is created on the first add)"
        )
    except StorageError as exc:
        report.add("remote store", Status.PROBLEM, exc.message, _FIX)
        return False
    keep = int(REMOTE_KEEP_VERSIONS_FOR.total_seconds())
    kept = f"old versions {keep} s" if keep else "no old version (readers read the latest)"
    report.add(
        "remote store",
        Status.OK,
        f"{store.where}: reachable ({reached:.0f} ms), writable ({probe}); {facts}; "
        f"compaction keeps {kept}",
    )
    return True


def _probe(store: RecordStore) -> str:
    """Write a one-row table next to the entries and remove it."""
    import lancedb  # (its import's cost: docs/upstream/lancedb-import.md)

    assert store.remote is not None
    name = f"{PROBE_PREFIX}{uuid.uuid4().hex[:12]}"
    started = time.monotonic()
    try:
        db = lancedb.connect(store.remote.uri, storage_options=dict(store.remote.options))
        db.create_table(name, data=[{"probe": name}])
        db.drop_table(name)
    except Exception as exc:
        problem = (
            f"the store of record at {store.where} cannot be written ({exc}); "
            "the credentials may allow reads only"
        )
        raise store_error(store.where, exc, problem) from exc
    return f"a probe table written and removed in {(time.monotonic() - started) * 1000:.0f} ms"


def _facts(store: RecordStore) -> str:
    figures = store.figures()
    return (
        f"version {store.version}, {figures['versions']} versions kept, "
        f"{figures['rows']} entries in {figures['fragments']} fragments, "
        f"{figures['bytes'] / 1e6:.1f} MB in the latest version"
    )
