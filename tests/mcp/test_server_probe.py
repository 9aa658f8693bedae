"""The HTTP load bench's stack sampler (bench/server_probe.py) names where an add's time
goes and survives a stack that changes while it walks it (issue 49)."""

from __future__ import annotations

import os
import sys

from bench.server_probe import ADD, STORE, part_of, store_call


def test_a_stack_that_is_not_all_frames_is_dropped_not_raised() -> None:
    """In Python 3.11 a frame's ``f_back`` read while its thread runs on can be another
    object; the sample is dropped (the run ended with an AttributeError before)."""

    class Torn:  # what f_back returned: any object but a frame
        f_back = None

    assert part_of(Torn()) is None
    assert part_of(sys._getframe()) is None  # a thread outside an add


def test_a_store_sample_is_named_after_the_store_call_of_the_add() -> None:
    lancedb = os.path.join("site-packages", "lancedb", "query.py")
    frames = [  # innermost first
        (lancedb, "to_batches"),
        (f"/x/{STORE}", "_vector_query"),
        (f"/x/{STORE}", "nearest_each"),
        (f"/x/{ADD}", "add_checked"),
    ]
    assert store_call(frames) == "store: nearest_each"
    assert store_call([(lancedb, "to_batches"), (f"/x/{ADD}", "add_checked")]) == "store"
