"""``Memory.refresh``: the one stale-refresh rule the CLI and the app call (issue 49)."""

from __future__ import annotations

from pathlib import Path

from fakes import FakeEmbedder

from engine.services.memory import Memory


def _stale_note(memory: Memory, root: Path) -> str:
    code = root / "billing.py"
    code.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    note = memory.add("compute_total() in billing.py ignores refunds", source="session").entry
    code.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    return note.id


def test_a_stale_note_is_reviewed_and_a_fresh_one_left_alone(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        stale_id = _stale_note(memory, tmp_path)
        fresh = memory.add("Deploys go out on Tuesdays", source="manual").entry
        stale = memory.require(stale_id)
        assert set(memory.stale_reasons([stale_id, fresh.id])) == {stale_id}

        done = memory.refresh(stale, fresh)

        assert [e.id for e in done.reviewed] == [stale_id]
        assert [e.id for e in done.fresh] == [fresh.id]
        assert done.discovery is None and not done.kept and not done.rediscovered
        assert memory.stale_reasons([stale_id]) == {}
        assert done.summary() == "1 note(s) marked as reviewed: they cite the code as it is"


def test_refreshing_only_fresh_entries_does_nothing_and_says_so(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        fresh = memory.add("Deploys go out on Tuesdays").entry
        done = memory.refresh(fresh)
        assert done.fresh == (fresh,) and not done.reviewed
        assert done.summary() == "not stale: nothing to refresh"
        assert memory.refresh().summary() == "nothing to refresh"
