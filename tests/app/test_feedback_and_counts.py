"""Pilot tests of what the app says back: a message after every change, the stale message
naming the query and filters, counts as "n of m" and pluralised."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static, TextArea
from tui_helpers import make_app, search_for, settle, wait_until

from app.tui.app import MemoryApp
from app.tui.screens.entry_form import EntryFormScreen
from app.tui.screens.main import MainScreen
from app.tui.widgets.results_pane import ResultsPane
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.status_line import StatusLine
from engine.core.models import Category, Entry
from engine.services.memory import Memory


def text_of(screen: object, selector: str) -> str:
    """The plain text a Static (or Label) shows."""
    return str(screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


def toasts(app: object) -> list[str]:
    """Titles and messages of the notifications shown so far."""
    return [f"{n.title}: {n.message}" for n in app._notifications]  # type: ignore[attr-defined]


def stale_note(memory: Memory) -> str:
    """A note citing a function that is then deleted; returns its content."""
    source = memory.paths.root / "billing.py"
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    content = "compute_total() in billing.py ignores refunds"
    memory.add(content, source="session", category="gotcha")
    memory.add("Deploys go out on Tuesdays", source="session", category="pattern")
    source.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    return content


async def test_the_stale_message_names_the_query_and_the_filters(memory: Memory) -> None:
    stale_note(memory)
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "deploys")
        await pilot.press("f6")
        await settle(pilot)
        message = text_of(app.screen, "#results-message")
        # There is a stale entry: only none that matches the query.
        assert "nothing cites code that has changed" not in message
        assert "“deploys”" in message
        await search_for(pilot, "")
        app.screen.update_state(category=Category.PATTERN)  # type: ignore[attr-defined]
        await settle(pilot)
        message = text_of(app.screen, "#results-message")
        assert "nothing cites code that has changed" not in message
        assert "category pattern" in message


async def test_edit_says_it_was_saved(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("enter", "e")
        await wait_until(pilot, lambda: isinstance(app.screen, EntryFormScreen), "the form")
        app.screen.query_one("#content", TextArea).text = "LanceDB wants double quotes"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any(t.startswith("Entry saved") for t in toasts(app)), toasts(app)


async def test_export_toast_is_pluralised(seeded: Memory, tmp_path: Path) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "fts5 syntax")
        screen = app.screen
        assert len(screen.query_one(ResultsTable).results) == 1
        from app.tui.screens.export import ExportRequest
        from engine import ExportFormat

        target = tmp_path / "out.json"
        request = ExportRequest(path=target, fmt=ExportFormat.JSON)
        screen.query_one(ResultsPane).write_export(
            request, screen.query_one(ResultsTable).results, "fts5 syntax"
        )
        await settle(pilot)
        assert target.is_file()
        assert any(t == "Exported: 1 result as json → " + str(target) for t in toasts(app)), toasts(
            app
        )


async def test_counts_show_n_of_m_and_are_pluralised(memory: Memory) -> None:
    memory.add("The only entry", category="gotcha")
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert "1 entries" not in text_of(app.screen, "#results-header")
        assert "1 entry" in text_of(app.screen, "#results-header")
        status = str(app.screen.query_one(StatusLine).render())
        assert "1 entry " in status and "1 entries" not in status


async def test_browsing_a_large_memory_says_showing_n_of_m(memory: Memory) -> None:
    entries = [
        Entry(
            id=f"{i:032x}",
            content=f"Note {i}",
            category=Category.GOTCHA if i % 3 else Category.PATTERN,
            created_at=f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}+00:00",
            updated_at=f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}+00:00",
        )
        for i in range(677)
    ]
    memory.restore(entries)
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        header = text_of(app.screen, "#results-header")
        assert "showing 200 of 677 entries" in header, header
        app.screen.update_state(category=Category.GOTCHA)  # type: ignore[attr-defined]
        await settle(pilot)
        header = text_of(app.screen, "#results-header")
        assert "showing 200 of 451 entries" in header, header


async def test_every_change_is_confirmed_and_the_export_says_n_of_m(
    seeded: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Toasts last 5 s: on a loaded machine the first would be gone before the last.
    monkeypatch.setattr(MemoryApp, "NOTIFICATION_TIMEOUT", 3600.0)
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb")
        await pilot.press("enter", "d")
        await wait_until(pilot, lambda: not isinstance(app.screen, MainScreen), "the dialog")
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        await search_for(pilot, "fts5")
        app.screen.query_one(ResultsTable).focus()
        await pilot.press("p")
        await settle(pilot)
        titles = [t.split(":")[0] for t in toasts(app)]
        for title in ("Entry deleted", "Undone", "Promoted to markdown"):
            assert title in titles, toasts(app)
        await search_for(pilot, "")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, MainScreen), "the export")
        summary = str(app.screen.query_one("#export-summary", Static).render())
        assert summary.startswith("5 entries, newest first"), summary
