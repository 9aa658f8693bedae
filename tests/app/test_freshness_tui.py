"""Pilot tests of freshness in the app: the stale filter, refreshing, the watcher worker."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import Recorder, make_app, search_for, settle, wait_until

from app.tui.widgets.curation import Curation
from app.tui.widgets.indexing_bar import IndexingBar
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_table import ResultsTable
from engine.services.memory import Memory
from engine.services.watch import KnowledgeWatcher


def shown(app: object) -> list[tuple[str, bool]]:
    """(content, stale) of the results on screen."""
    screen = app.screen  # type: ignore[attr-defined]
    return [(r.entry.content, r.stale) for r in screen.query_one(ResultsTable).results]


def stale_note(memory: Memory) -> str:
    """A note citing a function that is then deleted; returns its content."""
    source = memory.paths.root / "billing.py"
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    content = "compute_total() in billing.py ignores refunds"
    memory.add(content, source="session")
    memory.add("Deploys go out on Tuesdays", source="session")
    source.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    return content


async def test_the_stale_filter_shows_flags_and_refresh_clears_them(
    memory: Memory, recorder: Recorder
) -> None:
    content = stale_note(memory)
    app = make_app(memory)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await settle(pilot)
        assert sorted(shown(app)) == [("Deploys go out on Tuesdays", False), (content, True)]

        await pilot.press("f6")
        await settle(pilot)
        assert shown(app) == [(content, True)]
        assert "stale only" in str(app.screen.query_one("#results-header").render())
        preview = app.screen.query_one(EntryPreview)
        assert preview.result is not None and preview.result.stale
        meta = str(preview.query_one("#preview-meta", Static).render())
        assert "compute_total is no longer defined in billing.py" in meta

        app.screen.query_one(ResultsTable).focus()
        await pilot.press("f")
        await settle(pilot)
        assert recorder.of(Curation.EntryRefreshed)
        assert shown(app) == []
        message = str(app.screen.query_one("#results-message", Static).render())
        assert "No stale entries" in message

        await pilot.press("f6")
        await search_for(pilot, "refunds")
        assert shown(app) == [(content, False)]


async def test_the_watcher_worker_shows_files_edited_elsewhere(
    memory: Memory, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    knowledge = memory.paths.knowledge_dir
    knowledge.mkdir(parents=True)
    memory.add("warm-up: the first write imports LanceDB")
    # The app does not ask to be told when the watch is in place; the test does.
    in_place = threading.Event()
    real_run = KnowledgeWatcher.run

    def run(self: KnowledgeWatcher, on_batch: Any, **kwargs: Any) -> None:
        real_run(self, on_batch, **kwargs, ready=in_place.set)

    monkeypatch.setattr(KnowledgeWatcher, "run", run)
    app = make_app(memory)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await wait_until(pilot, in_place.is_set, "the watch to be in place")
        (knowledge / "ops.md").write_text("# Ops\n\nThe jackfruit runbook.\n", encoding="utf-8")
        await wait_until(
            pilot,
            lambda: recorder.of(IndexingBar.KnowledgeChanged),
            "the watcher to report the file",
        )
        await pilot.press("f5")  # stop, so that settle can wait for every worker
        await settle(pilot)
        await search_for(pilot, "jackfruit")
        assert [c for c, _ in shown(app)] == ["# Ops\n\nThe jackfruit runbook."]


async def test_watching_without_a_knowledge_folder_warns(memory: Memory) -> None:
    assert not memory.paths.knowledge_dir.exists()
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        warnings = [str(n.message) for n in app._notifications if n.severity == "warning"]
        assert warnings == ["There is no knowledge folder to watch."]
        assert not app.screen.query_one(IndexingBar).watching
        assert not [w for w in app.workers if w.group == "watch"]


async def test_refresh_on_an_entry_that_is_not_stale_says_so(memory: Memory) -> None:
    memory.add("Deploys go out on Tuesdays")
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.screen.query_one(ResultsTable).focus()
        await pilot.press("f")
        await settle(pilot)
        assert any("not stale" in str(n.message) for n in app._notifications)


async def test_refreshing_a_stale_promoted_note_says_to_edit_its_file(memory: Memory) -> None:
    """The app refreshes by the engine's rule (``Memory.refresh``): a stale chunk of a
    knowledge file (a promoted note keeps its citations) is not "marked as reviewed",
    which it never was before either: its file is the source."""
    from engine.services.promote import promote

    content = stale_note(memory)
    (note,) = [e for e in memory.list() if e.content == content]
    source = memory.paths.root / "billing.py"
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    moved = promote(memory, note.id).entries[0]
    source.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    assert moved.id in memory.stale_reasons([moved.id])
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "refunds")
        assert shown(app)[0] == (moved.content, True)
        app.screen.query_one(ResultsTable).focus()
        await pilot.press("f")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
    assert any("its knowledge file is the source" in s for s in said), said
    assert not any("marked as reviewed" in s for s in said), said
    assert moved.id in memory.stale_reasons([moved.id])
