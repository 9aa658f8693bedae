"""Several adds written together (engine.add_together, what the MCP server's writer calls):
each as Memory.add makes it, its near duplicate looked for, all in one store commit."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from fakes import ControlledEmbedder

from engine import Config, InvalidInputError, Memory, NearDuplicatePolicy, NewEntry, add_together
from engine.services.parts import parts_of

AUTH = "Auth uses JWT with 24h expiry"
PARAPHRASE = "Authentication uses JWT tokens with 24-hour expiry"
VECTORS: dict[str, Sequence[float]] = {AUTH: [1.0, 0.0], PARAPHRASE: [0.95, 0.312]}


def test_each_add_answered_in_order_with_its_near_duplicate_in_one_commit(
    tmp_path: Path,
) -> None:
    with Memory.open(tmp_path, embedder=ControlledEmbedder(VECTORS)) as memory:
        auth = memory.add(AUTH)
        commits = parts_of(memory).store().commits
        items = [NewEntry("The queue drains at midnight"), NewEntry(PARAPHRASE), NewEntry(AUTH)]
        queue, paraphrase, again = add_together(memory, items)
        assert parts_of(memory).store().commits - commits == 1  # both new entries at once
        assert queue.created and queue.near_duplicate is None
        assert paraphrase.created and paraphrase.near_duplicate is not None
        assert paraphrase.near_duplicate.entry.id == auth.entry.id
        assert not again.created and again.entry.id == auth.entry.id  # the same text
        assert memory.count() == 3
        assert memory.get(queue.entry.id) is not None


def test_a_near_duplicate_is_skipped_and_the_others_stored(tmp_path: Path) -> None:
    config = Config(near_duplicate=NearDuplicatePolicy.SKIP)
    with Memory.open(tmp_path, config=config, embedder=ControlledEmbedder(VECTORS)) as memory:
        auth = memory.add(AUTH)
        paraphrase, other = add_together(
            memory, [NewEntry(PARAPHRASE), NewEntry("The cache expires hourly")]
        )
        assert not paraphrase.created and paraphrase.entry.id == auth.entry.id
        assert paraphrase.near_duplicate is not None
        assert other.created and other.near_duplicate is None
        assert memory.count() == 2


def test_one_refused_add_stores_none_of_them(memory: Memory) -> None:
    memory.add("an entry before the others")
    with pytest.raises(InvalidInputError):
        add_together(memory, [NewEntry("a fine note"), NewEntry("   ")])
    assert memory.count() == 1
