"""Pilot tests of curation: add (with validation), edit, delete and undo, promote, re-index."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from textual.widgets import Input, Label, Select, TextArea
from tui_helpers import Recorder, make_app, search_for, settle, wait_until

from app.tui.screens.confirm import ConfirmScreen
from app.tui.screens.entry_form import EntryFormScreen
from app.tui.screens.main import MainScreen
from app.tui.widgets import curation
from app.tui.widgets.curation import Curation
from app.tui.widgets.indexing_bar import IndexingBar
from app.tui.widgets.results_table import ResultsTable
from engine.core.models import Category, Source
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def results(app: object) -> list[str]:
    """Contents of the results shown, in order."""
    screen = app.screen  # type: ignore[attr-defined]
    return [r.entry.content for r in screen.query_one(ResultsTable).results]


async def test_add_appears_in_search(seeded: Memory, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EntryFormScreen)
        form.query_one("#content", TextArea).insert("Sprockets are greased every Friday")
        form.query_one("#category", Select).value = Category.PATTERN
        form.query_one("#keywords", Input).value = "sprocket, grease"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        saved = recorder.of(Curation.EntrySaved)
        assert saved and saved[-1].created
        assert saved[-1].entry.keywords == ("sprocket", "grease")
        await search_for(pilot, "sprockets")
        assert results(app)[0] == "Sprockets are greased every Friday"
        assert seeded.count() == 6


async def test_add_form_shows_validation_errors_inline(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await pilot.pause()
        form = app.screen
        await pilot.press("ctrl+s")  # empty content
        await pilot.pause()
        assert isinstance(app.screen, EntryFormScreen)
        error = form.query_one("#content-error", Label)
        assert "Content is empty" in str(error.render())
        assert error.has_class("-visible")
        form.query_one("#content", TextArea).insert("x" * 10_001)
        await pilot.pause()
        assert not error.has_class("-visible")  # editing clears the message
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "the limit is 10,000" in str(error.render())
        # Not AWS's documented ...EXAMPLE key, a stand-in the secret rules let through.
        form.query_one("#content", TextArea).text = "key AKIA" + "QZ7XJ2M4PLRT3VWZ for the bucket"
        form.query_one("#keywords", Input).value = ",".join(f"k{i}" for i in range(11))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "secret" in str(error.render())  # the engine's own check, shown inline
        assert "at most 10" in str(form.query_one("#keywords-error", Label).render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert seeded.count() == 5


async def test_edit_re_embeds_and_updates(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("enter", "e")  # to the results, edit the first
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EntryFormScreen)
        form.query_one("#content", TextArea).text = "LanceDB wants double quotes; also pyarrow"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await search_for(pilot, "pyarrow")
        assert results(app) == ["LanceDB wants double quotes; also pyarrow"]
        hits = seeded.search("pyarrow", mode="vector").results
        assert hits and hits[0].entry.content.endswith("pyarrow")  # the new vector is stored


async def test_delete_then_undo(seeded: Memory, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await search_for(pilot, "lancedb")
        target = app.screen.query_one(ResultsTable).results[0].entry
        await pilot.press("enter", "d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert recorder.of(Curation.EntryDeleted)[-1].entry.id == target.id
        assert target.content not in results(app)
        assert seeded.get(target.id) is None
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert results(app)[0] == target.content
        assert seeded.get(target.id) == target  # exactly as it was


async def test_delete_can_be_cancelled(seeded: Memory, recorder: Recorder) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await settle(pilot)
        await pilot.press("down")  # to the results
        selected = app.screen.query_one(ResultsTable).selected
        assert selected is not None
        target = selected.entry
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        question = str(app.screen.query_one("#question", Label).render())
        assert question.startswith(f"Delete “{target.title[:70]}”?")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert not recorder.of(Curation.EntryDeleted)
        assert seeded.get(target.id) == target
        assert seeded.count() == 5
        assert target.content in results(app)


async def test_promote_writes_a_knowledge_file(seeded: Memory, project: Path) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("enter", "p")
        await settle(pilot)
        files = list((project / ".claude" / "knowledge").rglob("*.md"))
        assert len(files) == 1 and "gotchas" in files[0].parts
        entry = app.screen.query_one(ResultsTable).results[0].entry
        assert entry.source is Source.MARKDOWN and entry.promoted


async def test_reindex_shows_progress_and_finds_new_files(
    memory: Memory, project: Path, recorder: Recorder
) -> None:
    knowledge = project / ".claude" / "knowledge" / "gotchas"
    knowledge.mkdir(parents=True)
    for i in range(3):
        (knowledge / f"g{i}.md").write_text(f"# Gear {i}\n\nSprocket number {i} squeaks.\n")
    app = make_app(memory)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert recorder.of(IndexingBar.IndexProgress)[-1].done == 3
        assert recorder.of(IndexingBar.IndexFinished)
        assert len(results(app)) == 3
        await search_for(pilot, "sprocket squeaks")
        assert len(results(app)) == 3


async def test_open_in_editor_suspends_and_reindexes_the_file(
    memory: Memory, project: Path, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    knowledge = project / ".claude" / "knowledge" / "gotchas.md"
    knowledge.parent.mkdir(parents=True)
    knowledge.write_text("# Gears\n\nEvery sprocket squeaks.\n")
    Indexer(memory).run()
    calls: list[list[str]] = []

    def fake_editor(command: list[str]) -> int:
        calls.append(command)
        knowledge.write_text("# Gears\n\nEvery sprocket is greased on Fridays.\n")
        return 0

    monkeypatch.setenv("EDITOR", "vi")
    monkeypatch.setattr(curation.subprocess, "call", fake_editor)
    app = make_app(memory)
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
    async with app.run_test(size=(120, 36), message_hook=recorder) as pilot:
        await search_for(pilot, "sprocket")
        await pilot.press("enter", "o")
        await settle(pilot)
        assert calls == [["vi", "+1", str(knowledge)]]
        assert recorder.of(IndexingBar.IndexFinished)
        await search_for(pilot, "greased")
        assert results(app) and "greased on Fridays" in results(app)[0]


async def test_open_without_a_file_explains(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("enter", "o")
        await pilot.pause()
        assert any("no file" in n.message for n in app._notifications)


async def test_opening_an_entry_counts_and_auto_promotes_by_the_engines_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's reference (an entry opened in the editor) goes through
    ``Memory.referenced``, as a search on the other faces does: at the threshold, with
    ``auto_promote``, the entry moves into a knowledge file."""
    from engine import Config

    (tmp_path / "billing.py").write_text("def total(items):\n    return 0\n", encoding="utf-8")
    config = Config(auto_promote=True, promote_threshold=2)
    with Memory.open(tmp_path, config=config, embedder=FakeEmbedder()) as memory:
        entry = memory.add(
            "billing.py totals are computed by total()", source="manual", file_path="billing.py"
        ).entry
        monkeypatch.setenv("EDITOR", "vi")
        monkeypatch.setattr(curation.subprocess, "call", lambda command: 0)
        app = make_app(memory)
        monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
        async with app.run_test(size=(120, 36)) as pilot:
            await search_for(pilot, "totals")
            await pilot.press("enter", "o")
            await settle(pilot)
            assert memory.require(entry.id).reference_count == 1
            await pilot.press("o")
            await settle(pilot)
        moved = memory.get(entry.id)
    assert moved is not None and moved.source.value == "markdown"
    assert list((tmp_path / ".claude" / "knowledge").rglob("*.md"))
