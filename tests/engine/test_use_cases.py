"""Memory's use cases as the faces call them: a listing with its total and stale reasons,
counts, the delete rule, and an add that prepares its content once and takes the write
lock once."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.core.errors import FileIsSourceError
from engine.core.models import Source
from engine.services import entries as entries_module
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.locking import WriteLock

BILLING = "def compute_total(items):\n    return sum(items)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / "shop").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "shop" / "billing.py").write_text(BILLING, encoding="utf-8")
    return root


def _stale_project(memory: Memory, project: Path) -> tuple[str, str]:
    """Two notes citing compute_total and one that cites nothing; then the function is
    renamed, so the two are stale. Returns the ids of the newer stale note and the plain
    one."""
    memory.add("compute_total() in shop/billing.py sums the prices", source="session")
    newer = memory.add("compute_total() in shop/billing.py rounds first", source="session")
    plain = memory.add("Deploys happen on Tuesdays", source="manual")
    source = project / "shop" / "billing.py"
    source.write_text(BILLING.replace("compute_total", "total_of"), encoding="utf-8")
    return newer.entry.id, plain.entry.id


def test_a_listing_counts_every_match_and_says_why_each_is_stale(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        newer, plain = _stale_project(memory, project)

        page = memory.listing(limit=2)
        assert page.total == 3 and len(page.entries) == 2
        assert page.entries[0].id == plain  # newest first
        assert set(page.stale) == {page.entries[1].id}
        assert "compute_total" in page.stale[page.entries[1].id]

        stale = memory.listing(limit=1, stale_only=True)
        assert stale.total == 2  # how many are stale, not how many were shown
        assert [e.id for e in stale.entries] == [newer]
        assert set(stale.stale) == {newer}

        assert memory.listing(source="manual", stale_only=True).total == 0
        assert memory.listing(source="session").total == 2


def test_stale_entries_and_mark_reviewed(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        newer, _ = _stale_project(memory, project)
        rows = memory.stale_entries()
        assert len(rows) == 2 and rows[0][0].id == newer
        memory.mark_reviewed([e for e, _ in rows])
        assert memory.stale_entries() == []


def test_counts_by_category_within_a_source(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("Use uv for installs", category="pattern", source="manual")
        memory.add("LanceDB filters want double quotes", category="gotcha", source="session")
        memory.add("Never log tokens", category="gotcha", source="manual")

        every = memory.counts()
        assert every.total == 3
        assert every.by_category == {"pattern": 1, "gotcha": 2}
        assert every.by_source == {"manual": 2, "session": 1}
        manual = memory.counts(source=Source.MANUAL)
        assert manual.total == 3  # the whole memory, whatever the filter
        assert manual.by_category["gotcha"] == 1 and manual.by_category["pattern"] == 1


def test_a_knowledge_file_chunk_is_not_deleted(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        chunk = memory.add("Section text", source="markdown", file_path="k/a.md").entry
        note = memory.add("A note", source="session").entry

        assert memory.delete_refusal(note) is None
        refusal = memory.delete_refusal(chunk)
        assert refusal is not None and "k/a.md" in refusal
        with pytest.raises(FileIsSourceError):
            memory.delete(chunk.id)
        assert memory.get(chunk.id) is not None
        assert memory.delete(note.id) is True


def test_an_add_prepares_its_content_once_and_locks_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The near-duplicate check and the write share one preparation (redaction, secret
    scan, hash), and the duplicate check and the write share one hold of the lock."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("First note, so the near-duplicate check runs", source="session")
        prepared: list[str] = []
        real_check = entries_module.checked_content

        def counting_check(content: str, *args: object, **kwargs: object) -> object:
            prepared.append(content)
            return real_check(content, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(entries_module, "checked_content", counting_check)
        holds: list[int] = []
        real_hold = WriteLock.hold

        def counting_hold(self: WriteLock, **kwargs: object) -> object:
            holds.append(self._depth)
            return real_hold(self, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(WriteLock, "hold", counting_hold)
        result = memory.add("Second note about a different thing", source="session")

        assert result.created
        assert prepared == ["Second note about a different thing"]
        assert holds == [0]  # taken once, never again while held
        assert memory.count() == 2


def test_a_write_with_nothing_to_change_leaves_the_store_alone(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        records = parts_of(memory).records
        assert records.apply(lambda: None) is False
        assert not parts_of(memory).store().exists()
        assert memory.vectors_waiting() == 0
