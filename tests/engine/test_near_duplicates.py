"""Near duplicates on ``add``: found at cosine 0.9 and reported (the default), skipped or not
checked as ``near_duplicate`` says, and a failed check never stops an add.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import ControlledEmbedder

from engine.services.memory import Memory
from engine.services.parts import parts_of

AUTH = "Auth uses JWT with 24h expiry"


PARAPHRASE = "Authentication uses JWT tokens with 24-hour expiry"


UNRELATED = "Deploys go out on Fridays"


NEAR_VECTORS = {AUTH: [1.0, 0.0], PARAPHRASE: [0.95, 0.312], UNRELATED: [0.0, 1.0]}  # cos 0.95


def _near_memory(tmp_path: Path, policy: str | None) -> tuple[Memory, ControlledEmbedder]:
    if policy is not None:
        (tmp_path / ".claude").mkdir(exist_ok=True)
        (tmp_path / ".claude" / "memory.config.toml").write_text(
            f'near_duplicate = "{policy}"\n', encoding="utf-8"
        )
    embedder = ControlledEmbedder(NEAR_VECTORS)
    return Memory.open(tmp_path, embedder=embedder), embedder


def test_seed002_near_duplicate_on_add_is_reported_and_kept_by_default(tmp_path: Path) -> None:
    memory, embedder = _near_memory(tmp_path, None)
    with memory:
        first = memory.add(AUTH)
        assert first.near_duplicate is None
        calls = embedder.texts_embedded
        second = memory.add(PARAPHRASE)
        assert embedder.texts_embedded == calls + 1  # checked and stored with one embedding
        assert second.created and second.near_duplicate is not None
        assert second.near_duplicate.entry.id == first.entry.id
        assert second.near_duplicate.similarity == pytest.approx(0.95, abs=0.01)
        assert memory.add(UNRELATED).near_duplicate is None
        again = memory.add(AUTH)  # identical text: the exact duplicate, not a near one
        assert (again.created, again.near_duplicate) == (False, None)
        assert memory.count() == 3


@pytest.mark.parametrize(("policy", "stored", "reported"), [("skip", 1, True), ("keep", 2, False)])
def test_seed002_near_duplicate_policy_skip_or_keep(
    tmp_path: Path, policy: str, stored: int, reported: bool
) -> None:
    memory, _ = _near_memory(tmp_path, policy)
    with memory:
        first = memory.add(AUTH)
        second = memory.add(PARAPHRASE)
        assert memory.count() == stored
        assert (second.near_duplicate is not None) is reported
        assert second.created is (policy == "keep")
        if policy == "skip":
            assert second.entry.id == first.entry.id


def test_seed002_near_duplicate_check_never_stops_an_add(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory, _ = _near_memory(tmp_path, None)
    with memory:
        memory.add(AUTH)

        def broken(*args: object, **kwargs: object) -> None:
            raise OSError("vector store unreadable")

        monkeypatch.setattr(parts_of(memory).store(), "nearest_each", broken)
        result = memory.add(PARAPHRASE)
        assert result.created and result.near_duplicate is None
        assert memory.count() == 2
