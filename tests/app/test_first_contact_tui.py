"""Pilot tests of the app's defects reported in issue #33 (first contact): focus after a
row goes away, the status line's word on the index, ctrl+g, the help's key column, and
the keys of the delete dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Button
from textual.widgets._markdown import MarkdownTableContent
from tui_helpers import make_app, search_for, settle, wait_until

from app.tui.app import MemoryApp
from app.tui.screens.confirm import ConfirmScreen
from app.tui.screens.help import HelpScreen
from app.tui.screens.main import MainScreen
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.search_bar import SearchBar
from app.tui.widgets.status_line import StatusLine
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def contents(app: object) -> list[str]:
    """Contents of the results shown, in order."""
    return [r.entry.content for r in app.screen.query_one(ResultsTable).results]  # type: ignore[attr-defined]


async def delete_selected(pilot: object, app: object) -> None:
    """d on the selected result, y in the dialog, and wait for the results to follow."""
    await pilot.press("d")  # type: ignore[attr-defined]
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")  # type: ignore[arg-type, attr-defined]
    await pilot.press("y")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]


# --- focus after the focused row goes away ---------------------------------------------


async def test_deleting_the_last_result_shown_gives_the_query_the_focus(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "camelCase")
        assert len(contents(app)) == 1
        await pilot.press("down")
        assert isinstance(app.focused, ResultsTable)
        await delete_selected(pilot, app)
        assert contents(app) == []
        assert isinstance(app.focused, SearchBar)
        await pilot.press(*"fts5")  # the next query (the old one is selected, as after Esc)
        await settle(pilot)
        assert app.screen.state.query == "fts5"  # type: ignore[attr-defined]
        assert len(contents(app)) == 1


async def test_after_a_delete_and_its_undo_the_results_keep_the_focus(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb quotes")
        shown = contents(app)
        await pilot.press("down")
        await delete_selected(pilot, app)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert contents(app) == shown
        assert isinstance(app.focused, ResultsTable)  # the entry is back and selected
        await search_for(pilot, "")
        await pilot.press("down", "down")
        assert isinstance(app.focused, ResultsTable)
        before = len(contents(app))
        await delete_selected(pilot, app)
        assert len(contents(app)) == before - 1
        assert isinstance(app.focused, ResultsTable)  # rows remain: the list keeps it
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert len(contents(app)) == before
        assert isinstance(app.focused, ResultsTable)


async def test_a_refresh_that_empties_the_stale_list_gives_the_query_the_focus(
    memory: Memory,
) -> None:
    source = memory.paths.root / "billing.py"
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    memory.add("compute_total() in billing.py ignores refunds", source="session")
    source.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    app = make_app(memory)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert len(contents(app)) == 1
        app.screen.query_one(ResultsTable).focus()
        await pilot.press("f")  # reviewed: no longer stale, so it leaves the list
        await settle(pilot)
        assert contents(app) == []
        assert isinstance(app.focused, SearchBar)


# --- the status line says when files changed since the last index ----------------------


def knowledge(memory: Memory, name: str, text: str) -> Path:
    """Write a knowledge file of ``memory``'s project."""
    path = memory.paths.knowledge_dir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


async def test_the_status_line_says_when_files_changed_since_the_last_index(
    memory: Memory,
) -> None:
    knowledge(memory, "deploys.md", "# Deploys\n\nDeploys go out on Tuesdays.\n")
    gotchas = knowledge(memory, "gotchas.md", "# Gotchas\n\nQuote camelCase columns.\n")
    Indexer(memory).run(embed=False)
    gotchas.write_text("# Gotchas\n\nQuote camelCase columns, always.\n", encoding="utf-8")
    knowledge(memory, "new.md", "# New\n\nA page written since.\n")
    memory.add("Agents note this", source="session")
    app = make_app(memory)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        status = str(app.screen.query_one(StatusLine).render())
        assert "1 note not shared" in status, status  # not "1 notes"
        assert "index ready" not in status, status
        assert "index: 2 files changed (ctrl+r)" in status, status
        await pilot.press("ctrl+r")
        await settle(pilot)
        status = str(app.screen.query_one(StatusLine).render())
        assert "changed" not in status, status
        assert "index ready" in status, status


# --- ctrl+g acts on what is on screen -------------------------------------------------


async def test_ctrl_g_on_a_wide_terminal_goes_to_the_filters_shown_first(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        sidebar = screen.query_one("#sidebar")
        assert sidebar.display  # shown at first on a wide terminal
        await pilot.press("ctrl+g")  # shown already: go there, do not hide them
        await settle(pilot)
        assert sidebar.display and isinstance(app.focused, FilterList)
        await pilot.press("ctrl+g")  # in them: hide them, back to the query
        await settle(pilot)
        assert not sidebar.display and isinstance(app.focused, SearchBar)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert sidebar.display and isinstance(app.focused, FilterList)


async def test_ctrl_g_follows_the_filters_on_screen_across_a_resize(seeded: Memory) -> None:
    app = make_app(seeded)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        sidebar = screen.query_one("#sidebar")
        assert not sidebar.display  # hidden at first on a narrow terminal
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert sidebar.display and isinstance(app.focused, FilterList)
        await pilot.resize_terminal(160, 48)  # shown by choice: they stay shown
        await settle(pilot)
        assert screen.has_class("-wide")
        assert sidebar.display
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert not sidebar.display and isinstance(app.focused, SearchBar)
        await pilot.resize_terminal(100, 30)  # hidden by choice: they stay hidden
        await settle(pilot)
        await pilot.resize_terminal(160, 48)
        await settle(pilot)
        assert not sidebar.display
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert sidebar.display and isinstance(app.focused, FilterList)


# --- the help's key column is as wide as its keys -------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_the_help_key_column_fits_its_keys(seeded: Memory, size: tuple[int, int]) -> None:
    app = make_app(seeded)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await settle(pilot)
        table = app.screen.query_one(MarkdownTableContent)
        keys = [row[0].plain for row in table.rows]
        assert "↓ / Enter" in keys
        cells = [c for c in table.children if c.name and c.name.endswith(".1")]
        assert len(cells) == len(keys)
        for cell, key in zip(cells, keys, strict=True):  # no key is wrapped
            assert cell.content_size.width >= cell_len(key), (key, cell.content_size)


# --- the delete dialog shows its keys; Enter presses the focused button ----------------


async def test_the_delete_dialog_shows_its_keys_and_enter_presses_the_focused_button(
    seeded: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MemoryApp, "NOTIFICATION_TIMEOUT", 3600.0)  # none gone when looked at
    app = make_app(seeded)
    async with app.run_test(size=(120, 36)) as pilot:
        await search_for(pilot, "lancedb quotes")
        await pilot.press("down", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        dialog = app.screen
        labels = {b.id: str(b.label) for b in dialog.query(Button)}
        assert "y" in labels["yes"] and "Delete" in labels["yes"], labels
        assert "n" in labels["no"] and "Esc" in labels["no"], labels
        assert app.focused is dialog.query_one("#no", Button)  # the safe default
        await pilot.press("enter")  # presses "Cancel": nothing deleted, and it says so
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert seeded.count() == 5
        assert any("Not deleted" in (n.title or "") for n in app._notifications)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        await pilot.press("shift+tab")  # to "Delete"
        assert app.focused is app.screen.query_one("#yes", Button)
        await pilot.press("enter")
        await settle(pilot)
        assert seeded.count() == 4
